#include "support/cli_support.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>
#include <thread>
#include <variant>

extern char** environ;

namespace pawntb_test {

using nlohmann::json;

std::ostream& operator<<(std::ostream& os, const RunResult& r) {
  return os << "status " << r.status << (r.signaled ? " (signal)" : "") << "\n--- stdout ---\n"
            << r.out << "--- stderr ---\n"
            << r.err << "--------------";
}

std::string cli_path() {
  const char* other = std::getenv("PAWNTB_TEST_CLI");
  return other && *other ? other : PAWNTB_CLI;
}

RunResult run_cli(const std::vector<std::string>& args, const RunOptions& options) {
  RunResult result;
  TempDir io;
  const fs::path in_path = io / "stdin", out_path = io / "stdout", err_path = io / "stderr",
                 rss_path = io / "rss";
  write_file(in_path, options.input ? std::string_view(*options.input) : std::string_view());

  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "PAWNTB_TABLE=", 13) != 0) env_strings.emplace_back(*e);
  }
  if (options.table_env) env_strings.push_back("PAWNTB_TABLE=" + *options.table_env);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> arg_strings{PAWNTB_RSS_LAUNCHER, rss_path.string(), cli_path()};
  arg_strings.insert(arg_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  const std::string in_name = options.input ? in_path.string() : "/dev/null";
  const std::string out_name = out_path.string(), err_name = err_path.string();
  const std::string cwd = options.cwd.string();

  int pipe_ends[2] = {-1, -1};  // read, write
  if (options.input_through_pipe && ::pipe(pipe_ends) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return result;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    // Only async-signal-safe calls from here on.
    if (pipe_ends[1] >= 0) ::close(pipe_ends[1]);
    ::signal(SIGPIPE, SIG_DFL);  // as a shell would start it
    const int in = pipe_ends[0] >= 0 ? pipe_ends[0] : ::open(in_name.c_str(), O_RDONLY);
    const int out = ::open(out_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) ::_exit(125);
    if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(125);
    ::close(in);
    ::close(out);
    ::close(err);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(125);
    ::alarm(kHangGuardSeconds);  // survives exec: a hung child dies of SIGALRM
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  if (options.input_through_pipe) {
    static const bool sigpipe_ignored = ::signal(SIGPIPE, SIG_IGN) != SIG_ERR;
    EXPECT_TRUE(sigpipe_ignored);
    ::close(pipe_ends[0]);
    const std::string_view input = options.input ? std::string_view(*options.input) : "";
    for (std::size_t sent = 0; sent < input.size();) {
      const ssize_t n = ::write(pipe_ends[1], input.data() + sent, input.size() - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;  // the child stopped reading: its result says why
      sent += static_cast<std::size_t>(n);
    }
    ::close(pipe_ends[1]);
  }
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR) {
      ADD_FAILURE() << "waitpid: " << std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(wstatus)) {
    result.status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    result.signaled = true;
    result.status = 128 + WTERMSIG(wstatus);
  }
  const std::string rss = read_file(rss_path);
  if (rss.empty()) {
    ADD_FAILURE() << "rss_launcher wrote no peak RSS";
  } else {
    result.peak_rss_kib = std::stol(rss);  // Linux: kilobytes
  }
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  EXPECT_NE(result.status, 125) << "the child could not set up its files";
  EXPECT_NE(result.status, 127) << "cannot execute " << cli_path();
  return result;
}

RunResult run_with_input(const std::vector<std::string>& args, std::string input) {
  RunOptions options;
  options.input = std::move(input);
  return run_cli(args, options);
}

KillEnd kill_when_ready(const std::vector<std::string>& args, const fs::path& dir,
                        const std::function<bool()>& ready, std::chrono::microseconds pause) {
  std::vector<std::string> arg_strings{cli_path()};
  arg_strings.insert(arg_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  const std::string out_name = (dir / "out.txt").string(), err_name = (dir / "err.txt").string();
  const pid_t child = ::fork();
  if (child < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return KillEnd::hung;
  }
  if (child == 0) {
    // Only async-signal-safe calls from here on.
    const int out = ::open(out_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_name.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(125);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(child, &status, WNOHANG) == child) return KillEnd::finished;
    if (ready()) {
      std::this_thread::sleep_for(pause);
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return WIFSIGNALED(status) ? KillEnd::killed : KillEnd::finished;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // a poll, not a wait for time
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, &status, 0);
  ADD_FAILURE() << "the run neither finished nor became ready to be killed within "
                << kHangGuardSeconds << " s: " << read_file(err_name);
  return KillEnd::hung;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string to_crlf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::vector<json> json_lines(const std::string& text) {
  std::vector<json> values;
  for (const std::string& line : lines_of(text)) {
    try {
      values.push_back(json::parse(line));
    } catch (const json::exception& e) {
      ADD_FAILURE() << "not JSON: '" << line << "': " << e.what();
    }
  }
  return values;
}

std::vector<std::string> error_places(const std::string& err) {
  std::vector<std::string> places;
  for (const std::string& line : lines_of(err)) {
    // "pawntb probe: stdin:N: ..." (or uva)
    const std::size_t at = line.rfind("pawntb ", 0) == 0 ? line.find(": ") + 2 : 0;
    const std::size_t colon = line.find(':', line.find(':', at) + 1);
    if (line.compare(at, 6, "stdin:") == 0 && colon != std::string::npos) {
      places.push_back(line.substr(at, colon - at));
    }
  }
  return places;
}

std::string board(std::initializer_list<const char*> rows) {
  std::string out;
  for (const char* r : rows) out += std::string(r) + "\n";
  return out;
}

// ---------------------------------------------------------------------------
// Command examples in Markdown.

bool operator==(const Example& a, const Example& b) {
  return a.line == b.line && a.command == b.command && a.output == b.output;
}

std::ostream& operator<<(std::ostream& os, const Example& e) {
  return os << "line " << e.line << ": $ " << e.command << "\n" << e.output;
}

std::vector<Example> examples_in(const std::string& markdown) {
  std::vector<Example> examples;
  bool in_block = false, in_text_block = false, in_example = false;
  std::istringstream in(markdown);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      in_text_block = !in_block && line == "```text";
      in_block = !in_block;
      in_example = false;
    } else if (in_text_block && line.rfind(std::string_view("$ "), 0) == 0) {
      examples.push_back({number, line.substr(2), ""});
      in_example = true;
    } else if (in_example) {
      examples.back().output += line + "\n";
    }
  }
  return examples;
}

std::variant<Command, std::string> split_command(std::string_view text) {
  Command command;
  std::string word;
  bool in_word = false, redirect = false;
  auto end_word = [&]() -> std::optional<std::string> {
    if (!in_word) return std::nullopt;
    if (redirect) {
      if (command.input) return "more than one '<'";
      command.input = word;
      redirect = false;
    } else {
      command.words.push_back(word);
    }
    word.clear();
    in_word = false;
    return std::nullopt;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '<') {
      if (auto problem = end_word()) return *problem;
      if (c == '<') {
        if (redirect) return std::string("'<' without a file");
        redirect = true;
      }
    } else if (c == '\'') {
      const std::size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) return std::string("unterminated '");
      word += text.substr(i + 1, close - i - 1);
      in_word = true;
      i = close;
    } else if (c == '"') {
      in_word = true;
      for (++i;; ++i) {
        if (i == text.size()) return std::string("unterminated \"");
        if (text[i] == '"') break;
        if (text[i] == '$' || text[i] == '`')
          return "unsupported shell syntax: " + std::string(1, text[i]);
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("$`\"\\").find(text[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word += text[i];
      }
    } else if (c == '\\') {
      if (i + 1 == text.size()) return std::string("a backslash at the end");
      word += text[++i];
      in_word = true;
    } else if (std::string_view("|&;>()$`*?[~#").find(c) != std::string_view::npos) {
      return "unsupported shell syntax: " + std::string(1, c);
    } else {
      word += c;
      in_word = true;
    }
  }
  if (auto problem = end_word()) return *problem;
  if (redirect) return std::string("'<' without a file");
  if (command.words.empty()) return std::string("no command");
  return command;
}

}  // namespace pawntb_test
