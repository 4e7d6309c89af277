// GPU activity tracing (CUPTI on NVIDIA): the start and end of every kernel, copy and memset
// the GPU ran in this process, on any stream, in the GPU's own clock. Workers use it to time
// a sample as the span of the work it enqueued (no event overhead in the number) and to list
// what ran; recorders use it to notice work that ran instead of being captured.
// Without CUPTI (AMD, or a CUDA install without it) available() is false and why() says so.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace arena {

struct GpuActivity {
  enum Kind { Kernel, Copy, Memset } kind = Kernel;
  uint64_t tag = 0;  // the tag active when the work was enqueued (0: none)
  uint64_t start_ns = 0, end_ns = 0;
  uint32_t stream = 0;  // the runtime's stream id
  std::string name;     // kernel name, or "copy"/"memset"
};

class GpuTrace {
 public:
  // The process's one tracer (the tracing library allows one); started on first use.
  static GpuTrace& get();
  bool available() const { return available_; }
  const std::string& why() const { return why_; }
  // Work enqueued from this thread between begin(tag) and end() carries `tag` (tags nest).
  void begin(uint64_t tag);
  void end();
  // Flushes the tracer and returns every activity that completed since the last call.
  std::vector<GpuActivity> collect();
  // Stops (true) or restarts recording kernels; copies, memsets and API calls stay recorded.
  // Returns false when the tracer refused.
  bool pause_kernels(bool paused);
  // The id the tracer gives `stream` (a stream handle of this process), or 0 when unknown.
  uint32_t stream_id(void* stream) const;

 private:
  GpuTrace();
  bool available_ = false;
  std::string why_;
};

// The span of the work tagged `tag`: last end minus first start, in microseconds; -1 when
// none ran.
double span_us(const std::vector<GpuActivity>& acts, uint64_t tag);

}  // namespace arena
