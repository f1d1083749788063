#include "host/dynamic_library.h"

#include <fmt/format.h>

#include "util/strings.h"

namespace tfgpu {

Result<DynamicLibrary> DynamicLibrary::open(std::initializer_list<std::string> candidates, LoadOutcome* outcome) {
  return open(std::vector<std::string>(candidates), outcome);
}

void* SymbolBinder::find(std::initializer_list<const char*> names, Need need) {
  for (const char* n : names) {
    if (void* p = lib_.symbol(n)) return p;
  }
  if (need == Need::kRequired && names.size() > 0) missing_.push_back(*names.begin());
  return nullptr;
}

Result<void> SymbolBinder::finish() const {
  if (missing_.empty()) return {};
  return fail(Error::io(fmt::format("{} lacks required symbols: {}", lib_.path(), join(missing_, ", "))));
}

}  // namespace tfgpu
