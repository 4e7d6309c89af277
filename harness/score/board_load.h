// The board's results store: scored runs (results/<run>/scores.json) read into one record per
// run, then merged. Runs are keyed by run name, GPU model, driver and KernelArena (suite)
// version: folders with the same key (shards scored on several hosts) merge into one run; a
// folder whose inputs (each Test.xml's site, build stamp and start time) equal another's is the
// same run scored twice and is dropped (docs/board.md).
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena::score {

struct BoardTask {
  std::string id, suite, task, category = "uncategorized", verdict;
  bool compiled = false, correct_seen = false, correct_unseen = false, correct = false, judged = false,
       gpu_judged = false;
  double speedup, ci_low, ci_high, fraction_of_peak;  // NaN where unknown
  std::string vs_name;                                // a further reference (torch.compile), "" if none
  double vs, vs_low, vs_high;
  nlohmann::json score;    // the task's entry of scores.json
  nlohmann::json context;  // its entry of scores.json's context.tasks ({} when the run has none)
  std::string source;      // the scores.json it came from
  BoardTask();
};

struct BoardRun {
  std::string run, gpu, driver, version, agent = "unknown", model, date, created, slug;
  long long started = 0;               // the first Test.xml's start (seconds since the epoch), 0 if unknown
  std::vector<std::string> files;      // the scores.json files merged into it
  std::vector<std::string> hosts;      // Test.xml sites
  std::vector<std::string> fingerprint;  // site|build stamp|start of each input, sorted
  std::vector<std::string> notes;
  std::map<std::string, BoardTask> tasks;  // by id
  std::string key() const { return run + "|" + gpu + "|" + driver + "|" + version; }
};

// Every scores.json under the given folders: a run folder, or a results folder of run folders.
// Throws InputError naming a folder that holds none.
std::vector<std::string> find_scores_files(const std::vector<std::string>& dirs);

// One scored run as the board sees it. Throws InputError naming `path` when it is not a
// scores.json written by arena-score.
BoardRun board_run_from_scores(const nlohmann::json& scores, const std::string& path);

// Drops runs scored twice and merges runs of one key; `notes` says what was dropped or merged.
// A task present in two merged folders keeps the first folder's record (by creation time).
// The result is ordered by start time, then key, and each run gets a unique file-name slug.
std::vector<BoardRun> merge_board_runs(std::vector<BoardRun> runs, std::vector<std::string>* notes);

}  // namespace arena::score
