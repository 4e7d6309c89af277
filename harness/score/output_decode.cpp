#include "output_decode.h"

#include <cstdint>

#ifdef ARENA_SCORE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace arena::score {

bool decode_base64(const std::string& text, std::string* out) {
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  bool padding = false;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+') v = 62;
    else if (c == '/') v = 63;
    else if (c == '=') { padding = true; continue; }
    else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    else return false;
    if (padding) return false;  // data after padding
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

bool decode_test_output(const std::string& text, const std::string& encoding, const std::string& compression,
                        std::string* out, std::string* why) {
  if (encoding.empty() && compression.empty()) {
    *out = text;
    return true;
  }
  std::string bytes = text;
  if (encoding == "base64") {
    if (!decode_base64(text, &bytes)) {
      *why = "test output is not valid base64";
      return false;
    }
  } else if (!encoding.empty()) {
    *why = "test output has an unknown encoding '" + encoding + "'";
    return false;
  }
  if (compression.empty()) {
    *out = bytes;
    return true;
  }
  if (compression != "gzip") {
    *why = "test output has an unknown compression '" + compression + "'";
    return false;
  }
#ifdef ARENA_SCORE_HAVE_ZLIB
  // CTest writes a zlib stream despite the attribute's name; 15 + 32 accepts zlib and gzip headers.
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) {
    *why = "zlib could not start";
    return false;
  }
  zs.next_in = reinterpret_cast<Bytef*>(bytes.data());
  zs.avail_in = static_cast<uInt>(bytes.size());
  out->clear();
  char buf[16384];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      *why = "compressed test output is corrupt";
      return false;
    }
    out->append(buf, sizeof buf - zs.avail_out);
  } while (rc != Z_STREAM_END && (zs.avail_in > 0 || zs.avail_out == 0));
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    *why = "compressed test output is truncated";
    return false;
  }
  return true;
#else
  *why = "test output is compressed and arena-score was built without zlib (run ctest with --no-compress-output)";
  return false;
#endif
}

}  // namespace arena::score
