// The board subcommand of arena-score (board_command.cpp).
#pragma once
#include <string>
#include <vector>

namespace arena::score {

extern const char* const kBoardUsage;
// usage_error prints the usage and exits 2; input errors throw InputError.
int run_board(const std::vector<std::string>& args, void (*usage_error)(const std::string&));

}  // namespace arena::score
