// results/<run>/ written atomically: the files go to a hidden temporary folder beside it,
// which is then renamed into place, so a reader sees the whole run or nothing. Another run's
// folder is never overwritten: OnExists::refuse throws, OnExists::suffix takes <run>-2,
// <run>-3, ... (the files are rendered for the name actually used).
#pragma once
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

namespace arena::score {

enum class OnExists { refuse, suffix };

struct FolderExists : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using RenderFiles = std::function<std::map<std::string, std::string>(const std::string& run_name)>;

// Returns the folder written. Throws FolderExists (refuse), std::invalid_argument for a bad
// name, std::runtime_error when writing fails (nothing is left behind).
std::string write_run_folder(const std::string& root, const std::string& run_name, OnExists policy,
                             const RenderFiles& render);

}  // namespace arena::score
