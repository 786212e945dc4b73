// Markdown lesson text (see markdown_text.h): parse into blocks of styled words, lay them out,
// then either measure or draw the same layout.
#include "app/widgets/markdown_text.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "app/fonts.h"
#include "imgui.h"
#include "imgui_internal.h"

namespace ts {
namespace {

enum class Style { Regular, Bold, Italic, Code };

struct Piece {  // a run of one style without spaces
  Style style;
  std::string text;
};
using Word = std::vector<Piece>;

struct Block {
  std::string bullet;  // "•" or "3." for list items, "" for a paragraph
  bool gap_before = false;  // a paragraph break (blank line) before it
  std::vector<Word> words;
};

ImFont* font_of(Style s) {
  switch (s) {
    case Style::Bold: return app_font(FontRole::Bold);
    case Style::Code: return app_font(FontRole::Mono);
    default: return app_font(FontRole::Regular);
  }
}

float width_of(const Piece& p) {
  ImFont* f = font_of(p.style);
  return f->CalcTextSizeA(f->FontSize, 1e9f, 0, p.text.c_str()).x;
}

// Splits one block's inline text into words of styled pieces. A marker without its closing
// partner is kept as a literal character.
std::vector<Word> parse_inline(const std::string& t) {
  std::vector<Word> words(1);
  Style style = Style::Regular;
  std::string run;
  auto flush = [&] {
    if (!run.empty()) words.back().push_back({style, run});
    run.clear();
  };
  auto closes = [&](size_t from, const std::string& mark) {
    return t.find(mark, from) != std::string::npos;
  };
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == ' ' && style != Style::Code) {
      flush();
      if (!words.back().empty()) words.emplace_back();
      continue;
    }
    if (c == '`' && (style == Style::Code || closes(i + 1, "`"))) {
      flush();
      style = style == Style::Code ? Style::Regular : Style::Code;
      continue;
    }
    if (style != Style::Code && c == '*' && i + 1 < t.size() && t[i + 1] == '*' &&
        (style == Style::Bold || closes(i + 2, "**"))) {
      flush();
      style = style == Style::Bold ? Style::Regular : Style::Bold;
      ++i;
      continue;
    }
    const bool word_start = i == 0 || t[i - 1] == ' ';
    if (style != Style::Code && (c == '*' || c == '_') &&
        ((style == Style::Italic) || (word_start && closes(i + 1, std::string(1, c))))) {
      flush();
      style = style == Style::Italic ? Style::Regular : Style::Italic;
      continue;
    }
    run += c;
  }
  flush();
  if (words.back().empty()) words.pop_back();
  return words;
}

std::vector<Block> parse_blocks(const std::string& md) {
  std::vector<Block> out;
  size_t p = 0;
  bool gap = false;
  while (p <= md.size()) {
    const size_t nl = std::min(md.find('\n', p), md.size());
    std::string line = md.substr(p, nl - p);
    p = nl + 1;
    if (line.empty()) {
      gap = !out.empty();
      if (nl >= md.size()) break;
      continue;
    }
    Block b;
    b.gap_before = gap;
    gap = false;
    if (line.rfind("- ", 0) == 0 || line.rfind("* ", 0) == 0) {
      b.bullet = "•";
      line = line.substr(2);
    } else if (std::isdigit(static_cast<unsigned char>(line[0]))) {
      const size_t dot = line.find(". ");
      if (dot != std::string::npos && dot < 4 &&
          std::all_of(line.begin(), line.begin() + static_cast<long>(dot),
                      [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        b.bullet = line.substr(0, dot + 1);
        line = line.substr(dot + 2);
      }
    }
    b.words = parse_inline(line);
    out.push_back(std::move(b));
    if (nl >= md.size()) break;
  }
  return out;
}

struct Placed {  // a piece at its place, relative to the text's top-left
  const Piece* piece;
  float x, y;
};

struct Layout {
  std::vector<Placed> placed;
  std::vector<std::pair<float, std::string>> bullets;  // y, bullet text (at x = 0)
  std::vector<std::pair<float, std::string>> lines;    // y, plain text of each line
  float height = 0;
};

Layout lay_out(const std::vector<Block>& blocks, float width) {
  Layout L;
  ImFont* reg = app_font(FontRole::Regular);
  const float fs = reg->FontSize;
  const float line_h = fs + ImGui::GetStyle().ItemSpacing.y;
  const float space = reg->CalcTextSizeA(fs, 1e9f, 0, " ").x;
  const float indent = reg->CalcTextSizeA(fs, 1e9f, 0, "• ").x * 1.2f;
  float y = 0;
  bool first = true;
  for (const Block& b : blocks) {
    if (!first && b.gap_before) y += fs * 0.5f;
    first = false;
    const float x0 = b.bullet.empty() ? 0.0f : std::max(indent, reg->CalcTextSizeA(fs, 1e9f, 0, (b.bullet + " ").c_str()).x);
    if (!b.bullet.empty()) L.bullets.emplace_back(y, b.bullet);
    float x = x0;
    std::string line_text = b.bullet.empty() ? "" : b.bullet + " ";
    bool line_has_words = false;
    for (const Word& w : b.words) {
      float ww = 0;
      for (const Piece& p : w) ww += width_of(p);
      if (line_has_words && x + space + ww > width) {  // wrap before this word
        L.lines.emplace_back(y, line_text);
        line_text.clear();
        y += line_h;
        x = x0;
        line_has_words = false;
      }
      if (line_has_words) {
        x += space;
        line_text += ' ';
      }
      for (const Piece& p : w) {
        L.placed.push_back({&p, x, y});
        x += width_of(p);
        line_text += p.text;
      }
      line_has_words = true;
    }
    L.lines.emplace_back(y, line_text);
    y += line_h;
  }
  L.height = blocks.empty() ? 0.0f : y - ImGui::GetStyle().ItemSpacing.y;
  return L;
}

// Slants the vertices added to `dl` since `first_vtx` about the baseline `base_y` (an italic
// made from the regular face).
void slant(ImDrawList* dl, int first_vtx, float base_y) {
  for (int i = first_vtx; i < dl->VtxBuffer.Size; ++i)
    dl->VtxBuffer[i].pos.x += (base_y - dl->VtxBuffer[i].pos.y) * 0.2f;
}

}  // namespace

float markdown_height(const std::string& md, float width) {
  const std::vector<Block> blocks = parse_blocks(md);
  return lay_out(blocks, width).height;
}

void markdown_text(DrawLog& log, const std::string& md, float width, unsigned color) {
  if (width <= 0) width = ImGui::GetContentRegionAvail().x;
  const std::vector<Block> blocks = parse_blocks(md);
  const Layout L = lay_out(blocks, width);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 col = color ? color : ImGui::GetColorU32(ImGuiCol_Text);
  ImFont* reg = app_font(FontRole::Regular);
  const float fs = reg->FontSize;
  for (const auto& [y, bullet] : L.bullets)
    dl->AddText(reg, fs, ImVec2(o.x, o.y + y), col, bullet.c_str());
  for (const Placed& p : L.placed) {
    ImFont* f = font_of(p.piece->style);
    const float dy = (fs - f->FontSize) * 0.75f;  // the mono face is smaller: share a baseline
    const ImVec2 at(o.x + p.x, o.y + p.y + dy);
    if (p.piece->style == Style::Code) {
      const float w = width_of(*p.piece);
      dl->AddRectFilled(ImVec2(at.x - 1, o.y + p.y), ImVec2(at.x + w + 1, o.y + p.y + fs),
                        ImGui::GetColorU32(ImGuiCol_FrameBg), 3.0f);
    }
    const int first_vtx = dl->VtxBuffer.Size;
    dl->AddText(f, f->FontSize, at, col, p.piece->text.c_str());
    if (p.piece->style == Style::Italic) slant(dl, first_vtx, o.y + p.y + fs * 0.8f);
  }
  for (const auto& [y, text] : L.lines)
    log.note_drawn("text", text, o.x, o.y + y, width, fs);
  ImGui::Dummy(ImVec2(width, std::max(L.height, 1.0f)));
}

std::string markdown_plain(const std::string& md) {
  std::string out;
  for (const Block& b : parse_blocks(md)) {
    if (!out.empty()) out += b.gap_before ? "\n\n" : "\n";
    if (!b.bullet.empty()) out += b.bullet + " ";
    bool first = true;
    for (const Word& w : b.words) {
      if (!first) out += ' ';
      first = false;
      for (const Piece& p : w) out += p.text;
    }
  }
  return out;
}

}  // namespace ts
