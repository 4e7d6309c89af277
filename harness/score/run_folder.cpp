#include "run_folder.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace arena::score {

namespace {

// rename(2) that fails when the target exists (even as an empty folder). Returns 0 or errno.
int rename_no_replace(const fs::path& from, const fs::path& to) {
#if defined(__linux__) && defined(RENAME_NOREPLACE)
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
#endif
  std::error_code ec;
  if (fs::exists(to, ec)) return EEXIST;
  if (::rename(from.c_str(), to.c_str()) == 0) return 0;
  return errno;
}

std::string temp_name(const std::string& run) {
  std::random_device rd;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%d-%08x", static_cast<int>(::getpid()), rd());
  return "." + run + ".partial-" + buf;
}

}  // namespace

std::string write_run_folder(const std::string& root, const std::string& run_name, OnExists policy,
                             const RenderFiles& render) {
  if (run_name.empty() || run_name[0] == '.' || run_name.find('/') != std::string::npos ||
      run_name.find('\\') != std::string::npos)
    throw std::invalid_argument("bad run name '" + run_name + "': use letters, digits, - _ and . (not first)");
  fs::create_directories(root);
  for (int attempt = 1; attempt < 1000; ++attempt) {
    const std::string name = attempt == 1 ? run_name : run_name + "-" + std::to_string(attempt);
    const fs::path target = fs::path(root) / name;
    if (fs::exists(target)) {
      if (policy == OnExists::refuse)
        throw FolderExists(target.string() + " already exists: another run's results are never overwritten (choose "
                                             "another --run name or remove that folder)");
      continue;
    }
    const fs::path tmp = fs::path(root) / temp_name(name);
    fs::create_directory(tmp);
    try {
      for (const auto& [file, content] : render(name)) {
        std::ofstream out(tmp / file, std::ios::binary);
        out << content;
        out.close();
        if (!out) throw std::runtime_error("cannot write " + (tmp / file).string());
      }
    } catch (...) {
      fs::remove_all(tmp);
      throw;
    }
    int rc = rename_no_replace(tmp, target);
    if (rc == 0) return target.string();
    fs::remove_all(tmp);
    if (rc == EEXIST || rc == ENOTEMPTY) {
      if (policy == OnExists::refuse)
        throw FolderExists(target.string() + " appeared while writing: another run's results are never overwritten");
      continue;
    }
    throw std::runtime_error("cannot rename " + tmp.string() + " to " + target.string() + ": " + std::strerror(rc));
  }
  throw std::runtime_error("no free name for run " + run_name + " under " + root);
}

}  // namespace arena::score
