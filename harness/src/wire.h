// The judge <-> worker wire format: one message is a JSON head and zero or more binary blobs
// (IPC handles, device code images), framed with lengths. Both sides check every length
// against hard limits, so a worker that lies cannot make the judge allocate without bound.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

struct WireMessage {
  nlohmann::json head;
  std::vector<std::vector<uint8_t>> blobs;
};

struct WireError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct WireTimeout : WireError {
  using WireError::WireError;
};
struct WireClosed : WireError {  // the other side closed the connection
  using WireError::WireError;
};

constexpr size_t kWireMaxHead = size_t{64} << 20;
constexpr size_t kWireMaxBlob = size_t{1} << 30;
constexpr size_t kWireMaxBlobs = 4096;

// `fd` is a socket. Throws WireError when the peer is gone.
void write_message(int fd, const WireMessage& m);
// Waits at most timeout_s (negative: forever) for a whole message. Throws WireTimeout,
// WireClosed (end of stream) or WireError (a malformed frame).
WireMessage read_message(int fd, double timeout_s);

}  // namespace arena
