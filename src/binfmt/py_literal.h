#pragma once
// A safe reader for the subset of Python literal syntax found in generated files such as
// TensorFlow's build_info.py: strings (all quote styles, prefixes r/b/u, escapes,
// implicit concatenation), numbers, True/False/None, lists, tuples, dicts and
// collections.OrderedDict([...]) / OrderedDict(...) / dict(...) calls. Nothing is executed.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.h"

namespace tfgpu::binfmt {

struct PyValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kString, kList, kTuple, kDict };
  Kind kind = Kind::kNone;
  bool boolean = false;
  std::string text;  // kString: the decoded value (UTF-8); kInt/kFloat: the literal as written
  std::vector<PyValue> items;                          // kList / kTuple
  std::vector<std::pair<PyValue, PyValue>> entries;    // kDict, in source order

  // How tfgpu shows a value as one string (TensorflowInstall::build_info):
  // strings as-is, True/False/None, numbers as written, lists/tuples joined with ','
  // (items shown the same way), dicts as "k:v,k:v".
  std::string to_display() const;
};

// One `name = <literal>` statement at module level, in source order.
struct PyAssignment {
  std::string name;
  PyValue value;
};

// Parses one expression (the whole text must be it, modulo whitespace and comments).
// Errors: kInput "NAME: unexpected 'x' at line 3 column 7".
Result<PyValue> parse_py_literal(std::string_view text, std::string_view name = {});

// Reads a Python module's top-level assignments whose right-hand side is a literal from
// the subset above. Comments, docstrings, `import` / `from` lines and `__future__` lines
// are skipped; any other statement (def, class, calls, augmented assignments, ...) makes
// the module unsupported: kInput "NAME: unsupported statement at line 12".
// Nesting depth is limited (kInput beyond 64 levels) so hostile input cannot overflow.
Result<std::vector<PyAssignment>> parse_py_assignments(std::string_view text,
                                                       std::string_view name = {});

}  // namespace tfgpu::binfmt
