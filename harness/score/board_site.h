// arena-score board: scored runs in, one static site out (docs/board.md). Every page is plain
// HTML (the overview pages in board_site.cpp, a run's, task's and trajectory's page in
// board_detail_pages.cpp, their shared pieces in board_html.h); board.js only sorts and filters
// tables (and applies the URL's #key=value state), so the site works from file:// and needs no
// network.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "board_load.h"
#include "board_stats.h"

namespace arena::score {

// The board's files, path (relative to the site's root) -> contents.
std::map<std::string, std::string> render_board(const std::vector<BoardRun>& runs, const std::vector<std::string>& notes,
                                                const AuditLimits& limits);

// The leaderboard's entries (one per run, suite and category, "all" included) with their
// metrics and interval ranks within suite and category; what board.json holds.
nlohmann::json leaderboard_json(const std::vector<BoardRun>& runs);

// Lines of `before` and `after` as a line diff: each {" ", "-", "+"} and the line. Empty when
// either side has more than max_lines lines.
std::vector<std::pair<char, std::string>> line_diff(const std::string& before, const std::string& after,
                                                    size_t max_lines = 3000);

// The board's style sheet and script (board_assets.cpp).
extern const char* const kBoardCss;
extern const char* const kBoardJs;

}  // namespace arena::score
