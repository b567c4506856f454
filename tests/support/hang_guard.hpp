// The one time limit of the test suite. It is a guard against a hang, never
// a measure of speed: a test waits for events (a line on a pipe, a file, a
// child's exit), and the limit only ends a test that would otherwise wait
// forever. It is generous enough for a sanitizer build on a machine whose
// cores are busy with another build; CTest's own TIMEOUT
// (tests/CMakeLists.txt) is larger still.
#pragma once

#include <chrono>

namespace pawntb_test {

inline constexpr unsigned kHangGuardSeconds = 600;
inline constexpr std::chrono::seconds kHangGuard{kHangGuardSeconds};

}  // namespace pawntb_test
