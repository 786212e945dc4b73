// Compare panel: the session's lanes (2-4 samplers over one model, prompt and seed) side by side,
// each with its whole text up to the cursor, wrapped, the first step where the lanes' choices
// differ outlined in every text, and below, side by side, the distribution each lane drew from at
// that step (at the cursor while they agree). Buttons add a lane from presets or remove one (as
// commands). The side runs (beam search, speculative decoding) made from this prompt follow
// as rows of their own, their text set against lane 0's. Reads the session only.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/panels/dist_stats.h"
#include "app/panels/panels.h"
#include "app/theme.h"
#include "app/view.h"
#include "app/widgets/charts.h"
#include "app/widgets/text_fit.h"
#include "app/widgets/text_flow.h"
#include "app/widgets/token_run.h"
#include "app/widgets/units.h"
#include "imgui.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/side_runs.h"

namespace ts {
namespace {

struct Preset {
  const char* label;
  float temperature;
  int top_k;
  float top_p;
  float min_p;
};

constexpr Preset kPresets[] = {
    {"greedy", 0.0f, 0, 1.0f, 0.0f},         {"temperature 0.8", 0.8f, 0, 1.0f, 0.0f},
    {"temperature 1.5", 1.5f, 0, 1.0f, 0.0f}, {"top-k 40", 1.0f, 40, 1.0f, 0.0f},
    {"top-p 0.9", 1.0f, 0, 0.9f, 0.0f},       {"min-p 0.1", 1.0f, 0, 1.0f, 0.1f},
};

SamplerSettings preset_settings(const Preset& p, uint64_t seed) {
  SamplerSettings s;
  s.label = p.label;
  stage<Temperature>(s).t = p.temperature;
  stage<TopK>(s).k = p.top_k;
  stage<TopP>(s).p = p.top_p;
  stage<MinP>(s).p = p.min_p;
  s.seed = seed;
  return s;
}

// The lane's name as lessons and the screenshot report call it: its label, else "lane N".
std::string lane_name(const Session& s, int lane) {
  const std::string& l = settings(s, lane).label;
  return l.empty() ? "lane " + std::to_string(lane) : l;
}

// One lane's continuation (the generated tokens, without the shared prompt) as running text
// kept at its newest token (widgets/token_run.h): tokens from the first divergence on tinted,
// the divergence itself outlined, the stop reason at the end.
void lane_text(const std::vector<PathToken>& toks, const std::string& name, int diverge, ImU32 tint,
               ImU32 mark, float box_h, const char* stop, const PanelEnv& env, const Palette& pal) {
  std::vector<RunToken> run;
  for (const PathToken& t : toks) {
    if (t.is_prompt) continue;
    RunToken r;
    r.text = running_piece(t.display);
    r.display = t.display;
    r.tinted = diverge >= 0 && t.step >= diverge;
    r.outlined = t.step == diverge;
    r.forced = t.forced;
    run.push_back(std::move(r));
  }
  TokenRunStyle st;
  st.kind = "lane";
  st.name = name;
  st.tint = tint;
  st.mark = mark;
  const std::string note = stop ? std::string("stopped: ") + stop : std::string();
  st.end_note = stop ? note.c_str() : nullptr;
  draw_token_run("text", run, box_h, st, pal, env.log);
}

// The lane's header line: colour swatch and name, what it chose at `step` (its probability and
// rank in the distribution it drew from: the raw model's for a greedy lane), a remove button.
void lane_header(const Session& s, int lane, int step, const PanelEnv& env, Commands& cmd,
                 const Palette& pal) {
  const float fs = app_font(FontRole::Small)->FontSize;
  const ImU32 col = lane_color(pal, lane);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(fs * 0.8f, fs));
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.15f),
                                            ImVec2(p.x + fs * 0.7f, p.y + fs * 0.85f), col);
  ImGui::SameLine();
  const std::string name = lane_name(s, lane);
  ImGui::PushFont(app_font(FontRole::Small));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text));
  fit_text(env.log, name, ImGui::GetContentRegionAvail().x * 0.45f);
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", describe(settings(s, lane)).c_str());
  const Step* st = step >= 0 ? step_at(s, lane, step) : nullptr;
  if (st) {
    const SamplingRecord& rec = st->sampling;
    const bool raw = rec.draw.greedy;
    const ViewStats vs = raw ? raw_stats(rec, st->token) : final_stats(*st);
    std::string info = "step " + std::to_string(step) + ": " + st->display;
    if (st->forced)
      info += " (forced)";
    else if (vs.p_known)
      info += ", p " + percent_text(vs.p) + ", rank " + std::to_string(vs.rank);
    ImGui::SameLine(0, fs);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
    const float room = ImGui::GetContentRegionAvail().x - (lane_count(s) > 1 ? fs * 2.4f : 0.0f);
    fit_text(env.log, info, room);
    note_last_item(env.log, "text", info);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", raw ? "a greedy lane: its probability and rank in the raw model"
                                  : "its probability and rank in the distribution it drew from");
  }
  if (lane_count(s) > 1) {  // right-aligned, wholly inside the panel
    const float bw = ImGui::CalcTextSize("\xC3\x97").x + ImGui::GetStyle().FramePadding.x * 2.0f;
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - bw);
    if (ImGui::SmallButton("\xC3\x97")) cmd.push(cmd::RemoveLane{lane});  // "×"
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this lane");
    note_last_item(env.log, "lane_remove", std::to_string(lane));
  }
  ImGui::PopFont();
}

// A side run drawn as a row beside the lanes (session/side_runs.h): beam search and speculative
// decoding ran from the same prompt, so their continuations read against the lanes': "beam is
// not the best sample", a beam that repeats itself, speculative greedy equal to the target's.
struct SideRow {
  std::string name;         // the row's name, as lanes have theirs ("beam 3", "speculative")
  std::string info;         // its numbers, computed by the run
  std::vector<int> tokens;  // the continuation, without the prompt
  StopReason stop = StopReason::None;
};

double beam_sum(const BeamResult& r) { return r.best >= 0 ? r.nodes[r.best].sum_log_p : 0.0; }

// The side runs made from the current prompt (a run for another prompt is not shown here).
std::vector<SideRow> side_rows(const Session& s) {
  std::vector<SideRow> out;
  const SideRuns& r = s.side_runs();
  char buf[256];
  if (r.beam && side_run_current(s, r.beam->prompt)) {
    const BeamRun& b = *r.beam;
    std::snprintf(buf, sizeof buf, "width %d, penalty %.1f: \xCE\xA3 log p %.2f (greedy %.2f)",
                  b.settings.width, b.settings.length_penalty, beam_sum(b.result),
                  beam_sum(b.greedy));
    std::string info = buf;
    if (!b.constraint.empty()) info += "; kept to " + b.constraint;
    out.push_back(
        {"beam " + std::to_string(b.settings.width), info, b.result.best_tokens, b.result.stop});
  }
  if (r.spec && side_run_current(s, r.spec->prompt)) {
    const SpecRun& sp = *r.spec;
    std::snprintf(buf, sizeof buf, "k %d, draft %s: %.0f%% of drafts kept, %.2f tokens a pass",
                  sp.settings.k, sp.draft_name.c_str(), 100.0 * sp.result.acceptance_rate(),
                  sp.result.tokens_per_target_pass());
    out.push_back({"speculative", buf, sp.result.tokens, sp.result.stop});
  }
  return out;
}

// A side row's header: a hollow swatch (not a lane of the session), its name and numbers.
void side_header(const SideRow& row, const PanelEnv& env, const Palette& pal) {
  const float fs = app_font(FontRole::Small)->FontSize;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(fs * 0.8f, fs));
  ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x, p.y + fs * 0.15f),
                                      ImVec2(p.x + fs * 0.7f, p.y + fs * 0.85f), pal.text_dim, 0.0f,
                                      0, std::max(1.0f, fs * 0.1f));
  ImGui::SameLine();
  ImGui::PushFont(app_font(FontRole::Small));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text));
  fit_text(env.log, row.name, ImGui::GetContentRegionAvail().x * 0.3f);
  ImGui::PopStyleColor();
  ImGui::SameLine(0, fs);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
  fit_text(env.log, row.info, ImGui::GetContentRegionAvail().x);
  note_last_item(env.log, "side_info", row.info);
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Run from the Beam & speculative panel on this prompt; its text is set "
        "against lane 0's: the first token where they differ is outlined.");
  ImGui::PopFont();
}

// A side row's continuation, the first token where it leaves lane 0's outlined.
void side_text(const Session& s, const SideRow& row, const std::vector<int>& lane0, float box_h,
               const PanelEnv& env, const Palette& pal) {
  int diverge = -1;
  for (size_t i = 0; i < row.tokens.size() && diverge < 0; ++i)
    if (i >= lane0.size() || row.tokens[i] != lane0[i]) diverge = static_cast<int>(i);
  std::vector<RunToken> run;
  for (size_t i = 0; i < row.tokens.size(); ++i) {
    RunToken r;
    r.display = piece_display(s, row.tokens[i]);
    r.text = running_piece(r.display);
    r.tinted = diverge >= 0 && static_cast<int>(i) >= diverge;
    r.outlined = static_cast<int>(i) == diverge;
    run.push_back(std::move(r));
  }
  TokenRunStyle st;
  st.kind = "side";
  st.name = row.name;
  st.tint = mix_color(pal.text_dim, pal.window_bg, 0.8f);
  st.mark = pal.text;
  const std::string note = std::string("stopped: ") + stop_reason_name(row.stop);
  st.end_note = row.stop != StopReason::None ? note.c_str() : nullptr;
  draw_token_run("side", run, box_h, st, pal, env.log);
}

// "add lane...": the presets (same seed as lane 0: common random numbers, so differences come
// from the sampler alone), and the strategies that run beside the lanes (a row each).
void add_lane_menu(const Session& s, Commands& cmd) {
  const bool full = lane_count(s) >= kMaxLanes;
  if (full) ImGui::BeginDisabled();
  if (ImGui::Button("add lane...")) ImGui::OpenPopup("presets");
  if (full) ImGui::EndDisabled();
  if (!ImGui::BeginPopup("presets")) return;
  for (const Preset& p : kPresets)
    if (ImGui::Selectable(p.label)) cmd.push(cmd::AddLane{preset_settings(p, settings(s, 0).seed)});
  ImGui::Separator();
  if (ImGui::Selectable("beam search (width 3)")) cmd.push(cmd::Beam{3, 1.0, 0});
  const std::string& used = s.side_runs().draft_path;  // the draft run before, if any
  const std::string draft = used.empty() ? kDefaultDraftPath : used;
  const std::string label =
      "speculative decoding (draft " + std::filesystem::path(draft).filename().string() + ")";
  if (ImGui::Selectable(label.c_str())) cmd.push(cmd::Speculate{draft, 4, 0});
  ImGui::EndPopup();
}

// The line beside the button: what the rows below show, or where the lanes first part.
void compare_summary(const Session& s, int diverge, bool has_sides) {
  if (lane_count(s) < 2 && has_sides) {
    text_wrapped("One lane, and below it the runs made on this prompt, set against it.");
  } else if (lane_count(s) < 2) {
    text_wrapped(
        "One lane only. Add a lane (e.g. greedy next to temperature 0.8) to see "
        "where sampling choices make the texts part ways.");
  } else if (s.cursor() < 0) {
    text_wrapped("Press Step: all lanes share the prefill, then step together.");
  } else if (diverge >= 0) {
    text_wrapped("The lanes first choose differently at step %d.", diverge);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("That step's token is outlined in each lane's text while it is in view.");
  } else {
    text_wrapped("So far every lane chose the same tokens (step %d).", s.cursor());
  }
}

// The shared prompt once, on one line: its end, when long (it leads into the lanes).
void shared_prompt(const Session& s, const PanelEnv& env, const Palette& pal) {
  std::string prompt;
  for (const PathToken& t : path_tokens(s, 0, true))  // control tokens (<|endoftext|>) left out
    if (t.is_prompt && !s.tokenizer().is_special(t.id)) prompt += running_piece(t.display);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_dim));
  ImGui::TextUnformatted("prompt:");
  ImGui::SameLine();
  const float room = ImGui::GetContentRegionAvail().x;
  std::string shown = prompt;  // cut from the left
  while (shown.size() > 1 && ImGui::CalcTextSize(("…" + shown).c_str()).x > room) {
    size_t cut = 1;
    while (cut < shown.size() && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) ++cut;
    shown.erase(0, cut);
  }
  if (shown != prompt) shown = "…" + shown;
  ImGui::TextUnformatted(shown.c_str());
  ImGui::PopStyleColor();
  note_last_item(env.log, "text", shown);
}

// Lane i's row: its header, then its continuation kept at its newest token.
void lane_row(const Session& s, int i, int diverge, int dist_step, float box_h, const PanelEnv& env,
              Commands& cmd, const Palette& pal) {
  lane_header(s, i, dist_step, env, cmd, pal);
  const Step* cur = current_step(s, i);
  if (!cur) {
    ImGui::TextDisabled("(nothing generated yet)");
    return;
  }
  lane_text(path_tokens(s, i, true), lane_name(s, i), diverge,
            mix_color(lane_color(pal, i), pal.window_bg, 0.78f), lane_color(pal, i), box_h,
            cur->stop != StopReason::None ? stop_reason_name(cur->stop) : nullptr, env, pal);
}

}  // namespace

void draw_compare_panel(const Session& s, const PanelEnv& env, ComparePanelState& own,
                        Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Compare)) return;
  const Palette& pal = palette(env.prefs.theme);
  const float fs = ImGui::GetFontSize();
  if (!has_model(s)) {
    text_wrapped(
        "Load a model, then add lanes to run several samplers side by side on the "
        "same prompt and seed.");
    end_panel();
    return;
  }
  add_lane_menu(s, cmd);
  ImGui::SameLine();
  const int diverge = lane_count(s) > 1 ? first_divergence(s) : -1;
  const std::vector<SideRow> sides = s.cursor() >= 0 ? side_rows(s) : std::vector<SideRow>{};
  compare_summary(s, diverge, !sides.empty());
  // The shared prompt once, then one full-width row per lane: the label column, and the lane's
  // continuation wrapped across the rest, kept at its newest token.
  if (s.cursor() >= 0) shared_prompt(s, env, pal);
  const int n_lanes = lane_count(s);
  const int n = n_lanes + static_cast<int>(sides.size());
  const int dist_step = diverge >= 0 ? diverge : s.cursor();
  // The rows share the height in whole lines of text (a box kept at its newest line then never
  // shows half a line at its top): each lane's header line and separator first, then the lines.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float line_h = fs * 1.3f;
  const float head_h = app_font(FontRole::Small)->FontSize + st.ItemSpacing.y;
  const float per_lane = head_h + st.ItemSpacing.y * 2.0f + 1.0f;
  // (the estimate of the headers' height is corrected by what the last frame left unused)
  const int lines = std::max(
      n, static_cast<int>((ImGui::GetContentRegionAvail().y - n * per_lane) / line_h) + own.extra_lines);
  std::vector<int> lane0;  // lane 0's continuation, for the side rows
  for (const PathToken& t : path_tokens(s, 0, true))
    if (!t.is_prompt) lane0.push_back(t.id);
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    if (i > 0) ImGui::Separator();
    const float box_h = line_h * static_cast<float>(lines / n + (i < lines % n ? 1 : 0));
    if (i >= n_lanes) {
      const SideRow& row = sides[static_cast<size_t>(i - n_lanes)];
      side_header(row, env, pal);
      side_text(s, row, lane0, box_h, env, pal);
    } else {
      lane_row(s, i, diverge, dist_step, box_h, env, cmd, pal);
    }
    ImGui::PopID();
  }
  // Whole lines left below the last row go to the rows next frame, all at once (or taken back
  // when short), so the rows settle in a frame or two.
  const float spare = ImGui::GetContentRegionAvail().y;
  if (spare >= line_h)
    own.extra_lines += static_cast<int>(spare / line_h);
  else if (spare < 0 && lines > n)
    own.extra_lines -= std::min(lines - n, static_cast<int>(std::ceil(-spare / line_h)));
  end_panel();
}

}  // namespace ts
