#include "serve/assets.hpp"

namespace pawntb::serve {

const char* content_type(std::string_view name) {
  static constexpr struct {
    std::string_view extension;
    const char* type;
  } kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".json", "application/json"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
  };
  for (const auto& t : kTypes) {
    if (name.ends_with(t.extension)) return t.type;
  }
  return "application/octet-stream";
}

}  // namespace pawntb::serve
