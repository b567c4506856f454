#include "common/serve_options.hpp"

#include <charconv>
#include <optional>
#include <string_view>

namespace pawntb::common {

namespace {

// `text` as a whole number of type T, or nothing.
template <class T>
std::optional<T> number(std::string_view text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return {};
  return value;
}

}  // namespace

std::string check(const ServeOptions& o) {
  if (o.port < 0 || o.port > 65535) return "--port must be 0..65535";
  if (o.threads > kMaxServeThreads) {
    return "--threads must be 0.." + std::to_string(kMaxServeThreads);
  }
  return {};
}

std::vector<std::string> to_arguments(const ServeOptions& o) {
  std::vector<std::string> args{
      "--host", o.host, "--port", std::to_string(o.port), "--threads", std::to_string(o.threads)};
  for (const std::string& table : o.tables) args.insert(args.end(), {"--table", table});
  if (o.log) args.push_back("--log");
  return args;
}

std::variant<ServeOptions, std::string> from_arguments(const std::vector<std::string>& args) {
  ServeOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view name = args[i];
    std::optional<std::string> value;
    if (const auto equals = name.find('='); equals != std::string_view::npos) {
      value = std::string(name.substr(equals + 1));
      name = name.substr(0, equals);
    }
    if (name == "--log") {
      if (value) return "--log takes no value";
      o.log = true;
      continue;
    }
    if (name != "--host" && name != "--port" && name != "--threads" && name != "--table") {
      return "unknown option '" + args[i] + "'";
    }
    if (!value) {
      if (i + 1 == args.size()) return std::string(name) + " needs a value";
      value = args[++i];
    }
    if (name == "--host") {
      o.host = *value;
    } else if (name == "--table") {
      o.tables.push_back(*value);
    } else if (name == "--port") {
      const auto port = number<int>(*value);
      if (!port) return "--port must be 0..65535";
      o.port = *port;
    } else {
      const auto threads = number<unsigned>(*value);
      if (!threads) return "--threads must be 0.." + std::to_string(kMaxServeThreads);
      o.threads = *threads;
    }
  }
  if (std::string problem = check(o); !problem.empty()) return problem;
  return o;
}

}  // namespace pawntb::common
