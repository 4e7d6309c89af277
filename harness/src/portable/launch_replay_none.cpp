// Recording and replay where the CUDA driver's graph and module APIs are not available (AMD):
// the candidate then runs in a worker of its own that launches it directly.
#include "launch_replay.h"

namespace arena {

namespace {
const char* kWhy = "launch recording and replay are implemented on NVIDIA GPUs only (CUDA driver graphs and modules)";
}

bool replay_supported(std::string* why) {
  if (why) *why = kWhy;
  return false;
}

CaptureResult capture_recipe(const std::function<int()>&, void*, const std::vector<LentRange>&, const ImageLookup&) {
  CaptureResult r;
  r.problems.push_back(kWhy);
  return r;
}

struct ReplayCode::Impl {};

ReplayCode::ReplayCode(const std::string&) { throw ReplayError(kWhy); }
ReplayCode::~ReplayCode() = default;
std::vector<std::string> ReplayCode::library_kernels() const { return {}; }
void ReplayCode::check(const Recipe&, const std::vector<std::string>&) const { throw ReplayError(kWhy); }
void ReplayCode::enqueue(const Recipe&, const std::vector<uint64_t>&, void*) { throw ReplayError(kWhy); }

}  // namespace arena
