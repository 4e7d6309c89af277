// What the board (arena-score board; docs/board.md) needs of a run beyond the scores: per task
// its category, the agent and model that wrote the candidate, the GPU and driver its perf gate
// ran on, the agent's check log and transcript, and the candidate's source beside the file it
// started from. Read from the gates' Test.xml records and result files, and from the agent's
// files that cmake/ArenaAgent.cmake keeps beside agent.json (agent_checks.jsonl,
// agent_stdout.log, agent_stderr.log, agent_start.<ext>, agent_candidate.<ext>).
#pragma once
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "gate.h"

namespace arena::score {

// The version of KernelArena (and so of its suites) whose arena-score scored the run.
extern const char* const kArenaVersion;

// {"kernelarena_version", "tasks": {<suite>/<task>: {...}}} for scores.json's "context".
// gates: every gate test by name, as merged (shards.h), with its result attached.
nlohmann::json run_context(const std::map<std::string, GateResult>& gates);

// Transcript lines that name a path the agent had no business reading: under the build tree
// outside its workspace and toolbox (workspace "" when unknown), a task folder, a solution file.
std::vector<std::string> outside_reads(const std::string& transcript, const std::string& workspace);

}  // namespace arena::score
