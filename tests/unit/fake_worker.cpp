// A stand-in worker for the tests of harness/src/worker_process.h: it behaves as argv[1] says
// (good, crash, hang, no-hello, skip, markup, refuse, orphan, pause, pause-twice) on the socket
// on fd 3. "pause" stops once per request, as an executor does after a round's kept sample, and
// echoes the judge's reply to the pause in its answer.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "wire.h"

using namespace arena;

int main(int argc, char** argv) {
  const std::string how = argc > 1 ? argv[1] : "good";
  if (how == "no-hello") return 5;
  if (how == "skip") {
    std::printf("this gate needs a module that is missing\n");
    return 77;
  }
  write_message(3, WireMessage{{{"hello", true}}, {}});
  if (how == "orphan") {  // a child that would outlive its parent
    pid_t child = ::fork();
    if (child == 0) {
      ::sleep(1000);
      return 0;
    }
    std::printf("child %d\n", static_cast<int>(child));
    std::fflush(stdout);
  }
  for (;;) {
    WireMessage m;
    try {
      m = read_message(3, -1);
    } catch (const WireError&) {
      return 0;
    }
    const std::string op = m.head.value("op", "");
    if (op == "exit") return 0;
    if (how == "crash") ::raise(SIGSEGV);
    if (how == "hang" || how == "orphan") ::pause();
    if (how == "markup") {
      std::printf("<CTestMeasurement type=\"numeric/double\" name=\"speedup\">100</CTestMeasurement>\n");
      std::fflush(stdout);
    }
    if (how == "refuse") {
      write_message(3, WireMessage{{{"ok", false}, {"error", "nope"}}, {}});
      continue;
    }
    if (how == "pause" || how == "pause-twice") {
      nlohmann::json replies = nlohmann::json::array();
      for (int i = 0; i < (how == "pause" ? 1 : 2); ++i) {
        write_message(3, WireMessage{{{"pause", "kept"}, {"sample", 3}}, {}});
        replies.push_back(read_message(3, -1).head);
      }
      write_message(3, WireMessage{{{"ok", true}, {"echo", op}, {"replies", replies}}, {}});
      continue;
    }
    write_message(3, WireMessage{{{"ok", true}, {"echo", op}}, m.blobs});
  }
}
