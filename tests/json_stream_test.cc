// Splitting a stream into JSON documents (`tfgpu fleet -`): JSON lines, concatenated
// pretty-printed documents, and the parts that are not documents.
#include <sstream>

#include <gtest/gtest.h>

#include "util/json_stream.h"

namespace tfgpu {
namespace {

struct Piece {
  std::string text;
  size_t line;
  std::string error;
};

std::vector<Piece> split_documents(const std::string& input, size_t max_bytes = size_t{64} << 20) {
  std::istringstream in(input);
  std::vector<Piece> out;
  for_each_json_document(
      in,
      [&](const JsonChunk& c) {
        out.push_back({std::string(c.text), c.line, std::string(c.error)});
      },
      max_bytes);
  return out;
}

TEST(JsonStream, JsonLinesAreOneDocumentEach) {
  auto d = split_documents("{\"a\": 1}\n{\"b\": 2}\r\n\n{\"c\": 3}\n");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].text, "{\"a\": 1}");
  EXPECT_EQ(d[1].text, "{\"b\": 2}");
  EXPECT_EQ(d[2].text, "{\"c\": 3}");
  EXPECT_EQ(d[2].line, 4u);
}

TEST(JsonStream, PrettyPrintedDocumentsEndWhereTheirBracesClose) {
  auto d = split_documents("{\n  \"a\": {\n    \"b\": [1, 2]\n  }\n}\n{\n  \"c\": 3\n}{\"d\": 4}\n");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].text, "{\n  \"a\": {\n    \"b\": [1, 2]\n  }\n}");
  EXPECT_EQ(d[0].line, 1u);
  EXPECT_EQ(d[1].text, "{\n  \"c\": 3\n}");
  EXPECT_EQ(d[1].line, 6u);
  EXPECT_EQ(d[2].text, "{\"d\": 4}");
  EXPECT_EQ(d[2].line, 8u);
}

TEST(JsonStream, BracesInsideStringsDoNotCount) {
  auto d = split_documents("{\"path\": \"C:\\\\x}\\\"{\", \"n\": \"}}}\"}\n{\"e\": 1}\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].text, "{\"path\": \"C:\\\\x}\\\"{\", \"n\": \"}}}\"}");
  EXPECT_EQ(d[1].text, "{\"e\": 1}");
}

TEST(JsonStream, TextOutsideADocumentIsAnErrorForItsLineOnly) {
  auto d = split_documents("tfgpu probe: wrote x\n{\"a\": 1}\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].line, 1u);
  EXPECT_EQ(d[0].error, "not a JSON document (expected '{')");
  EXPECT_EQ(d[1].text, "{\"a\": 1}");
}

TEST(JsonStream, ADocumentLeftOpenIsAnErrorAtItsFirstLine) {
  auto d = split_documents("{\"a\": 1}\n{\"b\": [\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_TRUE(d[0].error.empty());
  EXPECT_EQ(d[1].line, 2u);
  EXPECT_EQ(d[1].error, "document not closed at the end of the input");
}

TEST(JsonStream, AnOversizedDocumentIsSkippedWithoutKeepingIt) {
  auto d = split_documents("{\"a\": \"" + std::string(1000, 'x') + "\"}\n{\"b\": 1}\n", 100);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].error, "document larger than the limit");
  EXPECT_EQ(d[1].text, "{\"b\": 1}");
}

}  // namespace
}  // namespace tfgpu
