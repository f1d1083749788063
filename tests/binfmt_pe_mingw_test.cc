// PE reader rules on a real DLL that mingw-w64 builds in the test run (with a VERSIONINFO
// resource compiled by windres), checked against objdump -p's listing of its imports.
// Skipped, visibly, where the mingw-w64 toolchain is not installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "binfmt/pe.h"
#include "host/host.h"
#include "support/binfmt_fixtures.h"
#include "util/strings.h"

namespace tfgpu::binfmt {
namespace {

std::optional<ProcessResult> run(const std::vector<std::string>& argv) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.timeout = std::chrono::milliseconds(60000);
  auto r = make_system_host()->run(spec);
  if (!r) return std::nullopt;
  return *r;
}

bool ok(const std::optional<ProcessResult>& r) { return r && r->exited && r->exit_code == 0; }

TEST(PeMingw, RealDllImportsAndVersionResourceAreRead) {
  const std::string gcc = "x86_64-w64-mingw32-gcc", windres = "x86_64-w64-mingw32-windres",
                    objdump = "x86_64-w64-mingw32-objdump";
  if (!ok(run({gcc, "--version"})) || !ok(run({windres, "--version"})) || !ok(run({objdump, "--version"})))
    GTEST_SKIP() << "mingw-w64 (x86_64-w64-mingw32-gcc/windres/objdump) not installed";
  test::ScratchDir dir;
  std::string c = dir.write("fixture.c",
                            "#include <windows.h>\n"
                            "__declspec(dllexport) int fixture_fn(void) { return MessageBeep(0); }\n");
  std::string rc = dir.write("fixture.rc",
                             "1 VERSIONINFO\n"
                             "FILEVERSION 6,14,11,9000\n"
                             "PRODUCTVERSION 11,2,0,0\n"
                             "BEGIN\n"
                             "  BLOCK \"StringFileInfo\"\n"
                             "  BEGIN\n"
                             "    BLOCK \"040904b0\"\n"
                             "    BEGIN\n"
                             "      VALUE \"CompanyName\", \"tfgpu tests\"\n"
                             "      VALUE \"FileVersion\", \"6.14.11.9000\"\n"
                             "      VALUE \"ProductVersion\", \"11.2.152\"\n"
                             "    END\n"
                             "  END\n"
                             "  BLOCK \"VarFileInfo\"\n"
                             "  BEGIN\n"
                             "    VALUE \"Translation\", 0x409, 1200\n"
                             "  END\n"
                             "END\n");
  std::string res = dir.file("fixture_res.o"), dll = dir.file("fixture64.dll");
  auto w = run({windres, rc, "-O", "coff", "-o", res});
  ASSERT_TRUE(ok(w)) << (w ? w->err : "windres did not run");
  auto g = run({gcc, "-shared", "-o", dll, c, res, "-luser32"});
  ASSERT_TRUE(ok(g)) << (g ? g->err : "gcc did not run");

  auto f = parse_pe(test::read_binary_file(dll), "fixture64.dll");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->bits, 64);
  EXPECT_EQ(f->machine, "x64");
  EXPECT_TRUE(f->is_dll);
  EXPECT_EQ(f->file_version, "6.14.11.9000");
  EXPECT_EQ(f->product_version, "11.2.0.0");
  EXPECT_EQ(f->version_strings.at("ProductVersion"), "11.2.152");
  EXPECT_EQ(f->version_strings.at("CompanyName"), "tfgpu tests");

  // objdump's "DLL Name:" lines, in order, are the import directory.
  auto d = run({objdump, "-p", dll});
  ASSERT_TRUE(ok(d));
  std::vector<std::string> expected;
  for (const std::string& line : split(d->out, '\n')) {
    std::string_view t = trim(line);
    if (t.starts_with("DLL Name: ")) expected.emplace_back(t.substr(10));
  }
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(f->imports, expected);
  EXPECT_NE(std::find(f->imports.begin(), f->imports.end(), "USER32.dll"), f->imports.end());
}

}  // namespace
}  // namespace tfgpu::binfmt
