// embedded_kb_blob() for kb_compile itself, and for cross builds that cannot run it:
// no compiled copy, so load_embedded() parses the embedded TOML.
#include "kb/kb_blob.h"

namespace tfgpu::kb {
std::string_view embedded_kb_blob() { return {}; }
}  // namespace tfgpu::kb
