// kb/packaging.toml: its rows load, cite sources, and bad tables are clear errors.
#include <random>

#include <gtest/gtest.h>

#include "plan_scenarios.h"

namespace tfgpu::plan {
namespace {

TEST(PlanPackaging, EmbeddedTableLoadsWithSourcesOnEveryRow) {
  const Packaging& p = testing::test_packaging();
  EXPECT_FALSE(p.docker().empty());
  EXPECT_FALSE(p.conda().empty());
  EXPECT_FALSE(p.installers().empty());
  EXPECT_FALSE(p.windows_paths().empty());
  for (const auto& d : p.docker()) EXPECT_FALSE(d.prov.source.empty());
  for (const auto& c : p.conda()) EXPECT_FALSE(c.prov.source.empty());
  for (const auto& i : p.installers()) EXPECT_FALSE(i.prov.source.empty());
}

TEST(PlanPackaging, EveryRowNamesVersionsTheMainKbKnows) {
  const auto& kb = testing::test_kb();
  for (const auto& c : testing::test_packaging().conda()) {
    EXPECT_NE(kb.find_cuda(c.cuda), nullptr) << c.cuda.str();
    EXPECT_NE(kb.find_cudnn(c.cudnn), nullptr) << c.cudnn.str();
  }
  for (const auto& i : testing::test_packaging().installers()) {
    EXPECT_NE(kb.find_cuda(i.cuda), nullptr) << i.cuda.str();
    EXPECT_NE(i.file.find(i.cuda.str()), std::string::npos) << i.file;  // the file name carries its version
  }
  for (const auto& d : testing::test_packaging().docker()) EXPECT_NE(d.tag.find("{version}"), std::string::npos);
}

TEST(PlanPackaging, EverySourceIsAKnownIdAUrlOrARepositoryPath) {
  const auto& kb = testing::test_kb();
  auto check = [&](const PackagingSource& p) {
    for (const auto& s : p.source) {
      bool url = s.rfind("https://", 0) == 0;
      bool repo_path = s.find('/') != std::string::npos && s.find(':') != std::string::npos;
      EXPECT_TRUE(url || repo_path || kb.source(s) != nullptr) << s;
    }
  };
  const Packaging& p = testing::test_packaging();
  for (const auto& r : p.docker()) check(r.prov);
  for (const auto& r : p.conda()) check(r.prov);
  for (const auto& r : p.installers()) check(r.prov);
  for (const auto& r : p.windows_paths()) check(r.prov);
}

TEST(PlanPackaging, BadRowsAreErrorsNamingTheRow) {
  auto missing = parse_packaging("[[docker]]\ntf = \"2.1-2.21\"\nimage = \"x\"\n");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("[[docker]] row 1"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("'tag'"), std::string::npos);
  EXPECT_FALSE(parse_packaging("[[conda]]\nplatform = \"beos\"\n"));
  EXPECT_FALSE(parse_packaging("docker = 3\n"));
  EXPECT_FALSE(parse_packaging("[[cuda_installer]]\ncuda = \"eleven\"\n"));
  auto syntax = parse_packaging("[[docker]\n");
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().message.find("packaging.toml:1:"), std::string::npos) << syntax.error().message;
  EXPECT_TRUE(parse_packaging(""));  // an empty table is valid (no packaging facts)
}

TEST(PlanPackaging, HostileInputNeverCrashes) {
  std::string good;
  for (const auto& f : embedded_kb_files())
    if (f.name == kPackagingFile) good = std::string(f.text);
  ASSERT_FALSE(good.empty());
  for (size_t n = 0; n < good.size(); n += 11) (void)parse_packaging(good.substr(0, n));
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::string s = good;
    for (int k = 0; k < 6; ++k) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    (void)parse_packaging(s);
  }
  EXPECT_FALSE(parse_packaging(std::string(1u << 20, '{')));
}

}  // namespace
}  // namespace tfgpu::plan
