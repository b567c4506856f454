#include "stats/stats_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace pawntb::stats {

namespace {

constexpr char kWinColour[] = "#2b83ba";
constexpr char kLossColour[] = "#d7191c";

std::string grouped(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

// 1234 -> "1.2k", 47624884 -> "47.6M": a count in at most 5 characters.
std::string compact(std::uint64_t n) {
  if (n < 1000) return std::to_string(n);
  const char* units = "kMGTPE";
  double v = static_cast<double>(n) / 1000;
  for (; v >= 999.95; v /= 1000) ++units;
  char text[16];
  std::snprintf(text, sizeof text, v < 99.95 ? "%.1f%c" : "%.0f%c", v, *units);
  return text;
}

std::string fixed(double v, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string table_name(const TableStats& s) {
  return to_string(s.geometry) + " table, up to " + std::to_string(s.max_pawns) + " pawns a side";
}

std::string header(int width, int height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) +
         " " + std::to_string(height) +
         "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"14\">\n"
         "<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

// "<text ...>body</text>" with the given attributes; body needs no escaping.
std::string text(double x, double y, const std::string& body, const std::string& attributes = {}) {
  return "<text x=\"" + fixed(x, 1) + "\" y=\"" + fixed(y, 1) + "\"" +
         (attributes.empty() ? "" : " " + attributes) + ">" + body + "</text>\n";
}

std::string rect(const char* cls, double x, double y, double w, double h, const std::string& fill,
                 const std::string& title = {}) {
  std::string r = "<rect class=\"" + std::string(cls) + "\" x=\"" + fixed(x, 1) + "\" y=\"" +
                  fixed(y, 1) + "\" width=\"" + fixed(w, 1) + "\" height=\"" + fixed(h, 1) +
                  "\" fill=\"" + fill + "\"";
  return title.empty() ? r + "/>\n" : r + "><title>" + title + "</title></rect>\n";
}

// Share 0 -> red, 0.5 -> pale yellow, 1 -> blue.
std::string share_colour(double share) {
  const double low[3] = {215, 25, 28}, mid[3] = {255, 255, 191}, high[3] = {43, 131, 186};
  const double* from = share < 0.5 ? low : mid;
  const double* to = share < 0.5 ? mid : high;
  const double t = share < 0.5 ? share * 2 : share * 2 - 1;
  char colour[8];
  std::snprintf(colour, sizeof colour, "#%02x%02x%02x",
                static_cast<int>(std::lround(from[0] + (to[0] - from[0]) * t)),
                static_cast<int>(std::lround(from[1] + (to[1] - from[1]) * t)),
                static_cast<int>(std::lround(from[2] + (to[2] - from[2]) * t)));
  return colour;
}

}  // namespace

std::string distance_histogram_svg(const TableStats& s) {
  constexpr int kWidth = 960, kHeight = 520;
  constexpr double kLeft = 130, kRight = 30, kTop = 90, kBottom = 80;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  std::uint64_t highest = 1;
  for (const DistanceCount& d : s.distances) highest = std::max(highest, d.wins + d.losses);
  // A log scale, so that a distance of a few positions is as visible as one
  // of billions: decades from 1 to `top`, the first power of ten >= highest.
  // Bars stand on a baseline half a decade below 1, so that a count of 1 has
  // a bar too: height(c) = plot_h * (log10(c) + 0.5) / (log10(top) + 0.5),
  // e.g. on 4x4 (top 10^5) a count of 1 is 0.5/5.5 of the plot, 83 px.
  std::uint64_t top = 1;
  int decades = 0;
  while (top < highest) {
    top *= 10;
    ++decades;
  }
  const double slot = plot_w / static_cast<double>(std::max<std::size_t>(s.distances.size(), 1));
  const double bar = slot * 0.8;
  const double span = decades + 0.5;
  auto height_of = [&](double count) {
    return count < 1 ? 0 : plot_h * (std::log10(count) + 0.5) / span;
  };
  auto y_of = [&](double count) { return kTop + plot_h - height_of(count); };

  std::ostringstream svg;
  svg << header(kWidth, kHeight);
  svg << text(kWidth / 2.0, 30, "Distance to the end with best play, " + table_name(s),
              "text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\"");
  svg << text(kWidth / 2.0, 52,
              grouped(s.positions) + " positions, either side to move (wins are odd, losses even)",
              "text-anchor=\"middle\" fill=\"#444\"");
  // Grid lines and the count axis, one line a decade.
  for (std::uint64_t v = 1;; v *= 10) {
    const double y = y_of(static_cast<double>(v));
    svg << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_w << "\" y1=\"" << fixed(y, 1)
        << "\" y2=\"" << fixed(y, 1) << "\" stroke=\"#ddd\"/>\n";
    svg << text(kLeft - 8, y + 5, grouped(v), "text-anchor=\"end\"");
    if (v == top) break;
  }
  svg << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft + plot_w << "\" y1=\""
      << fixed(kTop + plot_h, 1) << "\" y2=\"" << fixed(kTop + plot_h, 1)
      << "\" stroke=\"#333\"/>\n";
  svg << text(24, kTop + plot_h / 2, "positions (log scale)",
              "text-anchor=\"middle\" transform=\"rotate(-90 24 " + fixed(kTop + plot_h / 2, 1) +
                  ")\"");
  // The bars: losses at the bottom, wins stacked on top.
  const std::size_t label_every = s.distances.size() > 30 ? 2 : 1;
  for (std::size_t d = 0; d < s.distances.size(); ++d) {
    const DistanceCount& c = s.distances[d];
    const double x = kLeft + slot * static_cast<double>(d) + (slot - bar) / 2;
    const std::string plies = std::to_string(d) + (d == 1 ? " ply" : " plies");
    // Losses at the bottom, wins on top, sharing the total's height (a
    // table has one or the other at each distance: wins odd, losses even).
    const double total = static_cast<double>(c.wins + c.losses);
    const double h = height_of(total);
    const double loss_h = total > 0 ? h * static_cast<double>(c.losses) / total : 0;
    if (c.losses) {
      svg << rect("loss", x, y_of(0) - loss_h, bar, loss_h, kLossColour,
                  plies + ": side to move loses in " + grouped(c.losses) + " positions");
    }
    if (c.wins) {
      svg << rect("win", x, y_of(total), bar, h - loss_h, kWinColour,
                  plies + ": side to move wins in " + grouped(c.wins) + " positions");
    }
    // The count above the bar, shortened where the bar is narrow.
    if (c.wins + c.losses) {
      const std::string full = grouped(c.wins + c.losses);
      const double char_width = 7;  // at font size 11
      const std::string label =
          static_cast<double>(full.size()) * char_width <= slot ? full : compact(c.wins + c.losses);
      svg << text(x + bar / 2, y_of(total) - 5, label,
                  "text-anchor=\"middle\" font-size=\"11\" fill=\"#333\"");
    }
    if (d % label_every == 0) {
      svg << text(x + bar / 2, kTop + plot_h + 20, std::to_string(d), "text-anchor=\"middle\"");
    }
  }
  svg << text(kLeft + plot_w / 2, kHeight - 28, "plies to the end", "text-anchor=\"middle\"");
  // Legend, top right.
  const double lx = kLeft + plot_w - 340, ly = kTop - 16;
  svg << rect("legend", lx, ly - 12, 14, 14, kWinColour) << text(lx + 20, ly, "side to move wins")
      << rect("legend", lx + 170, ly - 12, 14, 14, kLossColour)
      << text(lx + 190, ly, "side to move loses");
  svg << "</svg>\n";
  return svg.str();
}

std::string material_heatmap_svg(const TableStats& s) {
  const int n = s.max_pawns + 1;  // 0..K pawns a side
  constexpr double kCellW = 120, kCellH = 72, kLeft = 130, kTop = 110;
  const double grid_w = kCellW * n, grid_h = kCellH * n;
  const int width = static_cast<int>(kLeft + grid_w + 150);
  const int height = static_cast<int>(kTop + grid_h + 60);

  std::ostringstream svg;
  svg << header(std::max(width, 640), height);
  svg << text(kLeft + grid_w / 2, 30, "Side-to-move win share by material",
              "text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\"");
  svg << text(kLeft + grid_w / 2, 52, table_name(s) + "; cells: share won, positions",
              "text-anchor=\"middle\" fill=\"#444\"");
  svg << text(kLeft + grid_w / 2, kTop - 36, "white pawns", "text-anchor=\"middle\"");
  svg << text(
      40, kTop + grid_h / 2, "black pawns",
      "text-anchor=\"middle\" transform=\"rotate(-90 40 " + fixed(kTop + grid_h / 2, 1) + ")\"");
  for (int i = 0; i < n; ++i) {
    svg << text(kLeft + kCellW * (i + 0.5), kTop - 10, std::to_string(i), "text-anchor=\"middle\"");
    svg << text(kLeft - 12, kTop + kCellH * (i + 0.5) + 5, std::to_string(i),
                "text-anchor=\"end\"");
  }
  for (const MaterialStats& m : s.materials) {
    const double share =
        static_cast<double>(m.side_to_move_wins) / static_cast<double>(m.positions);
    const double x = kLeft + kCellW * m.white_pawns, y = kTop + kCellH * m.black_pawns;
    const std::string title = std::to_string(m.white_pawns) + " white, " +
                              std::to_string(m.black_pawns) +
                              " black: " + grouped(m.side_to_move_wins) + " of " +
                              grouped(m.positions) + " won by the side to move";
    svg << rect("cell", x + 1, y + 1, kCellW - 2, kCellH - 2, share_colour(share), title);
    const char* ink = share < 0.12 || share > 0.88 ? "white" : "black";
    svg << text(x + kCellW / 2, y + kCellH / 2 - 2, fixed(100 * share, 1) + "%",
                "text-anchor=\"middle\" font-size=\"17\" font-weight=\"bold\" fill=\"" +
                    std::string(ink) + "\"");
    svg << text(x + kCellW / 2, y + kCellH / 2 + 18, grouped(m.positions),
                "text-anchor=\"middle\" font-size=\"13\" fill=\"" + std::string(ink) + "\"");
  }
  // Colour scale, right of the grid.
  const double sx = kLeft + grid_w + 40, sh = grid_h;
  svg << "<defs><linearGradient id=\"share\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
      << "<stop offset=\"0\" stop-color=\"" << share_colour(0) << "\"/>"
      << "<stop offset=\"0.5\" stop-color=\"" << share_colour(0.5) << "\"/>"
      << "<stop offset=\"1\" stop-color=\"" << share_colour(1) << "\"/>"
      << "</linearGradient></defs>\n";
  svg << rect("scale", sx, kTop, 20, sh, "url(#share)");
  for (const int pct : {0, 25, 50, 75, 100}) {
    svg << text(sx + 28, kTop + sh * (1 - pct / 100.0) + 5, std::to_string(pct) + "%");
  }
  svg << text(sx + 10, kTop - 10, "won", "text-anchor=\"middle\"");
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace pawntb::stats
