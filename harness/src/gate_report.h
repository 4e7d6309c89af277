// What a gate leaves behind: its result as JSON beside the test, written atomically in the
// schema of result_schema.h (arena-score reads nothing else), and CTest measurements on stdout
// for CDash's charts.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "device_api.h"
#include "result_schema.h"

namespace arena {

void print_measurement(const std::string& name, double value);
void print_text_measurement(const std::string& name, const std::string& value);
// Writes path.partial then renames it over path, so a reader never sees half a file.
void write_json_atomic(const std::string& path, const nlohmann::json& j);
DeviceFacts device_facts(const arena_device_info& info, int id);
// ISO-8601 UTC time now.
std::string utc_now();

// The skip protocol: print why, write `result` (a result of the schema, serialized) with
// status skipped, and exit with CTest's SKIP_RETURN_CODE.
[[noreturn]] void skip_gate(const std::string& why, const std::string& result_path, nlohmann::json result);

constexpr int kSkipExitCode = 77;

}  // namespace arena
