#include "util/json_stream.h"

#include <string>

namespace tfgpu {

void for_each_json_document(std::istream& in, const std::function<void(const JsonChunk&)>& each, size_t max_bytes) {
  std::string doc;
  std::string line;
  size_t line_no = 0, start_line = 0;
  int depth = 0;
  bool in_string = false, escape = false, oversized = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t i = 0;
    while (i < line.size()) {
      if (depth == 0) {
        char c = line[i];
        if (c == ' ' || c == '\t') {
          ++i;
          continue;
        }
        if (c != '{' && c != '[') {
          each({"", line_no, "not a JSON document (expected '{')"});
          break;  // the rest of the line
        }
        start_line = line_no;
        doc.clear();
        oversized = false;
      }
      // Inside a document: copy up to its end (or the end of the line).
      size_t from = i;
      for (; i < line.size(); ++i) {
        char c = line[i];
        if (in_string) {
          if (escape)
            escape = false;
          else if (c == '\\')
            escape = true;
          else if (c == '"')
            in_string = false;
          continue;
        }
        if (c == '"')
          in_string = true;
        else if (c == '{' || c == '[')
          ++depth;
        else if ((c == '}' || c == ']') && --depth == 0) {
          ++i;
          break;
        }
      }
      if (!oversized) {
        doc.append(line, from, i - from);
        if (doc.size() > max_bytes) {
          oversized = true;
          doc.clear();
          doc.shrink_to_fit();
        }
      }
      if (depth == 0) {
        if (oversized)
          each({"", start_line, "document larger than the limit"});
        else
          each({doc, start_line, ""});
        doc.clear();
      }
    }
    if (depth > 0 && !oversized) doc += '\n';
  }
  if (depth > 0) each({"", start_line, "document not closed at the end of the input"});
}

}  // namespace tfgpu
