#pragma once
// Splits a stream into its top-level JSON documents without parsing them: JSON lines
// (one compact document a line) and concatenated pretty-printed documents alike, one at
// a time, so a stream of any length needs the memory of its largest document.

#include <cstddef>
#include <functional>
#include <istream>
#include <string_view>

namespace tfgpu {

struct JsonChunk {
  std::string_view text;   // the document's text ("" when error is set)
  size_t line = 0;         // 1-based line where it starts
  std::string_view error;  // why this part of the stream is not a document ("" when it is one)
};

// Calls `each` per document (or per part of the stream that is not one: text outside a
// document skips to the end of its line; a document still open at the end of the
// stream, or larger than max_bytes, is an error). Strings and escapes are honoured,
// so braces inside strings do not count.
void for_each_json_document(std::istream& in, const std::function<void(const JsonChunk&)>& each,
                            size_t max_bytes = size_t{64} << 20);

}  // namespace tfgpu
