// LoadLibraryExW-based DynamicLibrary for Windows. Bare names are searched in
// System32 only (LOAD_LIBRARY_SEARCH_SYSTEM32), never the current directory, so a
// planted nvml.dll next to the user's working directory cannot be picked up; full
// paths load with LOAD_WITH_ALTERED_SEARCH_PATH so their own dependencies resolve
// next to them.
#include <windows.h>

#include <utility>

#include <fmt/format.h>

#include "host/dynamic_library.h"
#include "host/win32_text.h"
#include "util/strings.h"

namespace tfgpu {

DynamicLibrary::~DynamicLibrary() {
  if (handle_) FreeLibrary(static_cast<HMODULE>(handle_));
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_) FreeLibrary(static_cast<HMODULE>(handle_));
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
    bool has_dir = name.find('\\') != std::string::npos || name.find('/') != std::string::npos;
    DWORD flags = has_dir ? LOAD_WITH_ALTERED_SEARCH_PATH : LOAD_LIBRARY_SEARCH_SYSTEM32;
    HMODULE h = LoadLibraryExW(widen(name).c_str(), nullptr, flags);
    if (!h) {
      o.errors.push_back(win32_error_text(GetLastError()));
      continue;
    }
    DynamicLibrary lib;
    lib.handle_ = h;
    wchar_t buf[32768];
    DWORD n = GetModuleFileNameW(h, buf, static_cast<DWORD>(std::size(buf)));
    lib.path_ = n ? narrow(std::wstring_view(buf, n)) : name;
    o.opened = name;
    o.path = lib.path_;
    return lib;
  }
  return fail(Error::io(fmt::format("cannot load {}: {}", join(o.tried, " or "),
                                    o.errors.empty() ? "no candidates" : o.errors.back())));
}

void* DynamicLibrary::symbol(const char* name) const {
  if (!handle_) return nullptr;
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(handle_), name));
}

}  // namespace tfgpu
