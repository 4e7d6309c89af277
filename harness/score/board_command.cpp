// arena-score board <results dir>... [--out DIR] [--audit-speedup X] [--audit-peak F]
// [--audit-kept-error R]: the static site of docs/board.md.
#include "board_command.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "board_load.h"
#include "board_site.h"
#include "ctest_xml.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace arena::score {

const char* const kBoardUsage =
    "  arena-score board <results dir | run folder>... [--out DIR] [--audit-speedup X] [--audit-peak F]\n"
    "                    [--audit-kept-error R]\n"
    "      reads every scored run (scores.json) under the folders and writes a static site to DIR (default\n"
    "      board/): leaderboard, categories, task pages, trajectories, history, audit (docs/board.md).\n"
    "      Runs of one name, GPU, driver and version merge; a run scored twice counts once.\n";

int run_board(const std::vector<std::string>& args, void (*usage_error)(const std::string&)) {
  std::vector<std::string> dirs;
  std::string out = "board";
  AuditLimits limits;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto number = [&](double lo) {
      if (i + 1 >= args.size()) usage_error(a + " needs a value");
      char* end = nullptr;
      const double v = std::strtod(args[++i].c_str(), &end);
      if (!end || *end || !(v > lo)) usage_error(a + " wants a number above " + std::to_string(lo));
      return v;
    };
    if (a == "--out") {
      if (i + 1 >= args.size()) usage_error("--out needs a folder");
      out = args[++i];
    } else if (a == "--audit-speedup") limits.speedup = number(0);
    else if (a == "--audit-peak") limits.peak = number(0);
    else if (a == "--audit-kept-error") limits.kept_error = number(0);
    else if (a.rfind("--", 0) == 0) usage_error("unknown option " + a);
    else dirs.push_back(a);
  }
  if (dirs.empty()) usage_error("board wants at least one results folder");
  std::vector<BoardRun> runs;
  for (const auto& path : find_scores_files(dirs)) {
    std::ifstream in(path);
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded()) throw InputError(path + ": not valid JSON");
    runs.push_back(board_run_from_scores(j, path));
  }
  std::vector<std::string> notes;
  runs = merge_board_runs(std::move(runs), &notes);
  const auto files = render_board(runs, notes, limits);
  // A board replaces the board it was built over (no page of a run no longer given is left);
  // any other folder is left alone.
  if (fs::exists(out) && !fs::is_empty(out)) {
    if (!fs::is_regular_file(fs::path(out) / "board.json") || !fs::is_regular_file(fs::path(out) / "board.js"))
      throw InputError(out + ": exists and is not a board (no board.json and board.js): choose another --out");
    fs::remove_all(out);
  }
  for (const auto& [rel, content] : files) {
    const fs::path p = fs::path(out) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary);
    f << content;
    if (!f) throw InputError(p.string() + ": cannot write");
  }
  std::printf("arena-score board: %zu run(s) -> %s/index.html (%zu files)\n", runs.size(), out.c_str(), files.size());
  for (const auto& n : notes) std::printf("  %s\n", n.c_str());
  return 0;
}

}  // namespace arena::score
