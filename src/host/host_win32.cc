// The live Windows machine behind the Host seam. Every string crosses the API as
// UTF-16 and is kept as UTF-8 inside tfgpu.
// clang-format off
#include <windows.h>
#include <io.h>
#include <shellapi.h>
#include <setupapi.h>
// clang-format on

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "host/cpuid.h"
#include "host/host.h"
#include "host/terminal_size.h"
#include "host/machine_facts.h"
#include "host/win32_text.h"
#include "util/strings.h"

namespace tfgpu {
namespace {

FileInfo info_from_attributes(const WIN32_FILE_ATTRIBUTE_DATA& a) {
  FileInfo info;
  info.type = (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? FileType::kDirectory : FileType::kRegular;
  info.size = (static_cast<uint64_t>(a.nFileSizeHigh) << 32) | a.nFileSizeLow;
  return info;
}

// "HKLM\\SOFTWARE\\..." -> root handle + subkey.
bool split_registry_key(const std::string& key, HKEY* root, std::wstring* sub) {
  size_t slash = key.find('\\');
  std::string head = slash == std::string::npos ? key : key.substr(0, slash);
  std::string rest = slash == std::string::npos ? "" : key.substr(slash + 1);
  if (iequals(head, "HKLM") || iequals(head, "HKEY_LOCAL_MACHINE")) {
    *root = HKEY_LOCAL_MACHINE;
  } else if (iequals(head, "HKCU") || iequals(head, "HKEY_CURRENT_USER")) {
    *root = HKEY_CURRENT_USER;
  } else {
    return false;
  }
  *sub = widen(rest);
  return true;
}

// Opens `key` ("HKLM\\SOFTWARE\\...") for reading in the 64-bit view; the caller closes it.
Result<HKEY> open_registry_key(const std::string& key) {
  HKEY root;
  std::wstring sub;
  if (!split_registry_key(key, &root, &sub)) return fail(Error::input(fmt::format("unknown registry root in {}", key)));
  HKEY hk;
  if (RegOpenKeyExW(root, sub.c_str(), 0, KEY_READ | KEY_WOW64_64KEY, &hk) != ERROR_SUCCESS) {
    return fail(Error::not_found(fmt::format("registry key {} not found", key)));
  }
  return hk;
}

// Reads one pipe to the end on its own thread, so a child filling stderr cannot
// block on a full pipe while we wait on stdout.
void drain(HANDLE pipe, std::string* sink, size_t max) {
  char buf[65536];
  DWORD n = 0;
  while (ReadFile(pipe, buf, sizeof buf, &n, nullptr) && n > 0) {
    if (sink->size() < max) sink->append(buf, std::min<size_t>(n, max - sink->size()));
  }
}

// Windows command-line quoting (the rules CommandLineToArgvW undoes).
std::wstring quote_arg(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
    } else if (c == L'"') {
      out.append(backslashes * 2 + 1, L'\\');
      out += L'"';
      backslashes = 0;
      continue;
    } else {
      backslashes = 0;
    }
    out += c;
  }
  out.append(backslashes, L'\\');
  out += L'"';
  return out;
}

// One SetupAPI device property as UTF-16 text; REG_MULTI_SZ keeps its inner NULs.
std::wstring device_property(HDEVINFO set, SP_DEVINFO_DATA* dev, DWORD property) {
  DWORD type = 0;
  DWORD needed = 0;
  SetupDiGetDeviceRegistryPropertyW(set, dev, property, &type, nullptr, 0, &needed);
  if (needed == 0 || (type != REG_SZ && type != REG_MULTI_SZ && type != REG_EXPAND_SZ)) return L"";
  std::wstring buf(needed / sizeof(wchar_t) + 1, L'\0');
  if (!SetupDiGetDeviceRegistryPropertyW(set, dev, property, &type, reinterpret_cast<BYTE*>(buf.data()),
                                         static_cast<DWORD>(buf.size() * sizeof(wchar_t)), &needed))
    return L"";
  buf.resize(std::min<size_t>(buf.size(), needed / sizeof(wchar_t)));
  return buf;
}

std::vector<std::string> multi_sz(const std::wstring& w) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < w.size()) {
    size_t end = w.find(L'\0', start);
    if (end == std::wstring::npos) end = w.size();
    if (end > start) out.push_back(narrow(std::wstring_view(w).substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

std::string single_sz(const std::wstring& w) {
  std::vector<std::string> parts = multi_sz(w);
  return parts.empty() ? std::string() : parts.front();
}


// One open handle read with ReadFile at an OVERLAPPED offset (a header walk touches a
// few KiB of a DLL of any size).
class HandleRangeReader final : public RangeReader {
 public:
  HandleRangeReader(HANDLE h, std::string path, uint64_t size) : h_(h), path_(std::move(path)), size_(size) {}
  ~HandleRangeReader() override { CloseHandle(h_); }
  HandleRangeReader(const HandleRangeReader&) = delete;
  HandleRangeReader& operator=(const HandleRangeReader&) = delete;
  uint64_t size() const override { return size_; }

  Result<std::string> read(uint64_t offset, uint64_t length) override {
    std::string data;
    if (offset >= size_) return data;
    data.resize(static_cast<size_t>(std::min<uint64_t>(length, size_ - offset)));
    size_t done = 0;
    while (done < data.size()) {
      OVERLAPPED ov{};
      uint64_t at = offset + done;
      ov.Offset = static_cast<DWORD>(at & 0xffffffffu);
      ov.OffsetHigh = static_cast<DWORD>(at >> 32);
      DWORD want = static_cast<DWORD>(std::min<size_t>(data.size() - done, 1u << 30));
      DWORD n = 0;
      if (!ReadFile(h_, data.data() + done, want, &n, &ov)) {
        DWORD err = GetLastError();
        if (err == ERROR_HANDLE_EOF) break;
        return fail(Error::io(fmt::format("cannot read {}: {}", path_, win32_error_text(err))));
      }
      if (n == 0) break;
      done += n;
    }
    data.resize(done);
    return data;
  }

 private:
  HANDLE h_;
  std::string path_;
  uint64_t size_;
};

class Win32Host final : public Host {
 public:
  Platform platform() const override { return Platform::kWindows; }

  OsRelease os_release() const override {
    OsRelease r;
    r.kernel_name = "Windows";
    // GetVersionEx lies to unmanifested programs; RtlGetVersion does not.
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
    if (HMODULE ntdll = GetModuleHandleW(L"ntdll.dll")) {
      auto fn = reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")));
      OSVERSIONINFOW v{};
      v.dwOSVersionInfoSize = sizeof v;
      if (fn && fn(&v) == 0) r.kernel_release = fmt::format("{}.{}.{}", v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber);
    }
    SYSTEM_INFO si{};
    GetNativeSystemInfo(&si);
    switch (si.wProcessorArchitecture) {
      case PROCESSOR_ARCHITECTURE_AMD64:
        r.machine = "x86_64";
        break;
      case PROCESSOR_ARCHITECTURE_ARM64:
        r.machine = "aarch64";
        break;
      case PROCESSOR_ARCHITECTURE_INTEL:
        r.machine = "x86";
        break;
      default:
        r.machine = "unknown";
    }
    wchar_t name[256] = {};
    DWORD n = 256;
    if (GetComputerNameExW(ComputerNameDnsHostname, name, &n)) r.node_name = narrow(std::wstring_view(name, n));
    return r;
  }

  Result<void> write_file_atomic(const std::string& path, std::string_view contents) const override {
    // A temporary file next to the target (same volume), flushed, then MoveFileExW with
    // MOVEFILE_REPLACE_EXISTING: readers see the old file or the whole new one.
    std::wstring target = widen(path);
    std::wstring tmp = target + widen(fmt::format(".tmp.{}.{}", GetCurrentProcessId(), GetTickCount64()));
    HANDLE h = CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE)
      return fail(Error::io(fmt::format("cannot write {}: {}", path, win32_error_text(GetLastError()))));
    auto give_up = [&](DWORD err) {
      if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
      DeleteFileW(tmp.c_str());
      return fail(Error::io(fmt::format("cannot write {}: {}", path, win32_error_text(err))));
    };
    for (size_t done = 0; done < contents.size();) {
      DWORD chunk = static_cast<DWORD>(std::min<size_t>(contents.size() - done, 1u << 30));
      DWORD n = 0;
      if (!WriteFile(h, contents.data() + done, chunk, &n, nullptr) || n == 0) return give_up(GetLastError());
      done += n;
    }
    if (!FlushFileBuffers(h)) return give_up(GetLastError());
    CloseHandle(h);
    h = INVALID_HANDLE_VALUE;
    if (!MoveFileExW(tmp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
      return give_up(GetLastError());
    return {};
  }

  std::optional<std::string> env(const std::string& name) const override {
    std::wstring wname = widen(name);
    DWORD n = GetEnvironmentVariableW(wname.c_str(), nullptr, 0);
    if (n == 0) return std::nullopt;
    std::wstring buf(n, L'\0');
    n = GetEnvironmentVariableW(wname.c_str(), buf.data(), n);
    buf.resize(n);
    return narrow(buf);
  }

  std::map<std::string, std::string> environment() const override {
    std::map<std::string, std::string> out;
    wchar_t* block = GetEnvironmentStringsW();
    if (!block) return out;
    for (wchar_t* p = block; *p; p += wcslen(p) + 1) {
      std::wstring_view kv(p);
      size_t eq = kv.find(L'=', 1);  // entries like "=C:=C:\\" start with '='
      if (eq == std::wstring_view::npos || kv[0] == L'=') continue;
      out.emplace(narrow(kv.substr(0, eq)), narrow(kv.substr(eq + 1)));
    }
    FreeEnvironmentStringsW(block);
    return out;
  }

  Result<std::string> read_file(const std::string& path, uint64_t max_bytes) const override {
    HANDLE h = CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      return fail(Error::io(fmt::format("cannot open {}: {}", path, win32_error_text(GetLastError()))));
    }
    std::string data;
    char buf[65536];
    DWORD n = 0;
    while (ReadFile(h, buf, sizeof buf, &n, nullptr) && n > 0) {
      if (data.size() + n > max_bytes) {
        CloseHandle(h);
        return fail(Error::io(fmt::format("{} is larger than {} bytes", path, max_bytes)));
      }
      data.append(buf, n);
    }
    CloseHandle(h);
    return data;
  }

  Result<std::string> read_file_range(const std::string& path, uint64_t offset, uint64_t length) const override {
    auto r = open_ranges(path);
    if (!r) return fail(r.error());
    return (*r)->read(offset, length);
  }

  Result<std::unique_ptr<RangeReader>> open_ranges(const std::string& path) const override {
    HANDLE h = CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      return fail(Error::io(fmt::format("cannot open {}: {}", path, win32_error_text(GetLastError()))));
    }
    LARGE_INTEGER size{};
    if (!GetFileSizeEx(h, &size)) {
      DWORD err = GetLastError();
      CloseHandle(h);
      return fail(Error::io(fmt::format("cannot read {}: {}", path, win32_error_text(err))));
    }
    return std::unique_ptr<RangeReader>(std::make_unique<HandleRangeReader>(h, path, static_cast<uint64_t>(size.QuadPart)));
  }

  Result<std::vector<DirEntry>> list_dir(const std::string& path) const override {
    WIN32_FIND_DATAW fd;
    std::wstring pattern = widen(path);
    if (!pattern.empty() && pattern.back() != L'\\' && pattern.back() != L'/') pattern += L'\\';
    pattern += L'*';
    HANDLE h = FindFirstFileW(pattern.c_str(), &fd);
    if (h == INVALID_HANDLE_VALUE) {
      return fail(Error::io(fmt::format("cannot list {}: {}", path, win32_error_text(GetLastError()))));
    }
    std::vector<DirEntry> out;
    do {
      std::string name = narrow(fd.cFileName);
      if (name == "." || name == "..") continue;
      FileType type = (fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ? FileType::kSymlink
                      : (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)   ? FileType::kDirectory
                                                                           : FileType::kRegular;
      out.push_back({name, type});
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    return out;
  }

  std::optional<FileInfo> stat(const std::string& path) const override {
    // Follow reparse points by opening the target.
    HANDLE h = CreateFileW(widen(path).c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return std::nullopt;
    BY_HANDLE_FILE_INFORMATION bh{};
    bool ok = GetFileInformationByHandle(h, &bh);
    CloseHandle(h);
    if (!ok) return std::nullopt;
    FileInfo info;
    info.type = (bh.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? FileType::kDirectory : FileType::kRegular;
    info.size = (static_cast<uint64_t>(bh.nFileSizeHigh) << 32) | bh.nFileSizeLow;
    return info;
  }

  std::optional<FileInfo> lstat(const std::string& path) const override {
    WIN32_FILE_ATTRIBUTE_DATA a{};
    if (!GetFileAttributesExW(widen(path).c_str(), GetFileExInfoStandard, &a)) return std::nullopt;
    FileInfo info = info_from_attributes(a);
    if (a.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
      info.type = FileType::kSymlink;
      if (auto target = canonical(path)) info.link_target = *target;
    }
    return info;
  }

  Result<std::string> canonical(const std::string& path) const override {
    HANDLE h = CreateFileW(widen(path).c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      return fail(Error::io(fmt::format("cannot resolve {}: {}", path, win32_error_text(GetLastError()))));
    }
    wchar_t buf[32768];
    DWORD n = GetFinalPathNameByHandleW(h, buf, static_cast<DWORD>(std::size(buf)), FILE_NAME_NORMALIZED);
    CloseHandle(h);
    if (n == 0 || n >= std::size(buf)) return fail(Error::io(fmt::format("cannot resolve {}", path)));
    std::string out = narrow(std::wstring_view(buf, n));
    if (starts_with(out, "\\\\?\\UNC\\")) {
      out = "\\\\" + out.substr(8);
    } else if (starts_with(out, "\\\\?\\")) {
      out = out.substr(4);
    }
    return out;
  }

  std::string current_dir() const override {
    wchar_t buf[32768];
    DWORD n = GetCurrentDirectoryW(static_cast<DWORD>(std::size(buf)), buf);
    return n ? narrow(std::wstring_view(buf, n)) : std::string(".");
  }

  std::string self_exe() const override {
    wchar_t buf[32768];
    DWORD n = GetModuleFileNameW(nullptr, buf, static_cast<DWORD>(std::size(buf)));
    return n ? narrow(std::wstring_view(buf, n)) : std::string("tfgpu.exe");
  }

  Result<std::string> registry_value(const std::string& key, const std::string& value) const override {
    auto opened = open_registry_key(key);
    if (!opened) return fail(opened.error());
    HKEY hk = *opened;
    std::wstring wvalue = widen(value);
    DWORD type = 0;
    DWORD size = 0;
    LONG rc = RegQueryValueExW(hk, wvalue.c_str(), nullptr, &type, nullptr, &size);
    if (rc != ERROR_SUCCESS) {
      RegCloseKey(hk);
      return fail(Error::not_found(fmt::format("registry value {}\\{} not found", key, value)));
    }
    std::string data(size, '\0');
    rc = RegQueryValueExW(hk, wvalue.c_str(), nullptr, &type, reinterpret_cast<BYTE*>(data.data()), &size);
    RegCloseKey(hk);
    if (rc != ERROR_SUCCESS) return fail(Error::io(fmt::format("cannot read {}\\{}: {}", key, value, win32_error_text(rc))));
    if (type == REG_DWORD && size >= 4) {
      DWORD d;
      memcpy(&d, data.data(), 4);
      return std::to_string(d);
    }
    if (type == REG_SZ || type == REG_EXPAND_SZ) {
      std::wstring w(reinterpret_cast<const wchar_t*>(data.data()), size / sizeof(wchar_t));
      while (!w.empty() && w.back() == L'\0') w.pop_back();
      return narrow(w);
    }
    return fail(Error::input(fmt::format("registry value {}\\{} has an unsupported type {}", key, value, type)));
  }

  Result<std::vector<std::string>> registry_subkeys(const std::string& key) const override {
    auto opened = open_registry_key(key);
    if (!opened) return fail(opened.error());
    HKEY hk = *opened;
    std::vector<std::string> out;
    wchar_t name[256];
    for (DWORD i = 0;; ++i) {
      DWORD len = static_cast<DWORD>(std::size(name));
      if (RegEnumKeyExW(hk, i, name, &len, nullptr, nullptr, nullptr, nullptr) != ERROR_SUCCESS) break;
      out.push_back(narrow(std::wstring_view(name, len)));
    }
    RegCloseKey(hk);
    return out;
  }

  Result<std::vector<RegistryValue>> registry_values(const std::string& key) const override {
    auto opened = open_registry_key(key);
    if (!opened) return fail(opened.error());
    HKEY hk = *opened;
    DWORD max_name = 0;
    DWORD max_data = 0;
    RegQueryInfoKeyW(hk, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &max_name, &max_data, nullptr, nullptr);
    std::vector<RegistryValue> out;
    std::wstring name(max_name + 2, L'\0');
    std::string data(max_data + 4, '\0');
    for (DWORD i = 0;; ++i) {
      DWORD name_len = static_cast<DWORD>(name.size());
      DWORD data_len = static_cast<DWORD>(data.size());
      DWORD type = 0;
      LONG rc = RegEnumValueW(hk, i, name.data(), &name_len, nullptr, &type, reinterpret_cast<BYTE*>(data.data()), &data_len);
      if (rc == ERROR_NO_MORE_ITEMS) break;
      if (rc == ERROR_MORE_DATA) {  // the key grew since RegQueryInfoKeyW: grow and retry this index
        name.resize(name.size() * 2 + 256);
        data.resize(data.size() * 2 + 1024);
        --i;
        continue;
      }
      if (rc != ERROR_SUCCESS) {
        RegCloseKey(hk);
        return fail(Error::io(fmt::format("cannot enumerate {}: {}", key, win32_error_text(rc))));
      }
      RegistryValue v;
      v.name = narrow(std::wstring_view(name.data(), name_len));
      if (type == REG_DWORD && data_len >= 4) {
        DWORD d;
        memcpy(&d, data.data(), 4);
        v.data = std::to_string(d);
      } else if (type == REG_SZ || type == REG_EXPAND_SZ) {
        std::wstring w(reinterpret_cast<const wchar_t*>(data.data()), data_len / sizeof(wchar_t));
        while (!w.empty() && w.back() == L'\0') w.pop_back();
        v.data = narrow(w);
      } else {
        continue;  // binary / multi-string values: not text
      }
      out.push_back(std::move(v));
    }
    RegCloseKey(hk);
    return out;
  }

  // Every present device whose hardware id is a PCI one, across all setup classes: a GPU
  // with no driver at all sits in "Other devices" (no class), not in the Display class.
  Result<std::vector<PciDevice>> pci_devices() const override {
    HDEVINFO set = SetupDiGetClassDevsW(nullptr, nullptr, nullptr, DIGCF_ALLCLASSES | DIGCF_PRESENT);
    if (set == INVALID_HANDLE_VALUE) {
      return fail(Error::io(fmt::format("SetupDiGetClassDevs: {}", win32_error_text(GetLastError()))));
    }
    std::vector<PciDevice> out;
    SP_DEVINFO_DATA dev{};
    dev.cbSize = sizeof dev;
    for (DWORD i = 0; SetupDiEnumDeviceInfo(set, i, &dev); ++i) {
      PciDevice d;
      d.hardware_ids = multi_sz(device_property(set, &dev, SPDRP_HARDWAREID));
      if (std::none_of(d.hardware_ids.begin(), d.hardware_ids.end(), [](const std::string& id) { return iequals(std::string_view(id).substr(0, 4), "PCI\\"); }))
        continue;
      d.compatible_ids = multi_sz(device_property(set, &dev, SPDRP_COMPATIBLEIDS));
      d.description = single_sz(device_property(set, &dev, SPDRP_DEVICEDESC));
      d.location = single_sz(device_property(set, &dev, SPDRP_LOCATION_INFORMATION));
      d.device_class = single_sz(device_property(set, &dev, SPDRP_CLASS));
      out.push_back(std::move(d));
    }
    SetupDiDestroyDeviceInfoList(set);
    return out;
  }

  Result<CpuFeatures> cpu_features() const override { return read_cpuid(); }

  Result<ProcessResult> run(const ProcessSpec& spec) const override;
};

Result<ProcessResult> Win32Host::run(const ProcessSpec& spec) const {
  if (spec.argv.empty()) return fail(Error::internal("run: empty argv"));
  std::wstring cmdline;
  for (size_t i = 0; i < spec.argv.size(); ++i) {
    if (i) cmdline += L' ';
    cmdline += quote_arg(widen(spec.argv[i]));
  }
  // Environment block: sorted "k=v\0...\0\0", with overrides applied.
  std::map<std::string, std::string> env = environment();
  for (const auto& [k, v] : spec.env_overrides) {
    for (auto it = env.begin(); it != env.end();) {
      it = iequals(it->first, k) ? env.erase(it) : std::next(it);
    }
    if (!v.empty()) env[k] = v;
  }
  std::wstring block;
  for (const auto& [k, v] : env) block += widen(k + "=" + v) + L'\0';
  block += L'\0';

  // The child inherits every inheritable handle of this process: while one thread's pipe
  // ends are inheritable, no other thread may create a child (the probe runs children from
  // two threads), else that child holds our pipe open and delays our EOF.
  static std::mutex spawn_mutex;
  std::unique_lock spawn_lock(spawn_mutex);
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
  HANDLE out_r, out_w, err_r, err_w, in_r, in_w;
  if (!CreatePipe(&out_r, &out_w, &sa, 0) || !CreatePipe(&err_r, &err_w, &sa, 0) || !CreatePipe(&in_r, &in_w, &sa, 0)) {
    return fail(Error::io(fmt::format("CreatePipe: {}", win32_error_text(GetLastError()))));
  }
  SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);
  SetHandleInformation(err_r, HANDLE_FLAG_INHERIT, 0);
  SetHandleInformation(in_w, HANDLE_FLAG_INHERIT, 0);

  STARTUPINFOW si{};
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = in_r;
  si.hStdOutput = out_w;
  si.hStdError = err_w;
  PROCESS_INFORMATION pi{};
  // A job object so a timeout also ends whatever the child started.
  HANDLE job = CreateJobObjectW(nullptr, nullptr);
  BOOL ok = CreateProcessW(nullptr, cmdline.data(), nullptr, nullptr, TRUE,
                           CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW | CREATE_SUSPENDED, block.data(), nullptr,
                           &si, &pi);
  DWORD create_error = GetLastError();
  CloseHandle(out_w);
  CloseHandle(err_w);
  CloseHandle(in_r);
  spawn_lock.unlock();
  if (!ok) {
    CloseHandle(out_r);
    CloseHandle(err_r);
    CloseHandle(in_w);
    if (job) CloseHandle(job);
    return fail(Error::io(fmt::format("cannot run {}: {}", spec.argv[0], win32_error_text(create_error))));
  }
  if (job) AssignProcessToJobObject(job, pi.hProcess);
  ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);

  ProcessResult result;
  std::thread out_thread(drain, out_r, &result.out, spec.max_output);
  std::thread err_thread(drain, err_r, &result.err, spec.max_output);
  if (!spec.stdin_text.empty()) {
    DWORD written = 0;
    WriteFile(in_w, spec.stdin_text.data(), static_cast<DWORD>(spec.stdin_text.size()), &written, nullptr);
  }
  CloseHandle(in_w);

  DWORD wait = WaitForSingleObject(pi.hProcess, static_cast<DWORD>(spec.timeout.count()));
  if (wait == WAIT_TIMEOUT) {
    result.timed_out = true;
    if (job) TerminateJobObject(job, 1);
    TerminateProcess(pi.hProcess, 1);
    WaitForSingleObject(pi.hProcess, 5000);
  } else {
    DWORD code = 0;
    GetExitCodeProcess(pi.hProcess, &code);
    // NTSTATUS exception codes (0xC0000005 access violation, ...) mean a crash.
    if ((code & 0xF0000000u) == 0xC0000000u) {
      result.signal = static_cast<int>(code);
    } else {
      result.exited = true;
      result.exit_code = static_cast<int>(code);
    }
  }
  if (job) CloseHandle(job);
  out_thread.join();
  err_thread.join();
  CloseHandle(out_r);
  CloseHandle(err_r);
  CloseHandle(pi.hProcess);
  return result;
}

}  // namespace

std::unique_ptr<Host> make_system_host() { return std::make_unique<Win32Host>(); }

std::vector<std::string> command_line_arguments(int, char**) {
  SetConsoleOutputCP(CP_UTF8);
  std::vector<std::string> out;
  int n = 0;
  wchar_t** wargv = CommandLineToArgvW(GetCommandLineW(), &n);
  if (!wargv) return out;
  for (int i = 1; i < n; ++i) out.push_back(narrow(wargv[i]));
  LocalFree(wargv);
  return out;
}

bool stdout_is_terminal() { return _isatty(1) != 0; }

std::optional<int> stdout_terminal_columns() {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (_isatty(1) == 0 || !GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &info)) return std::nullopt;
  int cols = info.srWindow.Right - info.srWindow.Left + 1;
  return cols > 0 ? std::optional<int>(cols) : std::nullopt;
}
bool stdin_is_terminal() { return _isatty(0) != 0; }

}  // namespace tfgpu
