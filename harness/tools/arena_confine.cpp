// arena-confine: runs a command confined (harness/src/confine.h), e.g. the compiler on a
// candidate's source, so that it can read only the system's folders and the paths named, and
// write only where named.
//
//   arena-confine [--read PATH]... [--write PATH]... [--protect DIR[:DIR...]] [--report FILE] -- COMMAND [ARGS...]
//
// --report writes what was enforced (Landlock, seccomp) as JSON before the command starts.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "confine.h"

int main(int argc, char** argv) {
  arena::ConfinementPlan plan;
  plan.children = true;  // compilers run their own tools
  std::string report;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "arena-confine: %s needs a value\n", a.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (a == "--read") {
      plan.read.push_back(v);
    } else if (a == "--write") {
      plan.write.push_back(v);
    } else if (a == "--protect") {
      std::stringstream ss(v);
      for (std::string p; std::getline(ss, p, ':');)
        if (!p.empty()) plan.protect.push_back(p);
    } else if (a == "--report") {
      report = v;
    } else {
      std::fprintf(stderr, "arena-confine: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (i >= argc) {
    std::fprintf(stderr, "usage: arena-confine [--read P]... [--write P]... [--protect D:D] [--report F] -- COMMAND...\n");
    return 2;
  }
  const arena::ConfinementReport r = arena::confine_self(plan);
  if (!report.empty()) {
    std::ofstream f(report);
    f << r.to_json().dump() << "\n";
  }
  ::execvp(argv[i], argv + i);
  std::fprintf(stderr, "arena-confine: cannot run %s: %s\n", argv[i], std::strerror(errno));
  return 127;
}
