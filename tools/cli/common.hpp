// What the pawntb commands share: opening a table, number formatting and the
// progress line.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

#include "pawntb/probe.hpp"

namespace pawntb::cli {

// The table at `path`, or the default table when `path` is empty.
Table open_table(const std::string& path);

// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t n);

// Sixteen lowercase hex digits.
std::string hex(std::uint64_t v);

// Shows progress on a terminal: "\rstage  42%  ~3 s left".
class ProgressLine {
 public:
  ProgressLine() : enabled_(::isatty(STDERR_FILENO) == 1) {}
  ~ProgressLine() {
    if (shown_) std::cerr << "\r" << std::string(48, ' ') << "\r" << std::flush;
  }
  void update(const char* stage, double done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (stage != stage_) {
      stage_ = stage;
      stage_start_ = now;
    }
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    shown_ = true;
    const double elapsed = std::chrono::duration<double>(now - stage_start_).count();
    std::ostringstream line;
    line << "\r" << stage << " " << static_cast<int>(done * 100) << "%";
    if (done > 0.02 && elapsed > 0.5) {
      line << "  ~" << static_cast<int>(elapsed / done - elapsed + 0.5) << " s left";
    }
    std::cerr << line.str() << "        " << std::flush;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  const char* stage_ = nullptr;
  std::chrono::steady_clock::time_point stage_start_{}, last_{};
};

}  // namespace pawntb::cli
