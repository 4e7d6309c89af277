// Reports rendered from scores.json (and from a comparison's JSON): the Markdown summary, the
// self-contained HTML page, and the comparison's Markdown.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace arena::score {

std::string render_summary_markdown(const nlohmann::json& scores);
std::string render_index_html(const nlohmann::json& scores);
std::string render_compare_markdown(const nlohmann::json& comparison);
// JUnit XML for CI systems: a test case per gate, the task's verdict and speedup as properties.
std::string render_junit_xml(const nlohmann::json& scores);

}  // namespace arena::score
