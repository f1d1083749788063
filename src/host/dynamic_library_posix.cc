// dlopen-based DynamicLibrary for Linux.
#include <dlfcn.h>
#include <link.h>

#include <utility>

#include <fmt/format.h>

#include "host/dynamic_library.h"
#include "util/strings.h"

namespace tfgpu {

DynamicLibrary::~DynamicLibrary() {
  if (handle_) ::dlclose(handle_);
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_) ::dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Result<DynamicLibrary> DynamicLibrary::open(const std::vector<std::string>& candidates, LoadOutcome* outcome) {
  LoadOutcome local;
  LoadOutcome& o = outcome ? *outcome : local;
  for (const auto& name : candidates) {
    o.tried.push_back(name);
    ::dlerror();
    void* h = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = ::dlerror();
      o.errors.push_back(e ? e : "unknown dlopen error");
      continue;
    }
    DynamicLibrary lib;
    lib.handle_ = h;
    lib.path_ = name;
    struct link_map* map = nullptr;
    if (::dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) lib.path_ = map->l_name;
    o.opened = name;
    o.path = lib.path_;
    return lib;
  }
  return fail(Error::io(fmt::format("cannot load {}: {}", join(o.tried, " or "),
                                    o.errors.empty() ? "no candidates" : o.errors.back())));
}

void* DynamicLibrary::symbol(const char* name) const {
  if (!handle_) return nullptr;
  return ::dlsym(handle_, name);
}

}  // namespace tfgpu
