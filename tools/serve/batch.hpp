// The body of POST /api/v1/positions on its way to answers: a SAX reader
// takes the JSON array's strings without building a document, and on two
// threads the answers start while the parser still reads the rest. What an
// answer says is the endpoint's (tools/serve/api.cpp); here only the
// pipeline.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace pawntb::serve {

// The most positions one POST /api/v1/positions may hold.
inline constexpr std::size_t kMaxBatch = 10000;

// Consecutive elements of a batch, as one thread answers them.
class BatchElements {
 public:
  BatchElements(const char* text, const std::size_t* ends, std::size_t first, std::size_t count)
      : text_(text), ends_(ends), first_(first), count_(count) {}
  std::size_t size() const { return count_; }
  std::string_view operator[](std::size_t i) const {
    const std::size_t at = first_ + i;
    const std::size_t begin = at ? ends_[at - 1] : 0;
    return {text_ + begin, ends_[at] - begin};
  }

 private:
  const char* text_;         // every element, one after another
  const std::size_t* ends_;  // where each element of text_ ends
  std::size_t first_, count_;
};

// The answer to a batch: `json`, the array of the answers in order, or
// `problem`, why the body is not a JSON array of at most kMaxBatch position
// strings.
struct BatchAnswers {
  std::string problem;
  std::string json;
};

// Reads `body` and calls answer(elements, out) for consecutive chunks of its
// strings, each to append their answers, comma-separated, to a string of its
// own; bodies from 32 KiB on on two threads (util::parallel_for, "serve
// batch"; on one if the second cannot start), so `answer` may run on two
// threads at once. Throws what `answer` throws, or std::bad_alloc.
BatchAnswers answer_batch(std::string_view body,
                          const std::function<void(const BatchElements&, std::string&)>& answer);

}  // namespace pawntb::serve
