// Compiled as C++17 (tests/CMakeLists.txt): every installed header must be
// usable by C++17 consumers. Building this object is the test.
#include "pawntb/block_reader.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/pawntb.h"
#include "pawntb/position.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/progress.hpp"

static_assert(__cplusplus == 201703L, "this file must be compiled as C++17");
