#pragma once
// The loader model in one include: trail types, ld.so, LoadLibrary, what TF loads.

#include "loader/ld_so.h"          // IWYU pragma: export
#include "loader/load_library.h"   // IWYU pragma: export
#include "loader/tensorflow_loads.h"  // IWYU pragma: export
#include "loader/trail.h"          // IWYU pragma: export
