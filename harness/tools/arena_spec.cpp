// arena-spec: validates task.json files and writes the CMake manifest the build generates
// tests from. Run at configure time, so a bad spec stops configure with the file, the
// field and what is wrong.
//
//   arena-spec manifest [--any-folder] [--fuzz-seed N] <out.cmake> <task.json>...
//                                             (--any-folder: the task's folder and the one above
//                                             it need not be named like its task and suite;
//                                             --fuzz-seed: the build's, so the unseen gate's
//                                             memory estimate covers its generated configurations)
//   arena-spec check <task.json>...
//   arena-spec public <task.json> <out.json>   the spec an agent may see (seen configurations only)
//   arena-spec skeleton <task.json> <out.hip>  an ABI skeleton for the candidate (a suite's START skeleton)
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "fuzz.h"
#include "gate_memory.h"
#include "task_spec.h"

namespace fs = std::filesystem;

namespace {

std::string cmake_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '$' || c == ';') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A kernel.hip that compiles and keeps the ABI's rules but computes nothing: its outputs
// stay poisoned, so it fails correctness until arena_launch is written.
void write_skeleton(const arena::TaskSpec& t, std::ostream& os) {
  os << "// " << t.name << ": " << t.description << "\n"
     << "// ABI skeleton: arena_launch must enqueue, on arena_abi->stream, kernels that compute every output.\n"
     << "// Tensors (device pointers, row-major, contiguous), in task.json order:\n";
  for (const auto& ts : t.tensors) {
    std::string shape;
    for (const auto& e : ts.shape) shape += (shape.empty() ? "" : ", ") + e.text();
    os << "//   tensors[" << (&ts - &t.tensors[0]) << "] " << ts.name << ": " << arena::dtype_name(ts.dtype) << " ["
       << shape << "], " << arena::role_name(ts.role) << "\n";
  }
  os << "#include <hip/hip_runtime.h>\n#include \"arena/arena_abi.h\"\n\n"
     << "ARENA_EXPORT int arena_launch(const arena_args* arena_abi) {\n";
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const auto& ts = t.tensors[i];
    os << "  " << (ts.writes() ? "void* " : "const void* ") << ts.name << " = arena_abi->tensors[" << i << "];\n";
  }
  int ni = 0, nf = 0;
  for (const auto& p : t.params)
    os << "  const " << (p.is_int ? "int64_t " : "double ") << p.name << " = "
       << (p.is_int ? "arena_abi->ints[" + std::to_string(ni++) : "arena_abi->floats[" + std::to_string(nf++)) << "];\n";
  for (const auto& ts : t.tensors) os << "  (void)" << ts.name << ";\n";
  for (const auto& p : t.params) os << "  (void)" << p.name << ";\n";
  os << "  return 0;\n}\n";
}

// Each correctness gate's estimated peak device memory in bytes (gate_memory.h), for the
// resource groups CTest places it by (cmake/ArenaTasks.cmake): seen, and unseen with the
// configurations generated from the fuzz domain (with a seed only).
void write_gate_memory(std::ostream& os, const std::string& key, const arena::TaskSpec& t,
                       const std::optional<uint64_t>& fuzz_seed) {
  std::vector<arena::Config> unseen = t.unseen;
  if (fuzz_seed && t.fuzz.count > 0) {
    try {
      auto fuzz = arena::generate_fuzz_configs(t, *fuzz_seed);
      unseen.insert(unseen.end(), fuzz.begin(), fuzz.end());
    } catch (const arena::SpecError&) {
      // A domain too narrow to draw from: the unseen gate itself fails naming it.
    }
  }
  os << "set(" << key << "_GPU_BYTES_SEEN " << arena::correctness_gate_device_bytes(t, t.seen) << ")\n";
  os << "set(" << key << "_GPU_BYTES_UNSEEN " << arena::correctness_gate_device_bytes(t, unseen) << ")\n";
}

void write_task(std::ostream& os, const arena::TaskSpec& t, const std::optional<uint64_t>& fuzz_seed) {
  const std::string id = t.suite + "/" + t.name;
  const std::string key = "ARENA_TASK_" + t.suite + "__" + t.name;
  fs::path dir = fs::absolute(t.dir);
  os << "list(APPEND ARENA_TASK_IDS " << cmake_quote(id) << ")\n";
  os << "set(" << key << "_SUITE " << cmake_quote(t.suite) << ")\n";
  os << "set(" << key << "_NAME " << cmake_quote(t.name) << ")\n";
  os << "set(" << key << "_DIR " << cmake_quote(dir.string()) << ")\n";
  os << "set(" << key << "_FILE " << cmake_quote(fs::weakly_canonical(fs::absolute(t.file)).string()) << ")\n";
  os << "set(" << key << "_DESCRIPTION " << cmake_quote(t.description) << ")\n";
  os << "set(" << key << "_CATEGORY " << cmake_quote(t.category) << ")\n";
  os << "set(" << key << "_CANDIDATE_FILE " << cmake_quote(t.candidate) << ")\n";
  // A shared oracle task.json names ("reference"); a task's own oracle file is its suite's
  // descriptor's to name (ARENA_SUITE_TASK_FILES), so it is not looked for here.
  os << "set(" << key << "_REFERENCE " << cmake_quote(t.reference.string()) << ")\n";
  os << "set(" << key << "_TORCH " << (t.torch.present ? "TRUE" : "FALSE") << ")\n";
  os << "set(" << key << "_TORCH_COMPILE " << (t.torch.present && t.torch.compile ? "TRUE" : "FALSE") << ")\n";
  // A baseline at the hardware's limit: its solution_faster selftest asks for "not slower"
  // instead of FASTER (docs/DESIGN.md, "Production baselines").
  os << "set(" << key << "_AT_LIMIT " << (t.at_limit.present ? "TRUE" : "FALSE") << ")\n";
  // A production baseline's package: the modules the candidate may import too, and what the
  // agent's workspace copies from the installed package (docs/DESIGN.md, "Production baselines").
  os << "set(" << key << "_PACKAGE " << cmake_quote(t.package.present ? t.package.name : "") << ")\n";
  os << "set(" << key << "_PACKAGE_VERSION " << cmake_quote(t.package.version) << ")\n";
  os << "set(" << key << "_PACKAGE_MODULES";  // a CMake list: one quoted word per module
  for (const auto& m : t.package.modules) os << " " << cmake_quote(m);
  os << ")\n";
  write_gate_memory(os, key, t, fuzz_seed);
}

// arena-spec public <task.json> <out.json>
int public_command(char** argv) {
  try {
    arena::write_public_spec(argv[2], argv[3]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

// arena-spec skeleton <task.json> <out.hip>
int skeleton_command(char** argv) {
  try {
    arena::TaskSpec t = arena::load_task(argv[2]);
    std::ofstream os(argv[3]);
    write_skeleton(t, os);
    if (!os) throw std::runtime_error(std::string("cannot write ") + argv[3]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

// The options of manifest and check, and where their file arguments start.
struct ListOptions {
  bool manifest = false;
  bool any_folder = false;
  bool keep_going = false;  // manifest: invalid specs are listed with their errors, not fatal
  std::optional<uint64_t> fuzz_seed;
  int out_arg = 0;  // manifest: its <out.cmake>
  int first = 2;    // the first task.json
};

// Reads the flags after manifest / check; returns an exit status when they are wrong.
std::optional<int> parse_list_options(int argc, char** argv, ListOptions& o) {
  o.manifest = std::string(argv[1]) == "manifest";
  int& first = o.first;
  for (; first < argc && std::string(argv[first]).rfind("--", 0) == 0; ++first) {
    const std::string flag = argv[first];
    if (flag == "--any-folder") o.any_folder = true;
    else if (flag == "--keep-going" && o.manifest) o.keep_going = true;
    else if (flag == "--fuzz-seed" && o.manifest && first + 1 < argc) {
      const std::string v = argv[++first];
      char* end = nullptr;
      o.fuzz_seed = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0') {
        std::fprintf(stderr, "arena-spec: --fuzz-seed takes a non-negative integer, not '%s'\n", v.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "arena-spec: unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  o.out_arg = first;
  if (o.manifest) ++first;
  if (first > argc || (o.manifest && o.out_arg >= argc)) {
    std::fprintf(stderr, "arena-spec: %s needs its arguments\n", argv[1]);
    return 2;
  }
  return std::nullopt;
}

// The manifest: every valid task, then every invalid spec with its error; written beside and
// renamed into place, so configure never reads half a file.
bool write_manifest(const std::string& out, const std::vector<arena::TaskSpec>& tasks,
                    const std::vector<std::pair<std::string, std::string>>& invalid,
                    const std::optional<uint64_t>& fuzz_seed) {
  const std::string partial = out + ".partial";
  if (fs::path(out).has_parent_path()) fs::create_directories(fs::path(out).parent_path());
  {
    std::ofstream os(partial);
    os << "# Generated by arena-spec from the task specs; do not edit.\nset(ARENA_TASK_IDS \"\")\n";
    for (const auto& t : tasks) write_task(os, t, fuzz_seed);
    // Invalid specs: the folder gets a failing test in place of its gates (cmake/ArenaTasks.cmake).
    os << "set(ARENA_INVALID_TASK_FILES \"\")\n";
    for (size_t i = 0; i < invalid.size(); ++i) {
      os << "list(APPEND ARENA_INVALID_TASK_FILES " << cmake_quote(fs::absolute(invalid[i].first).string()) << ")\n";
      os << "set(ARENA_INVALID_TASK_ERROR_" << i << " " << cmake_quote(invalid[i].second) << ")\n";
    }
    if (!os) {
      std::fprintf(stderr, "cannot write %s\n", partial.c_str());
      return false;
    }
  }
  fs::rename(partial, out);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "public") return public_command(argv);
  if (argc == 4 && std::string(argv[1]) == "skeleton") return skeleton_command(argv);
  if (argc < 3 || (std::string(argv[1]) != "manifest" && std::string(argv[1]) != "check")) {
    std::fprintf(stderr,
                 "usage: arena-spec manifest [--any-folder] [--keep-going] [--fuzz-seed N] <out.cmake> <task.json>...\n"
                 "       arena-spec check [--any-folder] <task.json>...\n");
    return 2;
  }
  ListOptions o;
  if (auto rc = parse_list_options(argc, argv, o)) return *rc;
  std::vector<arena::TaskSpec> tasks;
  std::vector<std::pair<std::string, std::string>> invalid;  // file, error
  for (int i = o.first; i < argc; ++i) {
    try {
      tasks.push_back(arena::load_task(argv[i], /*expect_dir_names=*/!o.any_folder));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      invalid.emplace_back(argv[i], e.what());
    }
  }
  if (!invalid.empty()) {
    std::fprintf(stderr, "%zu task spec(s) invalid\n", invalid.size());
    if (!o.keep_going) return 1;
  }
  if (o.manifest && !write_manifest(argv[o.out_arg], tasks, invalid, o.fuzz_seed)) return 1;
  std::printf("%zu task spec(s) valid\n", tasks.size());
  return 0;
}
