#pragma once
// A move-only handle on a run-time loaded library (dlopen / LoadLibraryExW) and a
// binder that fills a typed function table, one line per entry point. CUDA, NVML
// and cuBLAS are never linked: they are opened through this, so one binary runs on
// machines with and without a GPU. The load outcome is itself a reportable fact.

#include <initializer_list>
#include <string>
#include <vector>

#include "util/error.h"

namespace tfgpu {

// What happened when a library was opened: names tried, file opened, verbatim errors.
struct LoadOutcome {
  std::vector<std::string> tried;   // candidate names/paths in order
  std::vector<std::string> errors;  // verbatim dlerror()/GetLastError() text per failed try
  std::string opened;               // the candidate that loaded ("" if none)
  std::string path;                 // the file the loader actually mapped, when known
};

class DynamicLibrary {
 public:
  DynamicLibrary() = default;
  ~DynamicLibrary();
  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  // Tries each candidate in order (bare names use the platform loader's search;
  // on Windows, bare names are searched in System32 only, never the current dir).
  // Fails with the full outcome text when none loads.
  static Result<DynamicLibrary> open(std::initializer_list<std::string> candidates, LoadOutcome* outcome = nullptr);
  static Result<DynamicLibrary> open(const std::vector<std::string>& candidates, LoadOutcome* outcome = nullptr);

  bool loaded() const { return handle_ != nullptr; }
  void* symbol(const char* name) const;
  const std::string& path() const { return path_; }

 private:
  void* handle_ = nullptr;
  std::string path_;
};

// Binds entry points: `binder.bind(fn.cuInit, {"cuInit"})`,
// `binder.bind(fn.nvmlInit, {"nvmlInit_v2", "nvmlInit"})` (newest versioned name first).
// Missing required symbols are collected, not thrown, and reported once via finish().
class SymbolBinder {
 public:
  enum class Need { kRequired, kOptional };
  explicit SymbolBinder(const DynamicLibrary& lib) : lib_(lib) {}

  template <typename Fn>
  void bind(Fn*& slot, std::initializer_list<const char*> names, Need need = Need::kRequired) {
    slot = reinterpret_cast<Fn*>(find(names, need));
  }
  // Error naming every missing required symbol, or success.
  Result<void> finish() const;

 private:
  void* find(std::initializer_list<const char*> names, Need need);
  const DynamicLibrary& lib_;
  std::vector<std::string> missing_;
};

}  // namespace tfgpu
