#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_folder.h"

using namespace arena::score;
namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
  fs::path p = fs::absolute("run_folder_" + name);
  fs::remove_all(p);
  return p;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

RenderFiles files(const std::string& text) {
  return [text](const std::string& run) {
    return std::map<std::string, std::string>{{"scores.json", run + ":" + text}, {"summary.md", "# " + run}};
  };
}

size_t entries(const fs::path& p) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(p)) ++n;
  return n;
}

}  // namespace

TEST(RunFolder, WritesAllFilesUnderTheName) {
  fs::path root = fresh("write");
  EXPECT_EQ(write_run_folder(root.string(), "r1", OnExists::refuse, files("a")), (root / "r1").string());
  EXPECT_EQ(read(root / "r1" / "scores.json"), "r1:a");
  EXPECT_EQ(read(root / "r1" / "summary.md"), "# r1");
  EXPECT_EQ(entries(root), 1u);  // no temporary folder left
}

TEST(RunFolder, NeverOverwritesAnotherRun) {
  fs::path root = fresh("exists");
  write_run_folder(root.string(), "r", OnExists::refuse, files("first"));
  EXPECT_THROW(write_run_folder(root.string(), "r", OnExists::refuse, files("second")), FolderExists);
  EXPECT_EQ(read(root / "r" / "scores.json"), "r:first");
  // suffix: the next free name, and the files are rendered for it
  EXPECT_EQ(write_run_folder(root.string(), "r", OnExists::suffix, files("second")), (root / "r-2").string());
  EXPECT_EQ(read(root / "r-2" / "scores.json"), "r-2:second");
  EXPECT_EQ(write_run_folder(root.string(), "r", OnExists::suffix, files("third")), (root / "r-3").string());
  EXPECT_EQ(read(root / "r" / "scores.json"), "r:first");
  // an empty folder of that name is someone else's too
  fs::create_directories(root / "empty");
  EXPECT_THROW(write_run_folder(root.string(), "empty", OnExists::refuse, files("x")), FolderExists);
  EXPECT_EQ(entries(root), 4u);
}

TEST(RunFolder, AFailedRenderLeavesNothing) {
  fs::path root = fresh("fails");
  RenderFiles bad = [](const std::string&) -> std::map<std::string, std::string> {
    throw std::runtime_error("render failed");
  };
  EXPECT_THROW(write_run_folder(root.string(), "r", OnExists::refuse, bad), std::runtime_error);
  EXPECT_FALSE(fs::exists(root / "r"));
  EXPECT_EQ(entries(root), 0u);
}

TEST(RunFolder, RejectsNamesThatAreNotOneFolder) {
  fs::path root = fresh("names");
  for (const char* name : {"", "a/b", "../x", ".hidden"})
    EXPECT_THROW(write_run_folder(root.string(), name, OnExists::refuse, files("x")), std::invalid_argument) << name;
}
