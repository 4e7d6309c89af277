// The oracle cache (harness/src/oracle_cache.h): a second request computes nothing, a damaged
// or truncated entry is recomputed and rewritten (never trusted), another key misses; gates
// that need one entry at once compute it once.
#include <gtest/gtest.h>

#include <unistd.h>

#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "file_lock.h"
#include "oracle_cache.h"

using namespace arena;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("arena_oracle_cache_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

OracleKey key_of(const std::string& spec, uint64_t seed, int trial) {
  OracleKey k;
  k.add("spec", spec).add("fuzz_seed", seed).add("trial", static_cast<uint64_t>(trial));
  return k;
}

// A stand-in oracle that counts its runs: one output of 1000 values (the tensor before it is
// an input, which the cache keeps empty).
struct CountingOracle {
  int runs = 0;
  double offset;
  explicit CountingOracle(double off = 0) : offset(off) {}
  OracleCache::Outputs operator()() {
    ++runs;
    OracleCache::Outputs out(2);
    for (int i = 0; i < 1000; ++i) out[1].push_back(offset + 0.25 * i);
    return out;
  }
};

// The entries (*.oracle; each has its lock file beside it).
std::vector<fs::path> entries_in(const fs::path& dir) {
  std::vector<fs::path> entries;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.path().extension() == ".oracle") entries.push_back(e.path());
  return entries;
}

fs::path only_entry(const fs::path& dir) {
  std::vector<fs::path> entries = entries_in(dir);
  EXPECT_EQ(entries.size(), 1u);
  return entries.empty() ? fs::path() : entries[0];
}

}  // namespace

TEST(OracleCache, SecondRequestComputesNothing) {
  TempDir tmp;
  CountingOracle oracle;
  const OracleKey k = key_of("abc", 0, 1);
  auto first = OracleCache(tmp.path).get(k, [&] { return oracle(); });
  OracleCache again(tmp.path);  // a later gate: a new process, the same folder
  auto second = again.get(k, [&] { return oracle(); });
  EXPECT_EQ(oracle.runs, 1);
  EXPECT_EQ(second, first);
  EXPECT_EQ(again.stats().hits.load(), 1);
  EXPECT_EQ(again.stats().computed.load(), 0);
}

TEST(OracleCache, WithoutAFolderEveryRequestComputes) {
  CountingOracle oracle;
  OracleCache off{fs::path()};
  off.get(key_of("abc", 0, 0), [&] { return oracle(); });
  off.get(key_of("abc", 0, 0), [&] { return oracle(); });
  EXPECT_EQ(oracle.runs, 2);
  EXPECT_EQ(off.stats().computed.load(), 2);
}

TEST(OracleCache, AnotherSpecSeedOrTrialMisses) {
  TempDir tmp;
  CountingOracle oracle;
  OracleCache cache(tmp.path);
  cache.get(key_of("abc", 7, 0), [&] { return oracle(); });
  cache.get(key_of("abd", 7, 0), [&] { return oracle(); });  // the spec changed
  cache.get(key_of("abc", 8, 0), [&] { return oracle(); });  // another run's fuzz seed
  cache.get(key_of("abc", 7, 1), [&] { return oracle(); });  // another trial
  EXPECT_EQ(oracle.runs, 4);
  EXPECT_EQ(cache.stats().hits.load(), 0);
  cache.get(key_of("abc", 8, 0), [&] { return oracle(); });
  EXPECT_EQ(oracle.runs, 4);
  EXPECT_EQ(cache.stats().hits.load(), 1);
}

// Damage of each kind: the entry is reported, the oracle runs again, its outputs (not the
// damaged ones) are returned, and the rewritten entry is then used.
void expect_recomputed_after(const std::function<void(const fs::path&)>& damage, const std::string& why) {
  TempDir tmp;
  CountingOracle oracle;
  const OracleKey k = key_of("abc", 3, 2);
  const auto good = OracleCache(tmp.path).get(k, [&] { return oracle(); });
  const fs::path entry = only_entry(tmp.path);
  damage(entry);

  std::vector<std::string> notes;
  OracleCache cache(tmp.path, [&](const std::string& l) { notes.push_back(l); });
  auto got = cache.get(k, [&] { return oracle(); });
  EXPECT_EQ(oracle.runs, 2) << why;
  EXPECT_EQ(got, good) << why;
  EXPECT_EQ(cache.stats().rejected.load(), 1) << why;
  ASSERT_EQ(notes.size(), 1u) << why;
  EXPECT_NE(notes[0].find(entry.string()), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find(why), std::string::npos) << notes[0];

  OracleCache later(tmp.path);
  EXPECT_EQ(later.get(k, [&] { return oracle(); }), good) << why;
  EXPECT_EQ(oracle.runs, 2) << why << ": the rewritten entry was not used";
}

TEST(OracleCache, FlippedByteIsRecomputed) {
  expect_recomputed_after(
      [](const fs::path& p) {
        std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-100, std::ios::end);
        char c;
        f.read(&c, 1);
        c ^= 0x10;
        f.seekp(-100, std::ios::end);
        f.write(&c, 1);
      },
      "checksum mismatch");
}

TEST(OracleCache, FlippedKeyOrSizeByteIsRecomputed) {
  auto flip_at = [](std::streamoff at) {
    return [at](const fs::path& p) {
      std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(at);
      char c;
      f.read(&c, 1);
      c ^= 0x01;
      f.seekp(at);
      f.write(&c, 1);
    };
  };
  // Layout (oracle_cache.cpp): magic 8, format 4, checksum 8, key length 8, key text, tensor
  // count 8, sizes 8 each (here 0 and 1000), doubles.
  const std::streamoff key_at = 8 + 4 + 8 + 8;
  const auto key_len = static_cast<std::streamoff>(key_of("abc", 3, 2).text().size());
  expect_recomputed_after(flip_at(key_at + 2), "holds another key");
  // The second byte of the second tensor's size: 1000 becomes 744, fewer doubles than the file holds.
  expect_recomputed_after(flip_at(key_at + key_len + 8 + 8 + 1), "size does not match its header");
  expect_recomputed_after(flip_at(8 + 4 + 1), "checksum mismatch");  // the checksum itself
}

TEST(OracleCache, TruncatedEntryIsRecomputed) {
  expect_recomputed_after([](const fs::path& p) { fs::resize_file(p, fs::file_size(p) - 8); }, "truncated");
  expect_recomputed_after([](const fs::path& p) { fs::resize_file(p, fs::file_size(p) / 2); }, "truncated");
  expect_recomputed_after([](const fs::path& p) { fs::resize_file(p, 12); }, "truncated");
  expect_recomputed_after([](const fs::path& p) { fs::resize_file(p, 0); }, "not an oracle cache entry");
}

TEST(OracleCache, EntryOfAnotherKeyUnderThisNameIsRecomputed) {
  TempDir tmp;
  CountingOracle other(100);
  OracleCache(tmp.path).get(key_of("xyz", 0, 0), [&] { return other(); });
  const fs::path stray = only_entry(tmp.path);
  fs::rename(stray, tmp.path / key_of("abc", 0, 0).file_name());  // as a digest collision would
  CountingOracle oracle;
  OracleCache cache(tmp.path);
  auto got = cache.get(key_of("abc", 0, 0), [&] { return oracle(); });
  EXPECT_EQ(oracle.runs, 1);
  EXPECT_EQ(got[1][0], 0.0);
  EXPECT_EQ(cache.stats().rejected.load(), 1);
}

TEST(OracleCache, HashSeesEveryByte) {
  std::vector<unsigned char> a(1000, 7);
  const uint64_t h = hash_bytes(a.data(), a.size());
  for (size_t i : {size_t{0}, size_t{31}, size_t{32}, size_t{999}}) {
    auto b = a;
    b[i] ^= 1;
    EXPECT_NE(hash_bytes(b.data(), b.size()), h) << i;
  }
  EXPECT_NE(hash_bytes(a.data(), a.size() - 1), h);
}

// A large entry whose oracle ran faster than reading it back would take is not written (an
// O(n) oracle on a large output), a slow one is; small entries are always kept.
TEST(OracleCache, KeepsLargeEntriesOnlyWhereTheOracleIsSlowerThanReadingThem) {
  TempDir tmp;
  CountingOracle oracle;  // 8000 bytes of outputs, computed in microseconds
  OracleCachePolicy fast_reads;
  fast_reads.always_keep_bytes = 1000;
  fast_reads.read_bytes_per_s = 1e15;  // reading is "faster" than any oracle: keep
  OracleCachePolicy slow_reads = fast_reads;
  slow_reads.read_bytes_per_s = 1;  // reading 8000 bytes "takes" over two hours: do not keep
  OracleCache cheap(tmp.path, {}, slow_reads);
  cheap.get(key_of("abc", 0, 0), [&] { return oracle(); });
  EXPECT_EQ(cheap.stats().not_kept.load(), 1);
  EXPECT_TRUE(entries_in(tmp.path).empty());
  OracleCache costly(tmp.path, {}, fast_reads);
  costly.get(key_of("abc", 0, 0), [&] { return oracle(); });
  EXPECT_EQ(costly.stats().not_kept.load(), 0);
  OracleCache small(tmp.path, {}, OracleCachePolicy{1 << 20, 1, 0});  // 8000 bytes <= 1 MiB: always kept
  small.get(key_of("abc", 0, 1), [&] { return oracle(); });
  EXPECT_EQ(small.stats().not_kept.load(), 0);
  OracleCache later(tmp.path);
  later.get(key_of("abc", 0, 0), [&] { return oracle(); });
  later.get(key_of("abc", 0, 1), [&] { return oracle(); });
  EXPECT_EQ(later.stats().hits.load(), 2);
}

TEST(OracleCache, StaysWithinItsBudgetAndSaysSoOnce) {
  TempDir tmp;
  CountingOracle oracle;
  std::vector<std::string> notes;
  OracleCachePolicy policy;
  policy.budget_bytes = 12000;  // room for one entry of 8000 bytes of outputs, not two
  OracleCache cache(tmp.path, [&](const std::string& l) { notes.push_back(l); }, policy);
  cache.set_folder("suite/task");
  for (int trial = 0; trial < 3; ++trial) cache.get(key_of("abc", 0, trial), [&] { return oracle(); });
  EXPECT_EQ(cache.stats().not_kept.load(), 2);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("budget"), std::string::npos) << notes[0];
  EXPECT_TRUE(fs::is_directory(tmp.path / "suite/task"));
}

// --- one computation per entry ---------------------------------------------------------------

namespace {
// An oracle slow enough for a second request to arrive while it runs.
OracleCache::Outputs slow_oracle(std::atomic<int>& runs, int ms = 400) {
  ++runs;
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return CountingOracle()();
}
}  // namespace

TEST(OracleCache, TwoThreadsAtOnceComputeAnEntryOnce) {
  TempDir tmp;
  std::atomic<int> runs{0};
  OracleCache a(tmp.path), b(tmp.path);
  const OracleKey k = key_of("abc", 0, 0);
  OracleCache::Outputs first, second;
  std::thread ta([&] { first = a.get(k, [&] { return slow_oracle(runs); }); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a holds the entry's lock
  std::thread tb([&] { second = b.get(k, [&] { return slow_oracle(runs); }); });
  ta.join();
  tb.join();
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(first, second);
  EXPECT_EQ(a.stats().computed.load() + b.stats().computed.load(), 1);
  EXPECT_EQ(b.stats().waited.load(), 1);
  EXPECT_EQ(b.stats().hits.load(), 1);
  EXPECT_GT(b.stats().wait_ns.load(), 200'000'000) << "b read the entry without waiting for a to write it";
}

// Two processes (two gates): the child computes, the parent waits for its entry.
TEST(OracleCache, TwoProcessesAtOnceComputeAnEntryOnce) {
  TempDir tmp;
  const OracleKey k = key_of("abc", 0, 7);
  const fs::path ran = tmp.path / "child_ran";
  fs::create_directories(tmp.path);
  const pid_t child = ::fork();
  if (child == 0) {
    OracleCache c(tmp.path);
    std::atomic<int> runs{0};
    c.get(k, [&] { return slow_oracle(runs, 800); });
    std::ofstream(ran) << runs.load();
    ::_exit(c.stats().computed.load() == 1 ? 0 : 3);
  }
  ASSERT_GT(child, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the child holds the lock
  std::atomic<int> runs{0};
  OracleCache parent(tmp.path);
  auto got = parent.get(k, [&] { return slow_oracle(runs); });
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child did not compute the entry";
  EXPECT_TRUE(fs::exists(ran));
  EXPECT_EQ(runs.load(), 0) << "the parent computed what the child was computing";
  EXPECT_EQ(parent.stats().waited.load(), 1);
  EXPECT_EQ(got, CountingOracle()());
}

// A holder that never finishes: the waiter gives up after its timeout and computes the entry.
TEST(OracleCache, AWaitThatTimesOutComputesItself) {
  TempDir tmp;
  std::atomic<int> runs{0};
  OracleCachePolicy impatient;
  impatient.wait_for_other_s = 0.2;
  std::vector<std::string> notes;
  OracleCache a(tmp.path), b(tmp.path, [&](const std::string& l) { notes.push_back(l); }, impatient);
  const OracleKey k = key_of("abc", 0, 0);
  std::thread ta([&] { a.get(k, [&] { return slow_oracle(runs, 1500); }); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto t0 = std::chrono::steady_clock::now();
  auto got = b.get(k, [&] { return slow_oracle(runs, 0); });
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ta.join();
  EXPECT_EQ(runs.load(), 2);
  EXPECT_EQ(b.stats().lock_timeouts.load(), 1);
  EXPECT_EQ(b.stats().computed.load(), 1);
  EXPECT_LT(took, 1.0) << "b waited for a's whole computation";
  EXPECT_EQ(got, CountingOracle()());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("computing it here"), std::string::npos) << notes[0];
}

// An entry cheaper to run than to read is not kept; a marker says so, and later requests
// compute it without waiting for anyone.
TEST(OracleCache, AnEntryNotKeptIsComputedByEachWithoutWaitingOnceKnown) {
  TempDir tmp;
  OracleCachePolicy never;
  never.always_keep_bytes = 1000;
  never.read_bytes_per_s = 1;  // reading 8000 bytes "takes" hours: never kept
  std::atomic<int> runs{0};
  const OracleKey k = key_of("abc", 0, 0);
  OracleCache first(tmp.path, {}, never);
  first.get(k, [&] { return slow_oracle(runs, 0); });
  EXPECT_EQ(first.stats().not_kept.load(), 1);
  EXPECT_TRUE(entries_in(tmp.path).empty());
  EXPECT_TRUE(fs::exists(tmp.path / (k.file_name() + ".recompute")));
  // A lock held by someone else no longer delays it.
  FileLock held(tmp.path / (k.file_name() + ".lock"), 1);
  ASSERT_TRUE(held.held());
  OracleCache later(tmp.path, {}, never);
  const auto t0 = std::chrono::steady_clock::now();
  later.get(k, [&] { return slow_oracle(runs, 0); });
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);
  EXPECT_EQ(runs.load(), 2);
  EXPECT_EQ(later.stats().wait_ns.load(), 0);
}

TEST(FileLock, ASecondHolderWaitsUntilTheFirstLetsGo) {
  TempDir tmp;
  fs::create_directories(tmp.path);
  const fs::path p = tmp.path / "x.lock";
  auto first = std::make_unique<FileLock>(p, 1);
  ASSERT_TRUE(first->held());
  EXPECT_FALSE(first->waited());
  FileLock too_soon(p, 0.05);
  EXPECT_FALSE(too_soon.held());
  EXPECT_TRUE(too_soon.timed_out());
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    first.reset();
  });
  FileLock second(p, 5);
  release.join();
  EXPECT_TRUE(second.held());
  EXPECT_TRUE(second.waited());
  EXPECT_GT(second.waited_s(), 0.1);
}
