// CTest stores a large test output as base64 of zlib-compressed bytes
// (<Value encoding="base64" compression="gzip">). This decodes it.
#pragma once
#include <string>

namespace arena::score {

// Returns false (and says why in *why) when the text is not valid base64 or cannot be
// inflated (or arena-score was built without zlib).
bool decode_base64(const std::string& text, std::string* out);
bool decode_test_output(const std::string& text, const std::string& encoding, const std::string& compression,
                        std::string* out, std::string* why);

}  // namespace arena::score
