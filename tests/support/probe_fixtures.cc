#include "support/probe_fixtures.h"

#include "support/elf_builder.h"

namespace tfgpu::test {

std::string elf64_stub() {
  test::ElfBuilder b;
  b.type = 2;  // ET_EXEC, like an interpreter binary
  return b.build();
}

std::string elf64_shared_object(const std::string& soname) {
  test::ElfBuilder b;
  b.soname = soname;
  return b.build();
}

void add_dist(FakeHost& host, const std::string& site, const std::string& name, const std::string& version) {
  std::string dir_name = name;
  for (char& c : dir_name)
    if (c == '-') c = '_';
  host.add_file(site + "/" + dir_name + "-" + version + ".dist-info/METADATA",
                "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version +
                    "\nSummary: test fixture\nRequires-Python: >=3.9\n\nLong description.\n");
}

void add_tensorflow(FakeHost& host, const std::string& site, const std::string& dist, const std::string& version,
                    const std::string& build_info_py) {
  add_dist(host, site, dist, version);
  host.add_file(site + "/tensorflow/__init__.py", "# tensorflow\n");
  host.add_file(site + "/tensorflow/python/platform/build_info.py", build_info_py);
}

const char* const kLinuxBuildInfo221 =
    "\n"
    "# Copyright 2020 The TensorFlow Authors. All Rights Reserved.\n"
    "#\n"
    "# Licensed under the Apache License, Version 2.0 (the \"License\");\n"
    "# you may not use this file except in compliance with the License.\n"
    "# You may obtain a copy of the License at\n"
    "#\n"
    "#     http://www.apache.org/licenses/LICENSE-2.0\n"
    "#\n"
    "# Unless required by applicable law or agreed to in writing, software\n"
    "# distributed under the License is distributed on an \"AS IS\" BASIS,\n"
    "# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n"
    "# See the License for the specific language governing permissions and\n"
    "# limitations under the License.\n"
    "# ==============================================================================\n"
    "\"\"\"Auto-generated module providing information about the build.\"\"\"\n"
    "import collections\n"
    "\n"
    "build_info = collections.OrderedDict([('cpu_compiler', 'clang'), ('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), ('cuda_version', '12.5.1'), ('cudnn_version', '9'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False)])\n";

}  // namespace tfgpu::test
