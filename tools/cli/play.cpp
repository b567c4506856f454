#include "play.hpp"

// pawntb play: a game against perfect play in the terminal.
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "command_support.hpp"
#include "common/answers.hpp"
#include "line_reader.hpp"
#include "output.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

using common::value_text;

namespace {

namespace po = boost::program_options;

constexpr char kCommandHelp[] =
    "  c2c3   play a move: from-square, to-square (b2c3 captures on c3; C2C3 too)\n"
    "  hint   the best move and its value\n"
    "  moves  every legal move with its value, best first\n"
    "  undo   take back your last move and the reply\n"
    "  new    start again from the first position\n"
    "  resign give up this game: it counts as lost, and play ends\n"
    "  flip   turn the board around\n"
    "  help   this list\n"
    "  quit   end the game (so does the end of input)\n";

// What the terminal can do: colours when stdout is one, prompts when stdin is.
struct Terminal {
  bool colour = false;
  bool interactive = false;
  // `text` in the colour of the SGR code `sgr` ("1;31"), or as is.
  std::string paint(const std::string& text, const char* sgr) const {
    return colour ? "\x1b[" + std::string(sgr) + "m" + text + "\x1b[0m" : text;
  }
};

// draw_board() turned around, black's home row at the bottom: its rows in
// reverse order, each read right to left.
std::string flip_drawing(const std::string& drawing) {
  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < drawing.size();) {
    const std::size_t end = drawing.find('\n', begin);
    lines.push_back(drawing.substr(begin, end - begin));
    begin = end + 1;
  }
  std::string out;
  auto add = [&](const std::string& line) {
    out += line.substr(0, 2) + std::string(line.rbegin(), line.rend() - 2) + "\n";
  };
  for (std::size_t i = lines.size() - 1; i-- > 0;) add(lines[i]);
  add(lines.back());  // the file letters
  return out;
}

// The board in colour: three columns a square on checkered backgrounds, the
// squares of the last move highlighted.
std::string colour_board(const Position& p, bool flipped, std::optional<Move> last) {
  const Geometry g = p.geometry;
  std::string out;
  for (int i = 0; i < g.rows; ++i) {
    const int r = flipped ? g.rows - 1 - i : i;
    out += std::to_string(g.rows - r) + " ";
    for (int j = 0; j < g.cols; ++j) {
      const int c = flipped ? g.cols - 1 - j : j;
      const int square = r * g.cols + c;
      const std::uint64_t bit = 1ULL << square;
      const bool moved = last && (last->from == square || last->to == square);
      const bool light = (r + c) % 2 == 0;
      out += "\x1b[";
      out += moved ? "48;5;186" : light ? "48;5;223" : "48;5;137";
      if (p.white & bit) {
        out += ";1;97m P ";
      } else if (p.black & bit) {
        out += ";1;30m p ";
      } else {
        out += "m   ";
      }
      out += "\x1b[0m";
    }
    out += "\n";
  }
  out += " ";
  for (int j = 0; j < g.cols; ++j) {
    out += "  ";
    out += static_cast<char>('a' + (flipped ? g.cols - 1 - j : j));
  }
  return out + "\n";
}

// Why the game is over at `p` (classify(p) == Status::over), in words.
std::string end_reason(const Position& p) {
  const Side winner = opponent(p.to_move);
  if (game_end(p) == GameEnd::goal) {
    return std::string("a ") + side_name(winner) + " pawn reached rank " +
           (winner == Side::white ? std::to_string(p.geometry.rows) : "1");
  }
  return std::string(side_name(p.to_move)) + " has no move";
}

// A move of the player's that was not the best.
struct Mistake {
  std::size_t ply;  // 1-based
  std::string text;
};

class Game {
 public:
  Game(const Table& table, Position start, Side player, std::uint64_t seed, Terminal term)
      : table_(table), player_(player), flipped_(player == Side::black), rng_(seed), term_(term) {
    positions_.push_back(start);
  }

  int run(std::uint64_t seed) {
    say("pawntb play: you are " + std::string(side_name(player_)) + " against perfect play on " +
        to_string(current().geometry) + " (" + table_.info().path.string() + "), seed " +
        std::to_string(seed) + ". Type help for the commands.\n");
    show();
    LineReader in(stdin, [] { std::cout.flush(); });
    LineReader::Line line;
    for (;;) {
      if (!over() && current().to_move != player_) {
        reply();
        continue;
      }
      if (over() && !summarized_) summarize();
      if (term_.interactive) {
        std::cout << term_.paint("your move (" + std::string(side_name(player_)) + ")> ", "1");
      }
      if (!in.next(line)) {
        if (in.read_error()) throw std::runtime_error("stdin: read error");
        if (term_.interactive) std::cout << "\n";
        break;
      }
      where_ = term_.interactive ? std::string() : "pawntb play: " + stdin_line(line.number) + ": ";
      if (line.too_long) {
        refuse("line longer than " + std::to_string(LineReader::kMaxLine) + " bytes");
        continue;
      }
      if (!command(line.text)) break;
    }
    if (!summarized_) summarize();
    // A script's bad line is an input error, as in `probe -` (README).
    return refused_ && !term_.interactive ? kUsageError : kOk;
  }

 private:
  const Position& current() const { return positions_.back(); }
  bool over() const { return classify(current()) != Status::playable; }
  std::size_t plies() const { return positions_.size() - 1; }

  RootResult probe_root(const Position& p) const {
    RootResult root = table_.probe_root(p);
    check_table(table_, p, root.value);
    if (!root.value.ok()) {
      throw TableError(probe_problem(table_, p, root.value) + ": " + format_position(p));
    }
    return root;
  }

  void say(const std::string& text) { std::cout << text; }

  // Bad input: a message on stderr, and the game goes on.
  void refuse(const std::string& message) {
    refused_ = true;
    std::cout.flush();
    std::cerr << where_ << message << "\n";
  }

  void show() {
    const Position& p = current();
    std::optional<Move> last;
    if (plies() > 0) last = moves_.back();
    if (term_.colour) {
      say(colour_board(p, flipped_, last));
    } else {
      say(flipped_ ? flip_drawing(draw_board(p)) : draw_board(p));
    }
    say(format_position(p) + "\n");
    if (over()) {
      say(term_.paint("game over: " + std::string(side_name(opponent(p.to_move))) + " wins, " +
                          end_reason(p),
                      "1") +
          "\n");
      return;
    }
    const ProbeResult v = probe_root(p).value;
    say(std::string(side_name(p.to_move)) + " to move: " + value_text(v.winner, v.plies) + "\n");
  }

  void play(Move m) {
    moves_.push_back(m);
    positions_.push_back(pawntb::play(current(), m));
    summarized_ = false;
  }

  // The engine's move: the fastest win, else the longest loss; one of the
  // equally good moves at random.
  void reply() {
    const RootResult root = probe_root(current());
    const MoveValue& best = root.moves.front();
    std::size_t equal = 1;
    while (equal < root.moves.size() && root.moves[equal].winner == best.winner &&
           root.moves[equal].plies == best.plies) {
      ++equal;
    }
    const Move m = root.moves[rng_() % equal].move;
    say("pawntb plays " + move_name(current().geometry, m) + "\n");
    play(m);
    show();
  }

  // The player's move `m`, and what it did to the value.
  void move(Move m) {
    const Geometry g = current().geometry;
    const RootResult root = probe_root(current());
    const MoveValue& best = root.moves.front();
    const MoveValue chosen = *std::find_if(root.moves.begin(), root.moves.end(),
                                           [&](const MoveValue& v) { return v.move == m; });
    const std::string change = "(was: " + value_text(root.value.winner, root.value.plies) +
                               ", now: " + value_text(chosen.winner, chosen.plies) + ")";
    std::string verdict;
    if (chosen.winner == best.winner && chosen.plies == best.plies) {
      verdict = term_.paint("kept the value", "32") + " " + change;
    } else {
      std::string what;
      if (chosen.winner != best.winner) {
        what = "threw away a win";
      } else if (best.winner == player_) {
        what = "a slower win";
      } else {
        what = "a faster loss";
      }
      what += " " + change + "; best was " + move_name(g, best.move);
      mistakes_.push_back({plies() + 1, move_name(g, m) + ": " + what});
      verdict = term_.paint(what, "1;31");
    }
    say("you played " + move_name(g, m) + ": " + verdict + "\n");
    play(m);
    if (over()) show();
  }

  void hint() {
    if (over()) return refuse("the game is over: new, undo or quit");
    const Geometry g = current().geometry;
    const RootResult root = probe_root(current());
    const MoveValue& best = root.moves.front();
    std::string also;
    for (std::size_t i = 1; i < root.moves.size(); ++i) {
      const MoveValue& m = root.moves[i];
      if (m.winner == best.winner && m.plies == best.plies) also += " " + move_name(g, m.move);
    }
    say("hint: " + move_name(g, best.move) + " (" + value_text(best.winner, best.plies) + ")" +
        (also.empty() ? "" : "; as good:" + also) + "\n");
  }

  void list_moves() {
    if (over()) return refuse("the game is over: no moves");
    const Geometry g = current().geometry;
    const RootResult root = probe_root(current());
    say("moves for " + std::string(side_name(current().to_move)) + ", best first:\n");
    for (const MoveValue& m : root.moves) {
      say("  " + move_name(g, m.move) + "  " + value_text(m.winner, m.plies) + "\n");
    }
  }

  // Takes back the player's last move and the engine's replies after it.
  void undo() {
    std::size_t n = plies();
    while (n > 0 && positions_[n - 1].to_move != player_) --n;
    if (n == 0) return refuse("nothing to undo");
    --n;
    const Geometry g = current().geometry;
    std::string taken;
    for (std::size_t i = n; i < plies(); ++i) taken += " " + move_name(g, moves_[i]);
    positions_.resize(n + 1);
    moves_.resize(n);
    std::erase_if(mistakes_, [&](const Mistake& m) { return m.ply > n; });
    summarized_ = false;
    say("took back" + taken + "\n");
    show();
  }

  void start_again() {
    if (!summarized_) summarize();
    positions_.resize(1);
    moves_.clear();
    mistakes_.clear();
    summarized_ = false;
    say("new game\n");
    show();
  }

  void summarize() {
    summarized_ = true;
    const Geometry g = current().geometry;
    std::string text = term_.paint("game summary", "1") + "\n";
    text += "start: " + format_position(positions_.front()) + "\nmoves:";
    if (moves_.empty()) text += " none";
    for (const Move m : moves_) text += " " + move_name(g, m);
    text += "\nresult: ";
    const Side mover = current().to_move;
    if (resigned_) {
      text += "you resigned after " + count_of(plies(), "ply", "plies") + ": " +
              side_name(opponent(player_)) + " won";
    } else if (over()) {
      const bool won = opponent(mover) == player_;
      text += std::string(side_name(opponent(mover))) + " won in " +
              count_of(plies(), "ply", "plies") + ": you " + (won ? "won" : "lost");
    } else {
      const ProbeResult v = probe_root(current()).value;
      text += "unfinished after " + count_of(plies(), "ply", "plies") + ", " + side_name(mover) +
              " to move: " + value_text(v.winner, v.plies);
    }
    text += "\nyour mistakes: " + std::to_string(mistakes_.size()) + "\n";
    for (const Mistake& m : mistakes_)
      text += "  ply " + std::to_string(m.ply) + " " + m.text + "\n";
    say(text);
  }

  // Carries out one line of input; false to end the game.
  bool command(std::string_view line) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) {
      line.remove_prefix(1);
    }
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) {
      line.remove_suffix(1);
    }
    std::string word(line);
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (word.empty()) return true;
    if (word == "quit" || word == "exit") return false;
    if (word == "resign") {
      if (over()) {
        refuse("the game is over: new, undo or quit");
        return true;
      }
      resigned_ = true;
      summarize();
      return false;
    }
    if (word == "help" || word == "?") {
      say("commands:\n" + std::string(kCommandHelp));
    } else if (word == "hint") {
      hint();
    } else if (word == "moves") {
      list_moves();
    } else if (word == "undo") {
      undo();
    } else if (word == "new") {
      start_again();
    } else if (word == "flip") {
      flipped_ = !flipped_;
      show();
    } else {
      try_move(word);
    }
    return true;
  }

  void try_move(const std::string& word) {
    const Position& p = current();
    const Geometry g = p.geometry;
    const bool looks_like_move = word.size() == 4 && std::isalpha(word[0]) &&
                                 std::isdigit(word[1]) && std::isalpha(word[2]) &&
                                 std::isdigit(word[3]);
    if (!looks_like_move) {
      return refuse("'" + printable(word) + "': not a move or a command (type help)");
    }
    if (over()) return refuse(word + ": the game is over: new, undo or quit");
    std::string legal;
    for (const Move m : legal_moves(p)) {
      if (move_name(g, m) == word) return move(m);
      legal += " " + move_name(g, m);
    }
    refuse(word + ": not a legal move for " + side_name(p.to_move) + " (legal:" + legal + ")");
  }

  const Table& table_;
  const Side player_;
  bool flipped_;
  std::mt19937_64 rng_;  // fully specified by the standard: a seed replays a game anywhere
  Terminal term_;
  std::vector<Position> positions_;  // the start, then the position after each move
  std::vector<Move> moves_;          // moves_[i] leads from positions_[i] to positions_[i + 1]
  std::vector<Mistake> mistakes_;
  bool summarized_ = false;  // the summary of the game so far is shown
  bool resigned_ = false;
  bool refused_ = false;     // some input was refused
  std::string where_;  // "pawntb play: stdin:N: " before messages on bad input, when scripted
};

// Why the table cannot play from `p`, or empty if it can.
std::string start_problem(const Table& table, const Position& p) {
  const ProbeResult r = table.probe(p);
  check_table(table, p, r);
  return probe_problem(table, p, r);
}

int run_play(const PlayArgs& o) {
  // Without --position, the start of the table's board: the --table file's,
  // else the default table's (not the 4x4 start, which a 3x3 table refuses).
  std::optional<Position> given;
  if (!o.first_position.empty()) given = std::get<Position>(parse_position(o.first_position));
  const Table table = given ? open_table(o.table, given->geometry) : open_default_table(o.table);
  const Position start = given ? *given : table.start_position();
  if (const std::string problem = start_problem(table, start); !problem.empty()) {
    std::cerr << "pawntb play: --position: " << problem << "\n";
    return kUsageError;
  }
  Side player = start.to_move;
  if (!o.play_as.empty()) player = o.play_as == "white" ? Side::white : Side::black;
  std::uint64_t seed;
  if (o.seed) {
    seed = *o.seed;
  } else {
    std::random_device device;
    seed = (std::uint64_t{device()} << 32) ^ device();
  }
  const Terminal term{.colour = ::isatty(STDOUT_FILENO) == 1 && !std::getenv("NO_COLOR"),
                      .interactive = ::isatty(STDIN_FILENO) == 1};
  Game game(table, start, player, seed, term);
  return game.run(seed);
}

void play_options(po::options_description& desc, PlayArgs& o) {
  desc.add_options()("as", po::value(&o.play_as)->value_name("SIDE"),
                     "white or black (default: the side to move)")(
      "position", po::value(&o.first_position)->value_name("TEXT"),
      "the first position (default: the start of the table's board, pppp/4/4/PPPP w on 4x4)")(
      "seed", po::value<std::string>()->value_name("N"),
      "seed for choosing among equally good replies (default: random, printed)");
}

std::string validate_play(const po::variables_map& given, const std::vector<std::string>& operands,
                          PlayArgs& o) {
  if (!operands.empty()) return "unexpected argument '" + printable(operands.front()) + "'";
  if (given.count("seed")) {
    // Checked here, not in a notifier, whose errors cannot name the option.
    const std::string& text = given["seed"].as<std::string>();
    std::uint64_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error != std::errc() || end != text.data() + text.size()) {
      return "--seed: expected a number 0..18446744073709551615, not '" + printable(text) + "'";
    }
    o.seed = n;
  }
  if (!o.play_as.empty() && o.play_as != "white" && o.play_as != "black") {
    return "--as: expected white or black, not '" + printable(o.play_as) + "'";
  }
  if (o.first_position.empty()) return {};  // the table's start (run_play)
  const auto parsed = parse_position(o.first_position);
  if (const auto* e = std::get_if<ParseError>(&parsed)) return "--position: " + e->message;
  if (classify(std::get<Position>(parsed)) == Status::invalid) {
    return "--position: " + invalid_reason(std::get<Position>(parsed));
  }
  return {};
}

const std::string kDetails =
    "Plays a game against the table: it draws the board, shows the value of the\n"
    "position and reads your moves in UCI (c2c3), one a line. It replies with a\n"
    "perfect move (the fastest win, else the longest loss), choosing among equally\n"
    "good ones at random; --seed N makes the choice repeatable. After each of your\n"
    "moves it says whether you kept the value; at the end it sums up the game.\n"
    "Commands at the prompt:\n" +
    std::string(kCommandHelp) +
    "Colours when stdout is a terminal (not with NO_COLOR set); prompts when stdin\n"
    "is. Otherwise it reads one move or command a line, so games can be scripted.\n"
    "Bad input is refused with a message on stderr and the game goes on. Exit\n"
    "status 0 at quit, resign or the end of input; 2 if input read from a file or\n"
    "pipe (not a terminal) had a line refused.";

}  // namespace

extern const Command kPlay = command_entry<PlayArgs, play_options, validate_play, run_play>(
    "play", "play against perfect play in the terminal",
    "pawntb play [--table FILE] [--as white|black] [--position TEXT] [--seed N]", kDetails.c_str(),
    DefaultTable::by_board_size);

}  // namespace pawntb::cli
