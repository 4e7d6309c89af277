#include "wire.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace arena {

namespace {

constexpr uint32_t kMagic = 0x414e5241;  // "ARNA"

void write_all(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    // MSG_NOSIGNAL: a peer that died must not kill this process with SIGPIPE.
    ssize_t w = ::send(fd, c, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw WireError(std::string("the connection to the other process broke: ") + std::strerror(errno));
    c += w;
    n -= static_cast<size_t>(w);
  }
}

using Clock = std::chrono::steady_clock;

void read_all(int fd, void* p, size_t n, Clock::time_point deadline, bool has_deadline, bool at_start) {
  char* c = static_cast<char*>(p);
  size_t got = 0;
  while (got < n) {
    if (has_deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) throw WireTimeout("no answer in time");
      pollfd pfd{fd, POLLIN, 0};
      int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) continue;
    }
    ssize_t k = ::read(fd, c + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k == 0) {
      if (at_start && got == 0) throw WireClosed("the other process closed the connection");
      throw WireClosed("the other process closed the connection in the middle of a message");
    }
    if (k < 0) throw WireError(std::string("reading from the other process: ") + std::strerror(errno));
    got += static_cast<size_t>(k);
  }
}

}  // namespace

void write_message(int fd, const WireMessage& m) {
  const std::string head = m.head.dump();
  std::vector<char> frame;
  auto put = [&](const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    frame.insert(frame.end(), c, c + n);
  };
  const uint32_t magic = kMagic, head_len = static_cast<uint32_t>(head.size()),
                 blobs = static_cast<uint32_t>(m.blobs.size());
  put(&magic, 4);
  put(&head_len, 4);
  put(head.data(), head.size());
  put(&blobs, 4);
  for (const auto& b : m.blobs) {
    const uint64_t n = b.size();
    put(&n, 8);
  }
  write_all(fd, frame.data(), frame.size());
  for (const auto& b : m.blobs)
    if (!b.empty()) write_all(fd, b.data(), b.size());
}

WireMessage read_message(int fd, double timeout_s) {
  const bool has_deadline = timeout_s >= 0;
  const auto deadline = Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_s * 1e6));
  uint32_t magic = 0, head_len = 0, blobs = 0;
  read_all(fd, &magic, 4, deadline, has_deadline, true);
  if (magic != kMagic) throw WireError("malformed message from the other process (bad frame marker)");
  read_all(fd, &head_len, 4, deadline, has_deadline, false);
  if (head_len > kWireMaxHead) throw WireError("malformed message from the other process (head too large)");
  std::string head(head_len, '\0');
  read_all(fd, head.data(), head_len, deadline, has_deadline, false);
  read_all(fd, &blobs, 4, deadline, has_deadline, false);
  if (blobs > kWireMaxBlobs) throw WireError("malformed message from the other process (too many blobs)");
  std::vector<uint64_t> sizes(blobs);
  if (blobs) read_all(fd, sizes.data(), 8 * blobs, deadline, has_deadline, false);
  WireMessage m;
  m.head = nlohmann::json::parse(head, nullptr, false);
  if (m.head.is_discarded() || !m.head.is_object())
    throw WireError("malformed message from the other process (its head is not a JSON object)");
  for (uint64_t n : sizes) {
    if (n > kWireMaxBlob) throw WireError("malformed message from the other process (blob too large)");
    std::vector<uint8_t> b(n);
    if (n) read_all(fd, b.data(), n, deadline, has_deadline, false);
    m.blobs.push_back(std::move(b));
  }
  return m;
}

}  // namespace arena
