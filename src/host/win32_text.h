#pragma once
// UTF-8 <-> UTF-16 for the Win32 API (tfgpu keeps every string in UTF-8).
#include <string>
#include <string_view>

namespace tfgpu {

std::wstring widen(std::string_view utf8);
std::string narrow(std::wstring_view utf16);
// FormatMessageW text of a Win32 error code, one line, with the code: "The specified module could not be found. (126)".
std::string win32_error_text(unsigned long code);

}  // namespace tfgpu
