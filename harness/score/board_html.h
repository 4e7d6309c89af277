// The board's HTML pieces shared by its pages (board_site.cpp: the overview pages;
// board_detail_pages.cpp: a run's, a task's and a trajectory's page): escaping, number cells,
// where each page lives, and the page frame with its error sink.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "board_load.h"
#include "board_stats.h"

namespace arena::score::board_html {

std::string esc(const std::string& s);
std::string num(double v, const char* f = "%.3f");  // "-" for NaN
std::string pct(double v);                          // 0.5 -> "50.0 %"
std::string interval(const Interval& x);            // "1.234 [1.200, 1.260]"
// A sortable cell: data-v is what the script sorts by (numbers; "" sorts last).
std::string cell(const std::string& html, double v);
std::string cell(const std::string& text);
std::string file_part(const std::string& s);  // safe in a file name
std::string task_page(const std::string& id);                       // tasks/<suite>__<task>.html
std::string trajectory_page(const BoardRun& r, const std::string& id);  // trajectories/<run>__<suite>__<task>.html
std::string run_page(const BoardRun& r);                            // runs/<run>.html
std::string agent_label(const BoardRun& r);                         // "agent (model)"
// A whole page: navigation, title, body; root is the way back to the site's root ("" or "../").
std::string page(const std::string& title, const std::string& root, const std::string& body);

std::string run_detail_page(const BoardRun& r);
std::string task_detail_page(const std::string& id, const std::vector<std::pair<const BoardRun*, const BoardTask*>>& uses);
std::string trajectory_detail_page(const BoardRun& r, const BoardTask& t);

}  // namespace arena::score::board_html
