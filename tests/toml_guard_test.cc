// The TOML guard in front of toml++ (util/toml_guard.h): the fuzzers' crash inputs for
// toml++ 3.3.0 (../shared/crashes, minimized, reproduced here byte for byte) are refused
// with a line naming file and line before the parser sees them, through every TOML
// reader (lock, KB, signatures, packaging); every real KB file still passes.
#include <string>

#include <gtest/gtest.h>

#include "explain/signatures.h"
#include "kb/embedded.h"
#include "plan/lock.h"
#include "plan/packaging.h"
#include "util/toml_guard.h"

namespace tfgpu {
namespace {

// plan_lock_fuzz-toml-assert-minimized.toml: an assertion in toml++'s key parsing.
const std::string kAssertInput = "[[:a]]\n";
// plan_lock_fuzz-toml-unreachable-unicode-minimized.toml: UB ("unreachable") in toml++.
const std::string kUnreachableInput = "\xc9\x95";
// The README's SIGSEGV: a 300,000-part dotted key.
std::string long_dotted_key() {
  std::string t = "schema = 1\nk";
  for (int i = 1; i < 300000; ++i) t += ".k";
  return t + " = 1\n";
}

TEST(TomlGuard, FuzzerCrashInputsAreRefusedWithFileAndLine) {
  auto a = guard_toml(kAssertInput, "l.toml");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "l.toml:1: expected a table name (letters, digits, '_', '-', or a quoted key), not ':'");
  auto u = guard_toml(kUnreachableInput, "l.toml");
  ASSERT_FALSE(u);
  EXPECT_EQ(u.error().message, "l.toml:1: expected a key: a non-ASCII byte outside a string (quote the key)");
  auto k = guard_toml(long_dotted_key(), "l.toml");
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().message, "l.toml:2: a dotted key of more than 32 parts");
}

TEST(TomlGuard, EveryTomlReaderRefusesTheCrashInputsAsInputErrors) {
  for (const std::string& text : {kAssertInput, kUnreachableInput, long_dotted_key()}) {
    auto lock = plan::parse_lock(text, "tfgpu.lock.toml");
    ASSERT_FALSE(lock);
    EXPECT_EQ(lock.error().kind, ErrorKind::kInput);
    EXPECT_EQ(lock.error().message.rfind("tfgpu.lock.toml:", 0), 0u) << lock.error().message;
    EXPECT_FALSE(plan::parse_packaging(text, "packaging.toml"));
    EXPECT_FALSE(explain::parse_signatures(text, "signatures.toml"));
  }
}

TEST(TomlGuard, BoundsNestingKeyLengthAndSize) {
  std::string deep = "a = " + std::string(1000, '[') + std::string(1000, ']') + "\n";
  EXPECT_EQ(guard_toml(deep, "d.toml").error().message, "d.toml:1: arrays and inline tables nested more than 32 deep");
  std::string inline_deep = "a = ";
  for (int i = 0; i < 100; ++i) inline_deep += "{ b = ";
  EXPECT_FALSE(guard_toml(inline_deep + "1" + std::string(100, '}') + "\n", "d.toml"));
  EXPECT_FALSE(guard_toml(std::string(600, 'k') + " = 1\n", "k.toml"));
  TomlLimits small;
  small.max_bytes = 10;
  EXPECT_EQ(guard_toml("a = 12345678901\n", "s.toml", small).error().message,
            "s.toml: 16 bytes, more than the 10 a TOML file may have here");
}

TEST(TomlGuard, ValidTomlPasses) {
  const char* valid = R"(# a comment with ünïcode
title = "TOML \"Example\" ✓"
"quoted key" = 'literal'
a.b."c d".e = 1
[owner]
dob = 1979-05-27T07:32:00-08:00
[[products]]
name = """multi
line "" \
  string"""""
lit = '''raw
 ''text'' '''
arr = [ [1, 2], ["a", 'b'], { x = 1, y.z = "w" }, ] # trailing comma
empty = {}
nested = { a = { b = [ {c = 1} ] } }
num = +inf
[ "spaced" . 'table' ]
x = -1.5e+3
)";
  EXPECT_TRUE(guard_toml(valid, "v.toml")) << guard_toml(valid, "v.toml").error().message;
}

TEST(TomlGuard, EveryEmbeddedKbFilePasses) {
  for (const auto& f : embedded_kb_files()) {
    auto r = guard_toml(f.text, f.name);
    EXPECT_TRUE(r) << r.error().message;
  }
}

TEST(TomlGuard, NonAsciiOutsideStringsAndStrayControlCharactersAreRefused) {
  EXPECT_FALSE(guard_toml("a = 1\xc9\x95\n", "x.toml"));
  EXPECT_FALSE(guard_toml("a = \x01\n", "x.toml"));
  EXPECT_FALSE(guard_toml("a = \"x\x01\"\n", "x.toml"));
  EXPECT_FALSE(guard_toml("a = \"unterminated\n", "x.toml"));
  EXPECT_FALSE(guard_toml("a = 1\rb = 2\n", "x.toml"));
  EXPECT_TRUE(guard_toml("a = \"\xc9\x95\" # \xc9\x95\r\n", "x.toml"));
}

// Found by plan_lock_fuzz under libFuzzer + UBSan (fuzz/build_gcc_libfuzzer.sh): quotes in
// the middle of a value made the guard see a string where toml++ sees one odd token, and
// toml++ reached its unreachable branch on the non-ASCII byte after it.
TEST(TomlGuard, AQuoteInsideAValueTokenIsRefused) {
  const std::string crash = "w=2''''e\xef\xbb\xaf#" + std::string(40, '\'') + "\xdb" + std::string(10, '\'');
  auto r = guard_toml(crash, "x.toml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("a quote inside a value"), std::string::npos) << r.error().message;
  EXPECT_FALSE(guard_toml("a = 2'x'\n", "x.toml"));
  EXPECT_FALSE(guard_toml("a = \"x\"\"y\"\n", "x.toml"));
  // Strings where TOML puts them still pass.
  EXPECT_TRUE(guard_toml("a = 'x'\nb = [ \"p\" , 'q',\n  \"\"\"r\"\"\" ]\nc = { d = 'e', f = [\"g\"] }\n", "x.toml"));
}

}  // namespace
}  // namespace tfgpu
