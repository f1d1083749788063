// Bytes that are not UTF-8 in JSON output (util/json_text.h) and text files with a byte
// order mark (util/text_encoding.h): nothing fails, nothing is lost.
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "plan/lock.h"
#include "snapshot/snapshot_json.h"
#include "support/doctor_scenarios.h"
#include "util/json_text.h"
#include "util/text_encoding.h"

namespace tfgpu {
namespace {

using nlohmann::json;

TEST(JsonText, InvalidBytesBecomeReplacementCharactersWithTheirBytesKept) {
  json j = {{"env", {{"PATH", "/opt/caf\xe9/bin:/usr/bin"}}}, {"list", {"ok", "\xc3"}}};
  std::string out = dump_json(j, -1);
  auto back = json::parse(out);  // valid UTF-8: parses
  EXPECT_EQ(back["env"]["PATH"], "/opt/caf\xEF\xBF\xBD/bin:/usr/bin");
  ASSERT_EQ(back["invalid_utf8"].size(), 2u);
  EXPECT_EQ(back["invalid_utf8"][0]["pointer"], "/env/PATH");
  EXPECT_EQ(back["invalid_utf8"][0]["hex"], "2f6f70742f636166e92f62696e3a2f7573722f62696e");
  EXPECT_EQ(back["invalid_utf8"][1]["pointer"], "/list/1");
  restore_invalid_utf8(back);
  EXPECT_EQ(back, j) << "lossless";
}

TEST(JsonText, KeysThatAreNotUtf8AreKeptToo) {
  json j = {{"env", {{"A\xff", "1"}, {"A\xfe", "2"}}}};
  auto back = json::parse(dump_json(j, -1));
  EXPECT_EQ(back["env"].size(), 2u) << "two keys differing only in invalid bytes stay two";
  restore_invalid_utf8(back);
  EXPECT_EQ(back, j);
}

TEST(JsonText, ValidUtf8IsUntouched) {
  json j = {{"name", "NVIDIA GeForce RTX 4090 \xE2\x9C\x93"}, {"path", "C:\\Users\\alice"}};
  std::string out = dump_json(j, -1);
  EXPECT_EQ(out, j.dump());
  std::string fixed;
  EXPECT_TRUE(to_valid_utf8("\xF0\x9F\x98\x80", &fixed));
  EXPECT_FALSE(to_valid_utf8("\xED\xA0\x80", &fixed)) << "a UTF-8-encoded surrogate is not valid";
  EXPECT_FALSE(to_valid_utf8("\xC0\xAF", &fixed)) << "an overlong form is not valid";
}

TEST(JsonText, SnapshotWithInvalidBytesRoundTripsThroughTheReader) {
  auto text = testing::read_text(testing::scenario_dir() + "/linux_pip_and_cuda_good.json");
  auto s = parse_snapshot(text, "s.json");
  ASSERT_TRUE(s);
  s->env["PATH"] = "/nonexistent/\xff\xfe:/usr/bin";
  std::string written = dump_json(snapshot_to_json(*s));
  auto read = parse_snapshot(written, "written.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->env["PATH"], "/nonexistent/\xff\xfe:/usr/bin");
}

const std::string kUtf16LeHello("\xFF\xFE" "h\0i\0 \0\x3D\xD8\x00\xDE", 12);  // "hi 😀"

TEST(TextEncoding, Utf16AndUtf8ByteOrderMarksAreDecoded) {
  EXPECT_EQ(decode_text(kUtf16LeHello), "hi \xF0\x9F\x98\x80");
  EXPECT_EQ(decode_text(std::string("\xFE\xFF\0h\0i", 6)), "hi");
  EXPECT_EQ(decode_text("\xEF\xBB\xBFhi"), "hi");
  EXPECT_EQ(decode_text("hi"), "hi");
  EXPECT_EQ(decode_text(std::string("\xFF\xFE\x00\xD8", 4)), "\xEF\xBF\xBD") << "an unpaired surrogate";
  EXPECT_EQ(decode_text(std::string("\xFF\xFEh", 3)), "\xEF\xBF\xBD") << "an odd last byte";
}

TEST(TextEncoding, StreamsAreDecodedAcrossChunkBoundaries) {
  std::string big(200000, 'x');
  std::string utf16 = "\xFF\xFE";
  for (char c : big) {
    utf16 += c;
    utf16 += '\0';
  }
  utf16 += std::string("\x3D\xD8\x00\xDE", 4);
  std::istringstream in(utf16);
  DecodingStreambuf buf(in);
  std::istream decoded(&buf);
  std::string all((std::istreambuf_iterator<char>(decoded)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all, big + "\xF0\x9F\x98\x80");
}

TEST(TextEncoding, PowerShellSnapshotAndLockAreRead) {
  auto text = testing::read_text(testing::scenario_dir() + "/linux_pip_and_cuda_good.json");
  std::string utf16 = "\xFF\xFE";
  for (char c : text) {  // the scenario is ASCII
    utf16 += c;
    utf16 += '\0';
  }
  auto s = parse_snapshot(utf16, "ps.json");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->gpus.size(), 1u);
  auto bom = parse_snapshot("\xEF\xBB\xBF" + text, "bom.json");
  ASSERT_TRUE(bom) << bom.error().message;
  auto lock_text = testing::read_text(std::string(TFGPU_SOURCE_DIR) + "/tests/golden/plan/gtx960-linux/tfgpu.lock.toml");
  ASSERT_FALSE(lock_text.empty());
  std::string lock16 = "\xFF\xFE";
  for (char c : lock_text) {
    lock16 += c;
    lock16 += '\0';
  }
  auto lock = plan::parse_lock(lock16, "tfgpu.lock.toml");
  ASSERT_TRUE(lock) << lock.error().message;
  EXPECT_TRUE(plan::parse_lock("\xEF\xBB\xBF" + lock_text, "tfgpu.lock.toml"));
}

}  // namespace
}  // namespace tfgpu
