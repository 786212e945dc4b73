// The Class poll panel: the address students type (large), the class code, the QR code of the
// address (filled rectangles, at least 4 px a module), whether a question is open and how many
// answered, and the class's guesses as bars beside the model's probability of each token (its
// rank and p), with how many students thought like the model. It draws what App read from the
// poll (own); student text is only ever drawn as plain text, never as a format string.
#include <algorithm>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/units.h"
#include "imgui.h"

namespace ts {
namespace {

constexpr int kQuietModules = 4;  // light modules around a QR code, each side
constexpr int kMinModulePx = 4;   // smaller does not scan from the back of a room
constexpr int kMaxBars = 8;

// The QR code's side in pixels (quiet zone included) for a box of `w` x `h`.
float qr_side(const PollPanelState& own, float w, float h) {
  if (own.qr_size <= 0) return 0;
  const int modules = own.qr_size + 2 * kQuietModules;
  const int px = std::max(kMinModulePx, static_cast<int>(std::min(w, h) / modules));
  return static_cast<float>(px * modules);
}

// The QR code at the cursor: dark modules as filled rectangles on a white square.
void draw_qr(const PanelEnv& env, const PollPanelState& own, float side) {
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int modules = own.qr_size + 2 * kQuietModules;
  const float m = side / static_cast<float>(modules);
  dl->AddRectFilled(o, ImVec2(o.x + side, o.y + side), IM_COL32(255, 255, 255, 255));
  for (int y = 0; y < own.qr_size; ++y)
    for (int x = 0; x < own.qr_size; ++x) {
      if (!own.qr[static_cast<size_t>(y * own.qr_size + x)]) continue;
      const float x0 = o.x + (x + kQuietModules) * m, y0 = o.y + (y + kQuietModules) * m;
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + m, y0 + m), IM_COL32(0, 0, 0, 255));
    }
  ImGui::Dummy(ImVec2(side, side));
  env.log.note_drawn("poll_qr", own.url, o.x, o.y, side, side, std::to_string(m) + " px");
}

// A line of plain text in `role`, recorded as `kind` (and as text for lesson checks).
void line(const PanelEnv& env, FontRole role, const std::string& text, const char* kind,
          float width) {
  ImGui::PushFont(app_font(role));
  fit_text(env.log, text, width);
  note_last_item(env.log, kind, text);
  note_text_item(env.log, text);
  ImGui::PopFont();
}

// The question's state and its Open / Close button (on the same line when it fits).
void question_row(const PanelEnv& env, const PollPanelState& own, Commands& cmd, float width) {
  std::string state;
  if (own.open)
    state = "Question open (step " + std::to_string(own.step) + "): " +
            count_text(own.answered, "answer", "answers");
  else if (own.step >= 0 || own.answered > 0)
    state = "Question closed: " + count_text(own.answered, "answer", "answers");
  else
    state = "Waiting for the next question";
  const char* label = own.open ? "Close the question" : "Open the question for this step";
  const ImGuiStyle& st = ImGui::GetStyle();
  const float button_w = ImGui::CalcTextSize(label).x + st.FramePadding.x * 2;
  const float state_w = ImGui::CalcTextSize(state.c_str()).x;
  ImGui::AlignTextToFramePadding();
  line(env, FontRole::Regular, state, "poll_state", width);
  if (state_w + st.ItemSpacing.x * 2 + button_w <= width) ImGui::SameLine(0, st.ItemSpacing.x * 2);
  if (ImGui::Button(label)) own.open ? cmd.push(cmd::PollClose{}) : cmd.push(cmd::PollOpen{});
  note_last_item(env.log, "button", own.open ? "poll_close" : "poll_open");
}

// "N of M students thought like the model": they guessed its most likely token.
void like_model(const PanelEnv& env, const PollPanelState& own) {
  std::string like = std::to_string(own.like_model) + " of " + std::to_string(own.counted) +
                     " students thought like the model (guessed its most likely token";
  like += own.model_top.empty() ? ")" : ": " + own.model_top + ")";
  ImGui::PushFont(app_font(FontRole::Bold));
  wrapped_text(env.log, like);
  note_last_item(env.log, "poll_like_model", like);
  ImGui::PopFont();
}

// A bar's numbers: how many chose it, the model's rank and p of it.
std::string bar_numbers(const PollBarRow& b) {
  return std::to_string(b.count) + " · " +
         (b.rank > 0 ? "rank " + std::to_string(b.rank) + " · " + percent_text(b.p)
                     : "not in the model's top list");
}

// One guessed token: its piece, the class's share (thick bar) over the model's p (thin bar), on
// one scale, and the numbers: how many, the model's rank and p.
void bar_row(const PanelEnv& env, const PollBarRow& b, float share, float scale, float label_w,
             float bars_w, const Palette& pal) {
  const float fh = ImGui::GetFontSize();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::PushFont(app_font(FontRole::Mono));
  fit_text(env.log, b.piece, label_w);
  ImGui::PopFont();
  if (ImGui::IsItemHovered() && !b.example.empty()) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted("typed as:");
    ImGui::TextUnformatted(b.example.c_str(), b.example.c_str() + b.example.size());
    ImGui::EndTooltip();
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float x0 = o.x + label_w + fh * 0.4f;
  const float class_w = bars_w * share / scale;
  dl->AddRectFilled(ImVec2(x0, o.y + fh * 0.1f), ImVec2(x0 + class_w, o.y + fh * 0.62f),
                    pal.histogram);
  const float model_w = bars_w * std::clamp(b.p, 0.0f, 1.0f) / scale;
  dl->AddRectFilled(ImVec2(x0, o.y + fh * 0.72f), ImVec2(x0 + std::max(model_w, 1.0f), o.y + fh),
                    pal.bar);
  env.log.note_drawn("poll_bar", b.piece, x0, o.y, bars_w, fh, std::to_string(b.count));
  const std::string nums = bar_numbers(b);
  ImGui::SameLine();
  ImGui::SetCursorScreenPos(ImVec2(o.x + label_w + bars_w + fh * 0.8f, o.y));
  ImGui::TextUnformatted(nums.c_str());
  note_text_item(env.log, nums);
}

// The class's guesses beside the model's: one row per first token, most guessed first. With
// `fit`, only the rows that fit the panel's height (the others are counted in one line).
void guesses(const PanelEnv& env, const PollPanelState& own, float width, bool fit) {
  const Palette& pal = palette(env.prefs.theme);
  if (own.bars.empty()) {
    line(env, FontRole::Regular, own.answered > 0 ? "No guess gave a token." : "No guesses yet.",
         "poll_empty", width);
    return;
  }
  like_model(env, own);
  line(env, FontRole::Small, "thick: the share of the class · thin: the model's probability",
       "poll_legend", width);
  const float fh = ImGui::GetFontSize();
  const int n = static_cast<int>(own.bars.size());
  int rows = std::min(kMaxBars, n);
  if (fit) {
    const float row_h = ImGui::GetTextLineHeightWithSpacing();
    const int room = static_cast<int>(ImGui::GetContentRegionAvail().y / row_h);
    rows = std::clamp(rows, 0, std::max(1, rows < n || room < rows ? room - 1 : room));
  }
  float nums_w = 0;
  for (int i = 0; i < rows; ++i)
    nums_w = std::max(nums_w, ImGui::CalcTextSize(bar_numbers(own.bars[i]).c_str()).x);
  const float label_w = std::clamp(width * 0.25f, fh * 3.0f, fh * 7.0f);
  const float bars_w = std::max(fh * 2.0f, width - label_w - nums_w - fh * 1.2f);
  // Both bars on one scale: the share of the class that chose a token, the model's p of it.
  const float total = static_cast<float>(std::max(1, own.counted));
  float scale = 1e-6f;
  for (int i = 0; i < rows; ++i)
    scale = std::max({scale, static_cast<float>(own.bars[i].count) / total, own.bars[i].p});
  for (int i = 0; i < rows; ++i)
    bar_row(env, own.bars[i], static_cast<float>(own.bars[i].count) / total, scale, label_w,
            bars_w, pal);
  if (n > rows) {
    int others = 0;
    for (int i = rows; i < n; ++i) others += own.bars[i].count;
    line(env, FontRole::Small,
         "+" + count_text(n - rows, "other token", "other tokens") + " (" +
             count_text(others, "guess", "guesses") + ")",
         "poll_more", width);
  }
}

// The address students open, in large text.
void address(const PanelEnv& env, const PollPanelState& own, float width) {
  line(env, FontRole::Regular, "On your phone, open", "poll_hint", width);
  line(env, FontRole::Large, own.url, "poll_url", width);
}

void code_line(const PanelEnv& env, const PollPanelState& own, float width) {
  line(env, FontRole::Large, "Class code " + own.code, "poll_code", width);
}

}  // namespace

void draw_poll_panel(const Session&, const PanelEnv& env, PollPanelState& own, Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Poll)) return;
  if (!own.available) {
    wrapped_text(env.log,
                 "A web page cannot host the class poll: a browser cannot run a server. Use the "
                 "desktop app (tokenscope --poll 0.0.0.0:8080).");
    end_panel();
    return;
  }
  if (!own.running) {
    wrapped_text(env.log, own.notice.empty()
                              ? "No class poll is running: start one from the Poll menu, or "
                                "start tokenscope with --poll ADDR:PORT."
                              : own.notice);
    end_panel();
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fh = ImGui::GetFontSize();
  const float gap = fh;
  // Side by side (the code and the class code left, the rest right) when the text column keeps
  // 16 lines' width of room; else one column, the code last.
  const float code_h = fh * 1.5f + ImGui::GetStyle().ItemSpacing.y * 2;
  const float side = qr_side(own, std::min(avail.x * 0.4f, avail.y - code_h), avail.y - code_h);
  if (side > 0 && avail.x - side - gap >= fh * 16.0f) {
    ImGui::BeginGroup();
    draw_qr(env, own, side);
    code_line(env, own, side);
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    const float w = avail.x - side - gap;
    ImGui::BeginGroup();
    address(env, own, w);
    question_row(env, own, cmd, w);
    guesses(env, own, w, true);
    ImGui::EndGroup();
  } else {
    address(env, own, avail.x);
    code_line(env, own, avail.x);
    question_row(env, own, cmd, avail.x);
    guesses(env, own, avail.x, false);
    if (side > 0) draw_qr(env, own, qr_side(own, avail.x, avail.x));
  }
  end_panel();
}

}  // namespace ts
