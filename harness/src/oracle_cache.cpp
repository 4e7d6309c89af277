#include "oracle_cache.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>

#include "file_lock.h"

namespace arena {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'A', 'R', 'E', 'N', 'A', 'O', 'R', 'C'};
constexpr uint32_t kFormat = 1;

uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

template <class T>
void put(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Reads a T at `at` of `s`; false when the bytes run out.
template <class T>
bool take(const std::string& s, size_t& at, T& v) {
  if (at > s.size() || s.size() - at < sizeof v) return false;
  std::memcpy(&v, s.data() + at, sizeof v);
  at += sizeof v;
  return true;
}

}  // namespace

uint64_t hash_bytes(const void* data, size_t n, uint64_t seed) {
  // Four independent lanes over 8-byte words (several GB/s), then the tail byte by byte.
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t lane[4] = {seed ^ 0x9e3779b97f4a7c15ull, seed + 0x632be59bd9b4e019ull, ~seed, seed * 3 + 1};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      lane[k] = (lane[k] ^ w) * 0x100000001b3ull;
      lane[k] = (lane[k] << 29) | (lane[k] >> 35);
    }
  uint64_t h = mix(lane[0]) ^ mix(lane[1] + 1) ^ mix(lane[2] + 2) ^ mix(lane[3] + 3);
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return mix(h ^ n);
}

uint64_t hash_file(const fs::path& p, bool* ok) {
  std::ifstream is(p, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
  if (ok) *ok = static_cast<bool>(is) || is.eof();
  if (!is && !is.eof()) return 0;
  return hash_bytes(bytes.data(), bytes.size());
}

OracleKey& OracleKey::add(const std::string& name, const std::string& value) {
  text_ += name + "=" + value + "\n";
  return *this;
}

OracleKey& OracleKey::add(const std::string& name, uint64_t value) { return add(name, hex(value)); }

std::string OracleKey::file_name() const { return hex(hash_bytes(text_.data(), text_.size())) + ".oracle"; }

OracleCache::OracleCache(fs::path dir, std::function<void(const std::string&)> note, OracleCachePolicy policy)
    : dir_(std::move(dir)), note_(std::move(note)), policy_(policy) {}

namespace {
uint64_t tree_bytes(const fs::path& root) {
  uint64_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) n += it->file_size(ec);
  return n;
}
}  // namespace

bool OracleCache::cheap_to_run(uint64_t bytes, double oracle_seconds) const {
  return bytes > policy_.always_keep_bytes && oracle_seconds < static_cast<double>(bytes) / policy_.read_bytes_per_s;
}

bool OracleCache::worth_keeping(uint64_t bytes, double oracle_seconds) {
  if (cheap_to_run(bytes, oracle_seconds)) return false;
  if (policy_.budget_bytes && tree_bytes(dir_) + bytes > policy_.budget_bytes) {
    if (!told_budget_.exchange(true))
      tell("oracle cache: " + dir_.string() + " is at its budget of " + std::to_string(policy_.budget_bytes >> 20) +
           " MiB: new outputs are used, not kept");
    return false;
  }
  return true;
}

void OracleCache::tell(const std::string& line) const {
  if (note_) note_(line);
}

namespace {
int64_t ns_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

// The entry at `file` when it is there and intact (a hit); a damaged one is named.
bool OracleCache::read_if_intact(const fs::path& file, const OracleKey& key, Outputs& out) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return false;
  const auto t0 = std::chrono::steady_clock::now();
  std::string why;
  const bool ok = read(file, key, out, why);
  stats_.read_ns += ns_since(t0);
  if (ok) {
    stats_.hits++;
    return true;
  }
  stats_.rejected++;
  tell("oracle cache: " + file.string() + " not used (" + why + "): the oracle runs again and the entry is rewritten");
  return false;
}

OracleCache::Outputs OracleCache::get(const OracleKey& key, const std::function<Outputs()>& compute) {
  Outputs out;
  if (!enabled()) {
    const auto t0 = std::chrono::steady_clock::now();
    out = compute();
    stats_.compute_ns += ns_since(t0);
    stats_.computed++;
    return out;
  }
  const fs::path file = dir_ / folder_ / key.file_name();
  std::error_code ec;
  const bool existed = fs::exists(file, ec);
  if (read_if_intact(file, key, out)) return out;
  // One computation per entry, unless it is known not to be kept (then every gate computes it).
  const fs::path recompute = file.string() + ".recompute";
  FileLock lock;
  if (!fs::exists(recompute, ec)) {
    fs::create_directories(file.parent_path(), ec);
    lock = FileLock(file.string() + ".lock", policy_.wait_for_other_s);
    stats_.wait_ns += static_cast<int64_t>(lock.waited_s() * 1e9);
    if (lock.timed_out()) {
      stats_.lock_timeouts++;
      tell("oracle cache: waited " + std::to_string(static_cast<int>(lock.waited_s())) + " s for another gate to compute " +
           file.string() + ": computing it here");
    }
    // Another gate may have written it meanwhile (a damaged entry already named is not read again).
    if ((lock.waited() || !existed) && read_if_intact(file, key, out)) {
      if (lock.waited()) stats_.waited++;
      return out;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  out = compute();
  const int64_t ns = ns_since(t0);
  stats_.compute_ns += ns;
  stats_.computed++;
  uint64_t bytes = 0;
  for (const auto& t : out) bytes += t.size() * sizeof(double);
  if (worth_keeping(bytes, static_cast<double>(ns) * 1e-9)) {
    const auto w0 = std::chrono::steady_clock::now();
    write(file, key, out);
    stats_.write_ns += ns_since(w0);
  } else {
    stats_.not_kept++;
    if (!cheap_to_run(bytes, static_cast<double>(ns) * 1e-9)) return out;  // the budget: not a property of the entry
    std::ofstream marker(recompute);  // waiters and later gates compute it without waiting
  }
  return out;
}

// Layout: magic, format, checksum, then the meta part (key length and text, number of
// tensors, each tensor's element count), then every tensor's doubles. The checksum chains the
// meta part and each tensor in turn, so both sides stream the doubles straight from or into
// the outputs' vectors, without a copy of the whole entry.
namespace {
constexpr size_t kHeadBytes = sizeof kMagic + sizeof(uint32_t) + sizeof(uint64_t);

uint64_t chain_checksum(const std::string& meta, const OracleCache::Outputs& out) {
  uint64_t h = hash_bytes(meta.data(), meta.size());
  for (const auto& t : out) h = hash_bytes(t.data(), t.size() * sizeof(double), h);
  return h;
}
}  // namespace

bool OracleCache::read(const fs::path& file, const OracleKey& key, Outputs& out, std::string& why) const {
  std::error_code ec;
  const uint64_t file_bytes = fs::file_size(file, ec);
  std::ifstream is(file, std::ios::binary);
  if (ec || !is) {
    why = "cannot be read";
    return false;
  }
  std::string head(kHeadBytes, '\0');
  is.read(head.data(), static_cast<std::streamsize>(head.size()));
  size_t at = sizeof kMagic;
  uint32_t format = 0;
  uint64_t checksum = 0;
  if (file_bytes < sizeof kMagic || std::memcmp(head.data(), kMagic, sizeof kMagic) != 0) {
    why = "not an oracle cache entry";
    return false;
  }
  if (!is) {
    why = "truncated";
    return false;
  }
  take(head, at, format);
  take(head, at, checksum);
  if (format != kFormat) {
    why = "format " + std::to_string(format) + ", expected " + std::to_string(kFormat);
    return false;
  }
  // The meta part, read piece by piece with its size bounded by the file's.
  std::string meta;
  uint64_t key_len = 0, tensors = 0;
  if (!is.read(reinterpret_cast<char*>(&key_len), sizeof key_len) || key_len > file_bytes) {
    why = "truncated";
    return false;
  }
  put(meta, key_len);
  std::string text(key_len, '\0');
  if (!is.read(text.data(), static_cast<std::streamsize>(key_len)) || !is.read(reinterpret_cast<char*>(&tensors), 8) ||
      tensors > 4096) {
    why = "truncated";
    return false;
  }
  meta += text;
  put(meta, tensors);
  std::vector<uint64_t> sizes(tensors);
  uint64_t total = 0;
  for (auto& n : sizes) {
    if (!is.read(reinterpret_cast<char*>(&n), sizeof n) || n > file_bytes) {
      why = "truncated";
      return false;
    }
    put(meta, n);
    total += n;
  }
  if (kHeadBytes + meta.size() + total * sizeof(double) != file_bytes) {
    why = kHeadBytes + meta.size() + total * sizeof(double) > file_bytes ? "truncated" : "size does not match its header";
    return false;
  }
  if (text != key.text()) {
    why = "holds another key";
    return false;
  }
  out.assign(tensors, {});
  for (size_t i = 0; i < tensors; ++i) {
    out[i].resize(sizes[i]);
    if (!is.read(reinterpret_cast<char*>(out[i].data()), static_cast<std::streamsize>(sizes[i] * sizeof(double)))) {
      why = "truncated";
      return false;
    }
  }
  if (chain_checksum(meta, out) != checksum) {
    why = "checksum mismatch: damaged";
    return false;
  }
  return true;
}

void OracleCache::write(const fs::path& file, const OracleKey& key, const Outputs& out) {
  std::string meta;
  put(meta, static_cast<uint64_t>(key.text().size()));
  meta += key.text();
  put(meta, static_cast<uint64_t>(out.size()));
  for (const auto& t : out) put(meta, static_cast<uint64_t>(t.size()));
  std::string head(kMagic, sizeof kMagic);
  put(head, kFormat);
  put(head, chain_checksum(meta, out));

  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // A private name, then a rename: a reader sees the old entry or the whole new one.
  std::random_device rd;
  const fs::path partial = file.string() + "." + std::to_string(::getpid()) + "." + hex(rd()) + ".partial";
  {
    std::ofstream os(partial, std::ios::binary | std::ios::trunc);
    os.write(head.data(), static_cast<std::streamsize>(head.size()));
    os.write(meta.data(), static_cast<std::streamsize>(meta.size()));
    for (const auto& t : out)
      os.write(reinterpret_cast<const char*>(t.data()), static_cast<std::streamsize>(t.size() * sizeof(double)));
    os.flush();
    if (!os) {
      fs::remove(partial, ec);
      tell("oracle cache: cannot write " + file.string() + " (the outputs are used, not kept)");
      return;
    }
  }
  fs::rename(partial, file, ec);
  if (ec) {
    fs::remove(partial, ec);
    tell("oracle cache: cannot write " + file.string() + " (the outputs are used, not kept)");
  }
}

}  // namespace arena
