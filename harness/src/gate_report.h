// What a gate leaves behind: CTest measurements on stdout (they land in Test.xml and on
// CDash) and the full result as JSON beside the test, written atomically.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "device_api.h"

namespace arena {

void print_measurement(const std::string& name, double value);
void print_text_measurement(const std::string& name, const std::string& value);
// Writes path.partial then renames it over path, so a reader never sees half a file.
void write_json_atomic(const std::string& path, const nlohmann::json& j);
nlohmann::json device_json(const arena_device_info& info, int id);
// ISO-8601 UTC time now.
std::string utc_now();

// The skip protocol: print why and exit with CTest's SKIP_RETURN_CODE.
[[noreturn]] void skip_gate(const std::string& why, const std::string& result_path, nlohmann::json result);

constexpr int kSkipExitCode = 77;

}  // namespace arena
