// How the programs pawntb and pawntb-serve end: their exit statuses, and the
// check that what they printed reached stdout.
#pragma once

namespace pawntb::common {

enum ExitCode : int { kOk = 0, kRuntimeFailure = 1, kUsageError = 2 };

// Flushes std::cout and stdout; throws std::runtime_error naming the error
// when either failed (a full disk, a closed pipe).
void check_stdout();

}  // namespace pawntb::common
