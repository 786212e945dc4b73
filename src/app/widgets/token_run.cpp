// Running text of tokens (see token_run.h).
#include "app/widgets/token_run.h"

#include <algorithm>

#include "app/widgets/text_flow.h"
#include "imgui.h"

namespace ts {

std::string running_piece(const std::string& display) {
  static const std::string kSpaceMark = "\xE2\x90\xA3";  // ␣
  std::string out;
  out.reserve(display.size());
  for (size_t i = 0; i < display.size();) {
    if (display.compare(i, kSpaceMark.size(), kSpaceMark) == 0) {
      out += ' ';
      i += kSpaceMark.size();
    } else {
      out += display[i++];
    }
  }
  return out;
}

void draw_token_run(const char* id, const std::vector<RunToken>& toks, float box_h,
                    const TokenRunStyle& st, const Palette& pal, DrawLog& log) {
  const float fs = ImGui::GetFontSize();
  const float width = std::max(ImGui::GetContentRegionAvail().x - fs * 0.8f, fs * 4.0f);
  const float line_h = fs * 1.3f;
  std::vector<std::string> texts;
  std::vector<float> widths;
  for (const RunToken& t : toks) {
    texts.push_back(t.text);
    widths.push_back(ImGui::CalcTextSize(t.text.c_str()).x);
  }
  if (st.end_note) {  // the note reads as the text's last word
    std::string note = "  [";
    note.append(st.end_note).append("]");
    texts.push_back(std::move(note));
    widths.push_back(ImGui::CalcTextSize(texts.back().c_str()).x);
  }
  float text_h = 0;
  const std::vector<FlowPos> pos = wrap_flow(widths, width, line_h, &text_h);
  const std::string line_kind = std::string(st.kind) + "_line";
  const std::string newest_kind = std::string(st.kind) + "_newest";
  const std::string mark_kind = std::string(st.kind) + "_diverge";
  ImGui::BeginChild(id, ImVec2(0, box_h), false, ImGuiWindowFlags_NoScrollbar);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  std::string line_text;
  int line = -1;
  float line_y = 0, last_x = o.x;
  auto flush = [&] {
    if (line >= 0 && !line_text.empty())
      log.note_drawn(line_kind.c_str(), line_text, o.x, line_y, last_x - o.x, fs * 1.15f, st.name);
    line_text.clear();
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    const ImVec2 a(o.x + pos[i].x, o.y + pos[i].y), b(a.x + widths[i], a.y + fs * 1.15f);
    if (pos[i].line != line) {
      flush();
      line = pos[i].line;
      line_y = a.y;
    }
    line_text += texts[i];
    last_x = b.x;
    if (i >= toks.size()) {  // the end note
      dl->AddText(ImVec2(a.x, a.y + fs * 0.07f), pal.text_dim, texts[i].c_str());
      continue;
    }
    const RunToken& t = toks[i];
    if (t.tinted) dl->AddRectFilled(a, b, st.tint);
    if (t.forced) dl->AddRectFilled(a, b, pal.forced_chip);
    if (t.outlined) {
      dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), st.mark, 0.0f, 0,
                  std::max(2.0f, pal.line_thickness * 1.5f));
      log.note_drawn(mark_kind.c_str(), t.display, a.x, a.y, b.x - a.x, b.y - a.y, st.name);
    }
    dl->AddText(ImVec2(a.x, a.y + fs * 0.07f), pal.text, texts[i].c_str());
    if (i + 1 == toks.size())
      log.note_drawn(newest_kind.c_str(), t.display, a.x, a.y, b.x - a.x, b.y - a.y, st.name);
  }
  flush();
  ImGui::Dummy(ImVec2(width, text_h));
  // The last token stays in view, at the box's bottom line: the end note shows when it shares
  // that line or the box has room for it (a note wrapped onto a line of its own must not push
  // the text out of a one-line box).
  const float newest_bottom = toks.empty() ? text_h : pos[toks.size() - 1].y + line_h;
  ImGui::SetScrollY(std::min(ImGui::GetScrollMaxY(), std::max(0.0f, newest_bottom - box_h)));
  ImGui::EndChild();
}

}  // namespace ts
