// The panels' table (see panel_table.h). Each row's draw function hands the panel the shared
// PanelEnv and its own state, exactly the parts its signature in panels/panels.h names.
#include "app/panel_table.h"

#include "app/panels/panels.h"
#include "app/ui_state.h"

namespace ts {

namespace {

using C = Column;

constexpr std::array<PanelSpec, kPanelCount> kTable = {{
    {PanelId::Lesson, "Lesson", "lesson", "", "", C::Left, 6.0f, false,
     [](const Session& s, const LessonRunner* l, UiState& ui, Commands& c) {
       draw_lesson_panel(s, l, ui.env(), ui.lesson, c);
     }},
    {PanelId::Prompt, "Prompt & model", "prompt", "", "1", C::Left, 2.5f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_prompt_panel(s, ui.env(), ui.prompt, c);
     }},
    {PanelId::KvCache, "KV cache", "kv-cache", "", "6", C::Left, 2.0f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_kv_cache_panel(s, ui.env(), ui.kv, c);
     }},
    {PanelId::Model, "Model & logit lens", "model", "", "0", C::Left, 2.0f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_model_panel(s, ui.env(), c);
     }},
    {PanelId::Tokens, "Tokens", "tokens", "", "2", C::Centre, 0.8f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_tokens_panel(s, ui.env(), ui.tokens, c);
     }},
    {PanelId::Distribution, "Next token", "next-token", "distribution", "4", C::Centre, 2.2f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_distribution_panel(s, ui.env(), ui.dist, c);
     }},
    {PanelId::Compare, "Compare lanes", "compare", "", "8", C::Centre, 1.3f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_compare_panel(s, ui.env(), ui.compare, c);
     }},
    {PanelId::Attention, "Attention", "attention", "", "5", C::Right, 3.0f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_attention_panel(s, ui.env(), ui.attention, c);
     }},
    {PanelId::Cost, "Cost", "cost", "", "7", C::Right, 1.2f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_cost_panel(s, ui.env(), ui.cost, c);
     }},
    {PanelId::Why, "Why this token", "why", "", "", C::Right, 1.5f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_receipt_panel(s, ui.env(), ui.why, c);
     }},
    {PanelId::Branches, "Branches", "branches", "", "9", C::Right, 1.0f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_branches_panel(s, ui.env(), c);
     }},
    {PanelId::Transport, "Timeline", "timeline", "", "3", C::Special, 0.0f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_transport_panel(s, ui.env(), ui.timeline, c);
     }},
    {PanelId::Poll, "Class poll", "poll", "", "", C::Right, 2.0f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_poll_panel(s, ui.env(), ui.poll, c);
     }},
    {PanelId::Decoding, "Beam & speculative", "decoding", "", "", C::Right, 1.5f, false,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_decoding_panel(s, ui.env(), ui.decoding, c);
     }},
    {PanelId::Status, "Status", "status", "", "", C::Special, 0.0f, true,
     [](const Session& s, const LessonRunner*, UiState& ui, Commands& c) {
       draw_status_panel(s, ui.env(), ui.trace_view, c);
     }},
}};

// Each PanelId has exactly one row.
constexpr bool every_panel_once() {
  for (int i = 0; i < kPanelCount; ++i) {
    int rows = 0;
    for (const PanelSpec& p : kTable) rows += static_cast<int>(p.id) == i;
    if (rows != 1) return false;
  }
  return true;
}
static_assert(every_panel_once(), "every PanelId needs exactly one row in the panel table");

}  // namespace

const std::array<PanelSpec, kPanelCount>& panel_table() { return kTable; }

const PanelSpec& panel_spec(PanelId id) {
  for (const PanelSpec& p : kTable)
    if (p.id == id) return p;
  return kTable[0];  // unreachable: every id has a row (static_assert above)
}

std::vector<std::string> panel_lesson_names() {
  std::vector<std::string> out;
  for (const PanelSpec& p : kTable) {
    if (p.id == PanelId::Status) continue;  // not a panel lessons name
    out.push_back(p.lesson_name);
    if (*p.alias) out.push_back(p.alias);
  }
  return out;
}

}  // namespace ts
