// The knowledge base compiled at build time (kb/kb_blob.h) is the TOML knowledge base:
// the same tables, field for field, as `--kb kb/` parses at run time, and a blob that is
// cut short or not ours is an error, never a crash or a half-filled KB.
#include <gtest/gtest.h>

#include "kb/kb.h"
#include "kb/kb_blob.h"

namespace tfgpu::kb {
namespace {

const KnowledgeBase& toml_kb() {
  static const KnowledgeBase kb = [] {
    auto loaded = load_texts(tfgpu::embedded_kb_files());
    if (!loaded) {
      ADD_FAILURE() << loaded.error().message;
      return KnowledgeBase{};
    }
    return std::move(*loaded);
  }();
  return kb;
}

TEST(KbBlob, NativeBuildsCarryACompiledCopy) {
#if defined(_WIN32)
  GTEST_SKIP() << "the mingw cross build cannot run tools/kb_compile: it parses the TOML";
#else
  EXPECT_FALSE(embedded_kb_blob().empty());
#endif
}

TEST(KbBlob, CompiledCopyHoldsTheSameTablesAsTheToml) {
  auto embedded = load_embedded();
  ASSERT_TRUE(embedded) << embedded.error().message;
  ASSERT_FALSE(toml_kb().tf_releases().empty());
  EXPECT_TRUE(*embedded == toml_kb());
  // Byte for byte: the parts of a version ("11" against "11.0") compare equal as
  // versions but are kept as written.
  if (!embedded_kb_blob().empty()) EXPECT_EQ(serialize_kb(toml_kb()), embedded_kb_blob());
}

TEST(KbBlob, RoundTripKeepsEveryField) {
  std::string blob = serialize_kb(toml_kb());
  auto back = deserialize_kb(blob);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == toml_kb());
  EXPECT_EQ(serialize_kb(*back), blob);
}

TEST(KbBlob, CutShortOrForeignBytesAreAnError) {
  std::string blob = serialize_kb(toml_kb());
  ASSERT_GT(blob.size(), 1000u);
  for (size_t n = 0; n < blob.size(); n += (n < 64 || blob.size() - n < 64) ? 1 : 211) {
    auto r = deserialize_kb(std::string_view(blob).substr(0, n));
    EXPECT_FALSE(r) << "prefix of " << n << " bytes read as a whole knowledge base";
  }
  EXPECT_FALSE(deserialize_kb(blob + "x")) << "trailing bytes";
  std::string foreign = blob;
  foreign[7] = static_cast<char>(foreign[7] + 1);
  EXPECT_FALSE(deserialize_kb(foreign)) << "another format version";
  // Counts far beyond the remaining bytes are refused before anything is allocated.
  std::string huge = blob.substr(0, 8) + std::string("\xff\xff\xff\x7f", 4);
  EXPECT_FALSE(deserialize_kb(huge));
}

}  // namespace
}  // namespace tfgpu::kb
