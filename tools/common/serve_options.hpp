// The options of the web explorer's server. `pawntb serve` reads them with
// the rest of its command line (tools/cli/serve.cpp) and execs the program
// pawntb-serve with them as arguments, which reads them back here: so the
// server needs no option library, and both agree on one form and one check.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace pawntb::common {

// The most worker threads, which is also how many connections are answered
// at once.
inline constexpr unsigned kMaxServeThreads = 256;

struct ServeOptions {
  std::vector<std::string> tables;  // --table, repeatable; empty: the default tables
  std::string host = "127.0.0.1";
  int port = 8080;       // 0: a free port
  unsigned threads = 8;  // started at once, 0..kMaxServeThreads; 0: one per hardware thread
  bool log = false;      // one line per request on stderr
};

// Why `o` cannot be served ("--port must be 0..65535"), or empty.
std::string check(const ServeOptions& o);

// The arguments that stand for `o`: --host H --port P --threads N
// [--table FILE]... [--log].
std::vector<std::string> to_arguments(const ServeOptions& o);

// The options from such arguments (in any order; --opt VALUE or
// --opt=VALUE; the defaults for those not given), checked, or why they
// cannot be read.
std::variant<ServeOptions, std::string> from_arguments(const std::vector<std::string>& args);

}  // namespace pawntb::common
