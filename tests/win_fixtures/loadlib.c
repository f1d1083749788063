/* Differential-test helper: reproduces one DLL search in a fresh process.
   Usage: tfgpu_wfx_loadlib --out FILE [--path PATH] [--set-dll-dir DIR]
                            [--add-dll-dir DIR]... [--flags HEX] NAME
   Writes "OK <GetModuleFileNameW of the loaded module>" or "FAIL <GetLastError>"
   to FILE as UTF-8 (a file, not stdout, so the parent needs no pipe handling). */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static int write_result(const wchar_t* out, const char* text) {
  FILE* f = _wfopen(out, L"wb");
  if (!f) return 3;
  fputs(text, f);
  fclose(f);
  return 0;
}

int wmain(int argc, wchar_t** argv) {
  const wchar_t* out = NULL;
  const wchar_t* name = NULL;
  DWORD flags = 0;
  char buf[4 * MAX_PATH + 64];
  for (int i = 1; i < argc; ++i) {
    if (i + 1 < argc && wcscmp(argv[i], L"--out") == 0) {
      out = argv[++i];
    } else if (i + 1 < argc && wcscmp(argv[i], L"--path") == 0) {
      SetEnvironmentVariableW(L"PATH", argv[++i]);
    } else if (i + 1 < argc && wcscmp(argv[i], L"--set-dll-dir") == 0) {
      if (!SetDllDirectoryW(argv[++i])) return 4;
    } else if (i + 1 < argc && wcscmp(argv[i], L"--add-dll-dir") == 0) {
      if (!AddDllDirectory(argv[++i])) return 5;
    } else if (i + 1 < argc && wcscmp(argv[i], L"--flags") == 0) {
      flags = (DWORD)wcstoul(argv[++i], NULL, 16);
    } else {
      name = argv[i];
    }
  }
  if (!out || !name) return 2;
  HMODULE h = LoadLibraryExW(name, NULL, flags);
  if (!h) {
    snprintf(buf, sizeof buf, "FAIL %lu", (unsigned long)GetLastError());
    return write_result(out, buf);
  }
  wchar_t path[MAX_PATH * 2];
  DWORD n = GetModuleFileNameW(h, path, MAX_PATH * 2);
  strcpy(buf, "OK ");
  int len = WideCharToMultiByte(CP_UTF8, 0, path, (int)n, buf + 3, (int)sizeof buf - 4, NULL, NULL);
  buf[3 + (len > 0 ? len : 0)] = 0; /* an explicit length is not terminated for us */
  return write_result(out, buf);
}
