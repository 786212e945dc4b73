// Wrapping at spaces and ellipsis labels (see text_fit.h).
#include "app/widgets/text_fit.h"

#include <algorithm>
#include <cfloat>
#include <cstdarg>
#include <cstdio>

namespace ts {
namespace {

// The open panel's drawn-items log (panels never nest), so text_wrapped keeps TextWrapped's
// signature.
DrawLog* g_record_target = nullptr;

float width_of(const ImFont* font, float size, const std::string& s) {
  return font->CalcTextSizeA(size, FLT_MAX, 0.0f, s.data(), s.data() + s.size()).x;
}

size_t next_char(const std::string& s, size_t i) {
  ++i;
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}

// Splits a word wider than `width` into pieces that fit (at least one character each).
void break_word(const ImFont* font, float size, const std::string& w, float width,
                std::vector<std::string>& out) {
  size_t start = 0;
  while (start < w.size()) {
    size_t end = next_char(w, start);
    while (end < w.size() &&
           width_of(font, size, w.substr(start, next_char(w, end) - start)) <= width)
      end = next_char(w, end);
    out.push_back(w.substr(start, end - start));
    start = end;
  }
}

}  // namespace

std::vector<std::string> wrap_lines(const ImFont* font, float size, const std::string& text,
                                    float width, bool* broken) {
  std::vector<std::string> lines;
  if (broken) *broken = false;
  const float space = width_of(font, size, " ");
  size_t p = 0;
  while (p <= text.size()) {
    const size_t nl = std::min(text.find('\n', p), text.size());
    const std::string para = text.substr(p, nl - p);
    std::string line;
    float line_w = 0;
    size_t q = 0;
    bool first = true;
    while (q <= para.size()) {
      const size_t sp = std::min(para.find(' ', q), para.size());
      const std::string word = para.substr(q, sp - q);
      const float ww = width_of(font, size, word);
      if (!first && line_w + space + ww <= width) {
        line += " " + word;
        line_w += space + ww;
      } else {
        if (!first) lines.push_back(line);
        if (ww > width && !word.empty()) {
          std::vector<std::string> pieces;
          break_word(font, size, word, width, pieces);
          if (broken) *broken = true;
          for (size_t i = 0; i + 1 < pieces.size(); ++i) lines.push_back(pieces[i]);
          line = pieces.back();
          line_w = width_of(font, size, line);
        } else {
          line = word;
          line_w = ww;
        }
        first = false;
      }
      q = sp + 1;
    }
    lines.push_back(line);
    p = nl + 1;
  }
  return lines;
}

void wrapped_text(DrawLog& log, const std::string& text) {
  const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  bool broken = false;
  const std::vector<std::string> lines =
      wrap_lines(ImGui::GetFont(), ImGui::GetFontSize(), text, width, &broken);
  if (broken) log.note_clipped(log.drawing_panel, text, "broken");
  ImGui::BeginGroup();
  for (const std::string& l : lines) {
    ImGui::TextUnformatted(l.c_str(), l.c_str() + l.size());
    note_text_item(log, l);
  }
  ImGui::EndGroup();
}

void note_text_item(DrawLog& log, const std::string& text) {
  if (!log.record) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  log.note_drawn("text", text, a.x, a.y, b.x - a.x, b.y - a.y);
}

void set_text_record_target(DrawLog* log) { g_record_target = log; }
DrawLog* text_record_target() { return g_record_target; }

void text_wrapped(const char* fmt, ...) {
  va_list args, copy;
  va_start(args, fmt);
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string text(static_cast<size_t>(std::max(0, n)), '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, args);
  va_end(args);
  if (g_record_target) {
    wrapped_text(*g_record_target, text);
  } else {
    DrawLog none;  // outside a panel: nothing is recorded
    wrapped_text(none, text);
  }
}

bool fit_text(DrawLog& log, const std::string& text, float max_width) {
  const ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  if (width_of(font, size, text) <= max_width) {
    ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
    note_text_item(log, text);
    return false;
  }
  const float ell = width_of(font, size, "…");
  size_t end = 0;
  while (end < text.size() &&
         width_of(font, size, text.substr(0, next_char(text, end))) + ell <= max_width)
    end = next_char(text, end);
  const std::string shown = text.substr(0, end) + "…";
  ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
  note_text_item(log, shown);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
  log.note_clipped(log.drawing_panel, text, "shortened");
  return true;
}

}  // namespace ts
