// The few lines of a test's output that say what went wrong, for the per-task error column.
#pragma once
#include <string>
#include <vector>

namespace arena::score {

// Lines that look like failures (compiler errors, FAILED, mismatches, ...), in order, at most
// `max`; CMake's "CMake Error at" and "Call Stack" boilerplate is left out. When none look like
// one, the last non-empty lines. Each is trimmed and cut to `width` characters.
std::vector<std::string> failure_lines(const std::string& output, size_t max, size_t width = 300);

// Whitespace runs (newlines included) become one space; cut to `width` characters.
std::string one_line(const std::string& text, size_t width = 300);

}  // namespace arena::score
