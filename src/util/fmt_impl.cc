// fmt's compiled part, built once here rather than in every file: with FMT_HEADER_ONLY
// each translation unit compiled fmt's implementation again (a third of its compile
// time). The same file serves the mingw build, which has no libfmt to link.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

// The templates fmt/format.h declares but defines only in format-inl.h, for the
// argument types the rest of fmt uses.
template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);

}  // namespace detail
FMT_END_NAMESPACE
