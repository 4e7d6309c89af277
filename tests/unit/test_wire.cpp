// The judge <-> worker wire format (harness/src/wire.h): messages arrive whole, a peer that
// goes away or sends nonsense is reported, and a slow one times out.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "wire.h"

using namespace arena;

namespace {
struct Pair {
  int fd[2];
  Pair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0); }
  ~Pair() {
    for (int f : fd)
      if (f >= 0) ::close(f);
  }
};
}  // namespace

TEST(Wire, MessagesArriveWhole) {
  Pair p;
  WireMessage m{{{"op", "map"}, {"ids", {1, 2}}}, {{1, 2, 3}, {}, std::vector<uint8_t>(100000, 7)}};
  std::thread writer([&] { write_message(p.fd[0], m); });
  WireMessage got = read_message(p.fd[1], 10);
  writer.join();
  EXPECT_EQ(got.head, m.head);
  EXPECT_EQ(got.blobs, m.blobs);
}

TEST(Wire, ClosedPeerAndSilenceAreReported) {
  Pair p;
  EXPECT_THROW(read_message(p.fd[1], 0.05), WireTimeout);
  ::close(p.fd[0]);
  p.fd[0] = -1;
  EXPECT_THROW(read_message(p.fd[1], 1), WireClosed);
  EXPECT_THROW(write_message(p.fd[1], WireMessage{{{"op", "x"}}, {}}), WireError);  // and no SIGPIPE
}

TEST(Wire, MalformedFramesAreRefused) {
  Pair p;
  const uint32_t bad[2] = {0x12345678u, 2};
  ASSERT_EQ(::write(p.fd[0], bad, sizeof bad), static_cast<ssize_t>(sizeof bad));
  EXPECT_THROW(read_message(p.fd[1], 1), WireError);
  Pair q;
  const uint32_t huge[2] = {0x414e5241u, 0xFFFFFFF0u};  // a head of 4 GiB
  ASSERT_EQ(::write(q.fd[0], huge, sizeof huge), static_cast<ssize_t>(sizeof huge));
  try {
    read_message(q.fd[1], 1);
    ADD_FAILURE() << "a 4 GiB head was accepted";
  } catch (const WireError& e) {
    EXPECT_NE(std::string(e.what()).find("too large"), std::string::npos) << e.what();
  }
  Pair r;
  const char not_json[] = "ARNA\x05\0\0\0[1,2]\0\0\0\0";
  ASSERT_EQ(::write(r.fd[0], not_json, sizeof not_json - 1), static_cast<ssize_t>(sizeof not_json - 1));
  EXPECT_THROW(read_message(r.fd[1], 1), WireError);
}
