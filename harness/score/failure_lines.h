// The few lines of a test's output that say what went wrong, for the per-task error column.
#pragma once
#include <string>
#include <vector>

namespace arena::score {

// Longest line kept whole; a longer one is cut at a space and says how much is left out.
constexpr size_t kLineWidth = 2000;

// Lines that look like failures (compiler errors, FAILED, mismatches, ...), in order, at most
// `max`; CMake's "CMake Error at" and "Call Stack" boilerplate is left out, and the indented
// lines CMake wraps a message into are joined back into one. When none look like one, the last
// non-empty lines. Each is trimmed and cut to `width` characters as one_line() does.
std::vector<std::string> failure_lines(const std::string& output, size_t max, size_t width = kLineWidth);

// Whitespace runs (newlines included) become one space. Text over `width` characters is cut at
// the last space before it and ends with "[... N more characters]", never mid-word and never
// silently.
std::string one_line(const std::string& text, size_t width = kLineWidth);

}  // namespace arena::score
