// build_info.py rules: every real example quoted in shared/facts/tensorflow.md §2b, the
// TF <= 2.2 module-attribute layout, and the literal subset itself.
#include <gtest/gtest.h>

#include "binfmt/py_literal.h"
#include "binfmt/tf_build_info.h"

namespace tfgpu::binfmt {
namespace {

using Info = std::map<std::string, std::string>;

const char* kHeader =
    "# Copyright 2020 The TensorFlow Authors. All Rights Reserved.\n"
    "# ==============================================================================\n"
    "\"\"\"Auto-generated module providing information about the build.\"\"\"\n"
    "import collections\n\n";

Info parse_ok(const std::string& text) {
  auto r = parse_tf_build_info(text, "build_info.py");
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : Info{};
}

TEST(TfBuildInfo, WindowsCuda112WheelOrderedDict) {
  // facts/tensorflow.md §2b: Windows TF 2.5-2.10 GPU wheel (Maxi1324/DeepLearningInANutshell).
  Info info = parse_ok(std::string(kHeader) +
      "build_info = collections.OrderedDict([('cpu_compiler', 'C:/Program Files (x86)/Microsoft Visual Studio/2019/"
      "Community/VC/Tools/MSVC/14.27.29110/bin/HostX64/x64/cl.exe'), ('cuda_compute_capabilities', ['sm_35', "
      "'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), ('cuda_version', '64_112'), ('cudart_dll_name', "
      "'cudart64_112.dll'), ('cudnn_dll_name', 'cudnn64_8.dll'), ('cudnn_version', '64_8'), ('is_cuda_build', "
      "True), ('is_rocm_build', False), ('is_tensorrt_build', False), ('msvcp_dll_names', "
      "'msvcp140.dll,msvcp140_1.dll'), ('nvcuda_dll_name', 'nvcuda.dll')])\n");
  EXPECT_EQ(info, (Info{
      {"cpu_compiler", "C:/Program Files (x86)/Microsoft Visual Studio/2019/Community/VC/Tools/MSVC/14.27.29110/bin/HostX64/x64/cl.exe"},
      {"cuda_compute_capabilities", "sm_35,sm_50,sm_60,sm_70,sm_75,compute_80"},
      {"cuda_version", "64_112"},
      {"cudart_dll_name", "cudart64_112.dll"},
      {"cudnn_dll_name", "cudnn64_8.dll"},
      {"cudnn_version", "64_8"},
      {"is_cuda_build", "True"},
      {"is_rocm_build", "False"},
      {"is_tensorrt_build", "False"},
      {"msvcp_dll_names", "msvcp140.dll,msvcp140_1.dll"},
      {"nvcuda_dll_name", "nvcuda.dll"}}));
}

TEST(TfBuildInfo, WindowsCuda101PlainDict) {
  // §2b: TF 2.3-era Windows (NgaAdrain/TEAM_Enter_Text_Here), a plain dict, no TensorRT key.
  Info info = parse_ok(std::string(kHeader) +
      "build_info = {'cuda_version': '64_101', 'cudnn_version': '64_7', 'cuda_compute_capabilities': ['sm_35', "
      "'sm_37', 'sm_52', 'sm_60', 'sm_61', 'compute_70'], 'cpu_compiler': 'C:/Program Files (x86)/Microsoft "
      "Visual Studio/2019/Community/VC/Tools/MSVC/14.26.28801/bin/HostX64/x64/cl.exe', 'is_rocm_build': False, "
      "'is_cuda_build': True, 'msvcp_dll_names': 'msvcp140.dll,msvcp140_1.dll', 'nvcuda_dll_name': 'nvcuda.dll', "
      "'cudart_dll_name': 'cudart64_101.dll', 'cudnn_dll_name': 'cudnn64_7.dll'}\n");
  EXPECT_EQ(info.size(), 10u);
  EXPECT_EQ(info.at("cuda_version"), "64_101");
  EXPECT_EQ(info.at("cudnn_version"), "64_7");
  EXPECT_EQ(info.at("cuda_compute_capabilities"), "sm_35,sm_37,sm_52,sm_60,sm_61,compute_70");
  EXPECT_EQ(info.at("is_cuda_build"), "True");
  EXPECT_EQ(info.at("is_rocm_build"), "False");
  EXPECT_EQ(info.at("cudart_dll_name"), "cudart64_101.dll");
  EXPECT_EQ(info.at("cudnn_dll_name"), "cudnn64_7.dll");
  EXPECT_FALSE(info.contains("is_tensorrt_build"));
}

TEST(TfBuildInfo, LinuxTf28Values) {
  // §2b: Linux TF 2.8 official (tensorflow/tensorflow#60854): the keys users printed.
  Info info = parse_ok(std::string(kHeader) +
      "build_info = collections.OrderedDict([('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', "
      "'sm_75', 'compute_80']), ('cuda_version', '11.2'), ('cudnn_version', '8')])\n");
  EXPECT_EQ(info, (Info{{"cuda_compute_capabilities", "sm_35,sm_50,sm_60,sm_70,sm_75,compute_80"},
                        {"cuda_version", "11.2"},
                        {"cudnn_version", "8"}}));
}

TEST(TfBuildInfo, LinuxTf213Clang16WithTensorRt) {
  // §2b: Linux TF 2.13/2.14 official, CUDA 11.8.
  Info info = parse_ok(std::string(kHeader) +
      "build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-16/bin/clang'), "
      "('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), "
      "('cuda_version', '11.8'), ('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False), "
      "('is_tensorrt_build', True)])\n");
  EXPECT_EQ(info, (Info{{"cpu_compiler", "/usr/lib/llvm-16/bin/clang"},
                        {"cuda_compute_capabilities", "sm_35,sm_50,sm_60,sm_70,sm_75,compute_80"},
                        {"cuda_version", "11.8"},
                        {"cudnn_version", "8"},
                        {"is_cuda_build", "True"},
                        {"is_rocm_build", "False"},
                        {"is_tensorrt_build", "True"}}));
}

TEST(TfBuildInfo, LinuxTf218HermeticCuda) {
  // §2b: TF >= 2.18 hermetic CUDA: cuda_version is the full "12.5.1", cpu_compiler "clang 18".
  Info info = parse_ok(std::string(kHeader) +
      "build_info = collections.OrderedDict([('cpu_compiler', 'clang 18'), ('cuda_compute_capabilities', "
      "['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), ('cudnn_version', '9'), "
      "('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])\n");
  EXPECT_EQ(info, (Info{{"cpu_compiler", "clang 18"},
                        {"cuda_compute_capabilities", "sm_60,sm_70,sm_80,sm_89,compute_90"},
                        {"cuda_version", "12.5.1"},
                        {"cudnn_version", "9"},
                        {"is_cuda_build", "True"},
                        {"is_rocm_build", "False"},
                        {"is_tensorrt_build", "False"}}));
}

TEST(TfBuildInfo, WindowsCpuOnlyIntelWheel) {
  // §2b: Windows TF >= 2.11 (tensorflow-intel): dummy cuda_config, only the build flags.
  Info info = parse_ok(std::string(kHeader) +
      "build_info = collections.OrderedDict([('is_cuda_build', False), ('is_rocm_build', False), "
      "('is_tensorrt_build', False), ('msvcp_dll_names', 'msvcp140.dll,msvcp140_1.dll')])\n");
  EXPECT_EQ(info, (Info{{"is_cuda_build", "False"},
                        {"is_rocm_build", "False"},
                        {"is_tensorrt_build", "False"},
                        {"msvcp_dll_names", "msvcp140.dll,msvcp140_1.dll"}}));
}

TEST(TfBuildInfo, OldTfModuleAttributesBecomeKeys) {
  // §2a: TF <= 2.2 wrote module attributes (self_check tracebacks show cuda_version_number).
  Info info = parse_ok(
      "# Copyright 2017 The TensorFlow Authors. All Rights Reserved.\n"
      "\"\"\"Generates a Python module containing information about the build.\"\"\"\n"
      "from __future__ import absolute_import\n"
      "from __future__ import division\n"
      "from __future__ import print_function\n\n"
      "is_rocm_build = False\n"
      "is_cuda_build = True\n"
      "cuda_version_number = '10.1'\n"
      "cudnn_version_number = '7'\n"
      "msvcp_dll_name = 'msvcp140.dll'\n"
      "nvcuda_dll_name = 'nvcuda.dll'\n"
      "cudart_dll_name = 'cudart64_101.dll'\n"
      "cudnn_dll_name = 'cudnn64_7.dll'\n");
  EXPECT_EQ(info, (Info{{"is_rocm_build", "False"},
                        {"is_cuda_build", "True"},
                        {"cuda_version_number", "10.1"},
                        {"cudnn_version_number", "7"},
                        {"msvcp_dll_name", "msvcp140.dll"},
                        {"nvcuda_dll_name", "nvcuda.dll"},
                        {"cudart_dll_name", "cudart64_101.dll"},
                        {"cudnn_dll_name", "cudnn64_7.dll"}}));
}

TEST(TfBuildInfo, SubscriptAssignmentsUpdateTheDict) {
  Info info = parse_ok("build_info = {}\nbuild_info['cuda_version'] = \"12.3\"\nbuild_info[\"x\"] = [1, 2]\n");
  EXPECT_EQ(info, (Info{{"cuda_version", "12.3"}, {"x", "1,2"}}));
}

TEST(TfBuildInfo, CodeIsRejectedNotRun) {
  auto r = parse_tf_build_info("import os\nos.system('rm -rf /')\n", "build_info.py");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kInput);
  EXPECT_EQ(r.error().message, "build_info.py: unsupported statement at line 2");
}

TEST(TfBuildInfo, CallsOtherThanOrderedDictAreRejected) {
  auto r = parse_tf_build_info("build_info = dict(x=__import__('os').getcwd())\n", "b.py");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "b.py: unsupported name '__import__' at line 1 column 21");
}

TEST(TfBuildInfo, EmptyModuleIsAnError) {
  auto r = parse_tf_build_info("\"\"\"doc\"\"\"\nimport collections\n", "b.py");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "b.py: no build_info dict and no build settings in build_info.py");
}

TEST(PyLiteral, StringsWithBothQuotesAndEscapes) {
  auto v = parse_py_literal(R"(['it\'s', "say \"hi\"", 'tab\there', r'C:\new', '\x41\u00e9\101', 'a' "b" '''c''', "line\
cont"])");
  ASSERT_TRUE(v) << v.error().message;
  ASSERT_EQ(v->items.size(), 7u);
  EXPECT_EQ(v->items[0].text, "it's");
  EXPECT_EQ(v->items[1].text, "say \"hi\"");
  EXPECT_EQ(v->items[2].text, "tab\there");
  EXPECT_EQ(v->items[3].text, "C:\\new");
  EXPECT_EQ(v->items[4].text, "A\xc3\xa9" "A");
  EXPECT_EQ(v->items[5].text, "abc");
  EXPECT_EQ(v->items[6].text, "linecont");
}

TEST(PyLiteral, LineContinuationInsideAString) {
  auto v = parse_py_literal("'line\\\ncont'");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->text, "linecont");
}

TEST(PyLiteral, NumbersTuplesAndNoneAreShownAsPythonWouldPrintThemJoined) {
  auto v = parse_py_literal("(1, -2.5, None, True, (3,), 0x1F, 1e3)");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->kind, PyValue::Kind::kTuple);
  EXPECT_EQ(v->to_display(), "1,-2.5,None,True,3,0x1F,1e3");
}

TEST(PyLiteral, ParenthesisedValueIsNotATuple) {
  auto v = parse_py_literal("('x')");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->kind, PyValue::Kind::kString);
}

TEST(PyLiteral, UnterminatedStringNamesLineAndColumn) {
  auto v = parse_py_literal("[\n  'abc", "f.py");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "f.py: unterminated string at line 2 column 3");
}

TEST(PyLiteral, DeepNestingIsRefused) {
  auto v = parse_py_literal(std::string(100000, '['));
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().kind, ErrorKind::kInput);
  EXPECT_NE(v.error().message.find("nesting deeper than 64 levels"), std::string::npos);
}

}  // namespace
}  // namespace tfgpu::binfmt
