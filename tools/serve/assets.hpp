// The web explorer's page (the files of tools/serve/web/), compiled into the
// binary by tools/serve/embed_assets.cmake. Pure, thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace pawntb::serve {

struct Asset {
  const char* name;  // the file name, served at "/<name>"
  std::span<const unsigned char> bytes;
};

// Every file of tools/serve/web/, by file name.
std::span<const Asset> assets();

// The Content-Type to serve a file called `name` with, by its extension
// ("text/html; charset=utf-8"; "application/octet-stream" when unknown).
const char* content_type(std::string_view name);

}  // namespace pawntb::serve
