// write_file_replacing for Windows: CREATE_NEW of a fresh name + MoveFileExW.
#include <windows.h>

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "host/file_write.h"
#include "host/win32_text.h"

namespace tfgpu {

bool is_symlink_path(const std::string& path) {
  DWORD attrs = GetFileAttributesW(widen(path).c_str());
  return attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
}

Result<void> write_file_replacing(const std::string& path, std::string_view text, WrittenFileMode) {
  size_t slash = path.find_last_of("/\\");
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::random_device rd;
  HANDLE h = INVALID_HANDLE_VALUE;
  std::string tmp;
  for (int attempt = 0; attempt < 16 && h == INVALID_HANDLE_VALUE; ++attempt) {
    tmp = fmt::format("{}.{}.{:08x}.tfgpu-tmp", dir, base, rd());
    // CREATE_NEW fails on any existing name, a link included; FILE_FLAG_OPEN_REPARSE_POINT
    // keeps it from following one.
    h = CreateFileW(widen(tmp).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                    FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    if (h == INVALID_HANDLE_VALUE && GetLastError() != ERROR_FILE_EXISTS)
      return fail(Error::io(fmt::format("cannot create {}: {}", tmp, win32_error_text(GetLastError()))));
  }
  if (h == INVALID_HANDLE_VALUE) return fail(Error::io(fmt::format("cannot create a temporary file in {}", dir)));
  size_t done = 0;
  while (done < text.size()) {
    DWORD chunk = static_cast<DWORD>(std::min<size_t>(text.size() - done, 1u << 30));
    DWORD n = 0;
    if (!WriteFile(h, text.data() + done, chunk, &n, nullptr) || n == 0) {
      DWORD e = GetLastError();
      CloseHandle(h);
      DeleteFileW(widen(tmp).c_str());
      return fail(Error::io(fmt::format("cannot write {}: {}", path, win32_error_text(e))));
    }
    done += n;
  }
  CloseHandle(h);
  // MoveFileExW replaces a link at `path` itself, not its target.
  if (!MoveFileExW(widen(tmp).c_str(), widen(path).c_str(), MOVEFILE_REPLACE_EXISTING)) {
    DWORD e = GetLastError();
    DeleteFileW(widen(tmp).c_str());
    return fail(Error::io(fmt::format("cannot write {}: {}", path, win32_error_text(e))));
  }
  return {};
}

}  // namespace tfgpu
