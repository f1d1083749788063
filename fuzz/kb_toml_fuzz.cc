// libFuzzer target: `--kb DIR`. The input replaces one of the knowledge base's TOML files
// (chosen by its first byte) in an otherwise intact KB directory, which every KB reader
// then loads: the tables (kb::load_directory), the log signatures and the packaging
// table. A stranger's --kb DIR may be refused, never crash tfgpu (toml++ 3.3.0 has
// crashes of its own: util/toml_guard.h stands in front of it).
#include <cstddef>
#include <cstdint>
#include <string>

#include "explain/signatures.h"
#include "host/fake_host.h"
#include "kb/embedded.h"
#include "kb/kb.h"
#include "plan/packaging.h"
#include "util/toml_guard.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfgpu;
  if (size == 0) return 0;
  auto files = embedded_kb_files();
  size_t pick = data[0] % files.size();
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  FakeHost host;
  for (size_t i = 0; i < files.size(); ++i)
    host.add_file("/kb/" + std::string(files[i].name), i == pick ? text : std::string(files[i].text));
  (void)guard_toml(text, "fuzz.toml");
  (void)kb::load_for_command(host, "/kb");
  (void)explain::load_signatures(host, "/kb");
  (void)plan::load_packaging(host, "/kb");
  return 0;
}
