#include "serve/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "pawntb/util/threads.hpp"

namespace pawntb::serve {

namespace {

using Json = nlohmann::json;

// Batches are answered in chunks of this many positions, each chunk by
// whichever thread takes it first.
constexpr std::size_t kChunk = 256;

// The body of POST /api/v1/positions, read as SAX events without building
// a document: the strings of a top-level array, or what is wrong with it.
// Problems other than bad JSON are noted and parsing goes on, so that bad
// JSON is reported first, as a parser building a document would.
// The strings are stored in buffers sized for the whole body, which never
// move, and published as they come: another thread may answer the first
// ones (wait_for(), BatchElements) while the parser reads the rest.
struct BatchReader final : nlohmann::json_sax<Json> {
  // A JSON string's text is never shorter than the string it stands for.
  explicit BatchReader(std::size_t body_size)
      : text(std::make_unique_for_overwrite<char[]>(body_size)),
        ends(std::make_unique_for_overwrite<std::size_t[]>(kMaxBatch)) {}

  std::unique_ptr<char[]> text;         // the elements, one after another
  std::unique_ptr<std::size_t[]> ends;  // where each element of `text` ends
  std::size_t stored = 0;               // elements in `text`
  std::size_t elements = 0;             // of the top-level array, kept or not
  bool top_is_array = false;
  std::string element_problem;  // the first element that is not a string
  std::string json_error;       // why the body is not JSON
  int depth = 0;

  // `stored` as other threads may see it, with kDone once parsing has ended.
  static constexpr std::size_t kDone = std::size_t{1} << 63;
  std::atomic<std::size_t> published{0};

  // Ends publishing: waiting threads see every element there is, or none
  // when the body is refused (`keep` false).
  void finish(bool keep) {
    published.store((keep ? stored : 0) | kDone, std::memory_order_release);
    published.notify_all();
  }
  // Waits until `count` elements are published or parsing has ended, and
  // returns how many of the first `count` there are.
  std::size_t wait_for(std::size_t count) const {
    for (;;) {
      const std::size_t now = published.load(std::memory_order_acquire);
      if ((now & ~kDone) >= count || (now & kDone)) return std::min(now & ~kDone, count);
      published.wait(now, std::memory_order_acquire);
    }
  }
  // A value that is not a string: at depth 1 it is an element.
  bool other(const char* type) {
    if (depth == 1 && element_problem.empty()) {
      element_problem = "element " + std::to_string(elements) + " of the array is a JSON " + type +
                        ", not a position string";
    }
    if (depth == 1) ++elements;
    return true;
  }
  bool null() override { return other("null"); }
  bool boolean(bool) override { return other("boolean"); }
  bool number_integer(number_integer_t) override { return other("number"); }
  bool number_unsigned(number_unsigned_t) override { return other("number"); }
  bool number_float(number_float_t, const string_t&) override { return other("number"); }
  bool binary(binary_t&) override { return other("binary"); }
  bool string(string_t& s) override {
    if (depth != 1) return true;
    if (++elements <= kMaxBatch) {
      const std::size_t begin = stored ? ends[stored - 1] : 0;
      std::memcpy(text.get() + begin, s.data(), s.size());
      ends[stored++] = begin + s.size();
      published.store(stored, std::memory_order_release);
      if (stored % kChunk == 0) published.notify_all();
    }
    return true;
  }
  bool start_object(std::size_t) override {
    other("object");
    ++depth;
    return true;
  }
  bool key(string_t&) override { return true; }
  bool end_object() override {
    --depth;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth == 0) top_is_array = true;
    other("array");
    ++depth;
    return true;
  }
  bool end_array() override {
    --depth;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    json_error = e.what();
    return false;
  }
};

// Bodies from this size on (about 2,000 positions) are answered on two
// threads, the answers starting while the JSON is still parsed.
constexpr std::size_t kParallelBody = 32 * 1024;

// Reads `body` into `reader`: why it is not a JSON array of at most
// kMaxBatch position strings, or empty.
std::string read_batch(std::string_view body, BatchReader& reader) {
  if (!Json::sax_parse(body, &reader)) return "body is not JSON: " + reader.json_error;
  if (!reader.top_is_array) return "body is not a JSON array of position strings";
  if (reader.elements > kMaxBatch) {
    return "array of " + std::to_string(reader.elements) + " positions, over the limit of " +
           std::to_string(kMaxBatch);
  }
  return reader.element_problem;
}

}  // namespace

BatchAnswers answer_batch(std::string_view body,
                          const std::function<void(const BatchElements&, std::string&)>& answer) {
  BatchReader reader(body.size());
  // Item 0 parses the body; item 1 + c answers chunk c, the elements [c *
  // kChunk, (c + 1) * kChunk), comma-separated, as soon as the parser has
  // published them. Items are taken in order, so the parse is under way
  // before any chunk waits for it: on two threads (util::parallel_for,
  // "serve batch") the answers start while the parser still reads the rest.
  std::vector<std::string> chunks((kMaxBatch + kChunk - 1) / kChunk);
  std::string problem;
  const unsigned threads = body.size() >= kParallelBody ? 2 : 1;
  util::parallel_for("serve batch", threads, 1 + chunks.size(), [&](std::uint64_t item, unsigned) {
    if (item == 0) {
      // However the parse ends, waiting chunks go on: with every element
      // there is, or none when the body is refused (or the parse throws).
      bool refused = true;
      const struct Finish {
        BatchReader& reader;
        const bool& refused;
        ~Finish() { reader.finish(!refused); }
      } finish{reader, refused};
      problem = read_batch(body, reader);
      refused = !problem.empty();
      return;
    }
    const std::size_t c = item - 1, from = c * kChunk;
    const std::size_t to = reader.wait_for(from + kChunk);
    if (from >= to) return;
    answer(BatchElements(reader.text.get(), reader.ends.get(), from, to - from), chunks[c]);
  });
  if (!problem.empty()) return {std::move(problem), {}};
  std::size_t size = 2;
  for (const std::string& chunk : chunks) size += chunk.size() + 1;
  std::string out;
  out.reserve(size);
  out += '[';
  for (std::size_t c = 0; c * kChunk < reader.stored; ++c) {
    if (c) out += ',';
    out += chunks[c];
  }
  out += ']';
  return {{}, std::move(out)};
}

}  // namespace pawntb::serve
