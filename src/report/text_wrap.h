#pragma once
// Wrapping of text reports to the terminal's width with a hanging indent, so that an
// 80-column terminal shows every report readably. Widths count code points (no East
// Asian wide characters in tfgpu's reports) and ANSI colour sequences count zero.
// Words are never split: a path or a command longer than the line stays whole.

#include <cstddef>
#include <string>
#include <string_view>

namespace tfgpu::report {

inline constexpr size_t kDefaultTextWidth = 80;

// Columns `text` takes on a terminal.
size_t display_width(std::string_view text);

// Where a line's continuation lines start: after its indentation, a list or status
// marker ("- ", "1. ", "A1. ", "✓ ", "[ok] ") and, for "label   value" lines, after
// the run of two or more spaces that separates the label from the value.
size_t hanging_indent(std::string_view line);

// One line (no '\n') wrapped at spaces to `width` columns; continuation lines start
// with `hang` spaces.
std::string wrap_line(std::string_view line, size_t hang, size_t width);

// Every line of `text` wrapped, each with its own hanging_indent. width 0: unchanged.
std::string wrap_text(std::string_view text, size_t width);

}  // namespace tfgpu::report
