// The host oracle's expected outputs kept on disk (docs/DESIGN.md, "Correctness"): a repeated
// correctness gate, or a repeated self-check, reads them instead of running the oracle again.
// An entry is named by a digest of its key and holds the key itself, each output's size and a
// checksum of everything after it; an entry that is truncated, fails its checksum or holds
// another key is never used: the oracle runs again and the entry is rewritten.
// Only the judge writes the cache, in a folder candidates cannot reach (the build tree).
// A suite's outputs in double precision are far larger than a disk (hip2hip's seen and unseen
// sets: about 100 GB), so an entry is kept only where reading it back beats running the oracle
// (OracleCachePolicy), and the whole cache stays within a budget.
// One computation per entry: gates that need an entry at once (a task's baseline and solution
// checks) take a lock on it (<entry>.lock, file_lock.h); one computes and writes it, the others
// wait and read it (checksum verified as always). Entries known not to be kept (a
// <entry>.recompute marker: its oracle was cheaper to run than to read) are computed by each
// gate without waiting; where that is not known yet, the waiters compute after the holder.
#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "host_values.h"

namespace arena {

// A fast 64-bit hash of bytes (not cryptographic: it detects damage, not tampering; the
// cache's folder is what keeps a candidate out).
uint64_t hash_bytes(const void* data, size_t n, uint64_t seed = 0);
// The same over a whole file's bytes; 0 with `ok` false when it cannot be read.
uint64_t hash_file(const std::filesystem::path& p, bool* ok = nullptr);

// What an oracle output depends on, as readable text: everything that changes the expected
// outputs must be a line of it (the task spec's hash, the oracle's identity, the
// configuration, the trial, the fuzz seed, the inputs' digest).
class OracleKey {
 public:
  OracleKey& add(const std::string& name, const std::string& value);
  OracleKey& add(const std::string& name, uint64_t value);
  const std::string& text() const { return text_; }
  std::string file_name() const;  // <digest>.oracle

 private:
  std::string text_;
};

struct OracleCacheStats {
  std::atomic<int> hits{0};      // outputs read from the cache
  std::atomic<int> computed{0};  // oracle runs (misses, rejected entries, cache off)
  std::atomic<int> rejected{0};  // entries found damaged or for another key (then recomputed)
  std::atomic<int> not_kept{0};  // computed but not written: cheaper to run again, or over the budget
  std::atomic<int> waited{0};    // hits on entries another gate computed while this one waited
  std::atomic<int> lock_timeouts{0};  // waits that gave up: this gate computed the entry itself
  // Thread-seconds, in nanoseconds (several trials are prepared at once).
  std::atomic<int64_t> compute_ns{0}, read_ns{0}, write_ns{0}, wait_ns{0};
};

// Which computed outputs are written.
struct OracleCachePolicy {
  uint64_t always_keep_bytes = uint64_t{16} << 20;  // entries up to this size are always kept
  // A larger entry is kept only when its oracle ran longer than reading it back takes at this
  // rate (bytes per second; a disk read and the checksum): an O(n) oracle on a large output is
  // as fast to run again, and only fills the disk.
  double read_bytes_per_s = 1e9;
  // The whole cache folder stays below this (0: no limit); an entry that would pass it is not
  // kept, saying so once.
  uint64_t budget_bytes = 0;
  // How long a gate waits for another that computes the same entry before computing it itself
  // (a holder that ended releases the lock at once; this bounds a hung one).
  double wait_for_other_s = 300;
};

class OracleCache {
 public:
  using Outputs = HostTensors;  // one per tensor; empty where not an output
  // `dir` empty: no cache (every call computes). `note` receives one line per event worth
  // reading in the gate's output (a rejected entry, a write that failed); it may be called
  // from several threads.
  explicit OracleCache(std::filesystem::path dir, std::function<void(const std::string&)> note = {},
                       OracleCachePolicy policy = {});
  // Entries go to <dir>/<folder> (one folder per task); the budget covers all of <dir>.
  void set_folder(const std::string& folder) { folder_ = folder; }

  // The outputs for `key`: the cached entry when it is intact, else compute() (whose result
  // is then written). Thread-safe: entries are written to a private file, then renamed.
  Outputs get(const OracleKey& key, const std::function<Outputs()>& compute);

  const OracleCacheStats& stats() const { return stats_; }
  const std::filesystem::path& dir() const { return dir_; }
  bool enabled() const { return !dir_.empty(); }

 private:
  bool read(const std::filesystem::path& file, const OracleKey& key, Outputs& out, std::string& why) const;
  bool read_if_intact(const std::filesystem::path& file, const OracleKey& key, Outputs& out);
  void write(const std::filesystem::path& file, const OracleKey& key, const Outputs& out);
  bool cheap_to_run(uint64_t bytes, double oracle_seconds) const;  // cheaper to run again than to read
  bool worth_keeping(uint64_t bytes, double oracle_seconds);
  void tell(const std::string& line) const;

  std::filesystem::path dir_;
  std::string folder_;
  std::function<void(const std::string&)> note_;
  OracleCachePolicy policy_;
  std::atomic<bool> told_budget_{false};
  OracleCacheStats stats_;
};

}  // namespace arena
