// Prompt & model panel: the model (card line, picker of every .gguf found, a path field for any
// file), the editable prompt (kept in UiState as typed, so nothing is lost when applying fails),
// the sampler of each lane with its chain order (drag to reorder), generation limits (max tokens,
// stop strings) and the record level. Every change becomes a Command; rejected settings stay in
// the draft with the session's error message under them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <span>
#include <string>

#include "app/fonts.h"
#include "app/panels/panels.h"
#include "app/platform.h"
#include "app/theme.h"
#include "app/widgets/text_fit.h"
#include "base/utf8.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImGui::GetItemID
#include "imgui_stdlib.h"
#include "sampling/stage.h"
#include "session/chat_prompt.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {
namespace {

void heading(const char* text) {
  ImGui::Spacing();
  ImGui::PushFont(app_font(FontRole::Bold));
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
  ImGui::Separator();
}

std::string model_card(const Session& s) {
  const ModelConfig& c = config(s);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d layers · %d heads%s · d_model %d · vocab %d · context %d",
                c.n_layers, c.n_heads, c.n_kv_heads != c.n_heads ? " (GQA)" : "", c.d_model,
                c.vocab_size, c.n_ctx);
  return buf;
}

// The web page: the browser's own file picker, first thing under the model (not in the tree).
void picker_button(const PanelEnv& env, PromptPanelState& own) {
  if (!platform::has_model_picker()) return;
  if (ImGui::Button("Open from this device…")) platform::pick_model_file();
  note_last_item(env.log, "button", "choose model file");
}

void model_section(const Session& s, const PanelEnv& env, PromptPanelState& own, Commands& cmd) {
  heading("Model");
  if (has_model(s)) {
    const std::string name = display_label(
        config(s).name.empty() ? std::filesystem::path(model_info(s).path).filename().string()
                               : config(s).name);
    ImGui::TextUnformatted(name.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", model_card(s).c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette(env.prefs.theme).warning),
                       "No model loaded.");
    picker_button(env, own);
    text_wrapped("%s", env.status.no_model_hint.c_str());
  }
  if (!own.model_files.empty()) {
    const std::string current = has_model(s) ? model_info(s).path : "";
    const std::string preview =
        current.empty() ? "choose a model…" : std::filesystem::path(current).filename().string();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##models", preview.c_str())) {
      for (size_t i = 0; i < own.model_files.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        const std::string& f = own.model_files[i];
        if (ImGui::Selectable(std::filesystem::path(f).filename().string().c_str(), f == current))
          cmd.push(cmd::LoadModel{f, ""});
        if (ImGui::IsItemHovered()) {
          // Read from the file's header when the folder was scanned: what loading it would mean.
          const std::string note = i < own.model_notes.size() ? own.model_notes[i] : std::string();
          ImGui::SetTooltip("%s\n%s", f.c_str(), note.c_str());
        }
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  } else {
    ImGui::TextDisabled("No .gguf files in %s",
                        own.models_dir.empty() ? "models/" : own.models_dir.c_str());
  }
  if (has_model(s)) picker_button(env, own);
  if (own.open_model_popup) {
    ImGui::SetNextItemOpen(true);
    own.open_model_popup = false;
  }
  if (ImGui::TreeNodeEx("Open a model file", has_model(s) ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) {
    if (platform::has_model_picker()) ImGui::TextDisabled("a path inside the page:");
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5.5f);
    ImGui::InputTextWithHint("model", "/path/to/model.gguf or llama2.c .bin", &own.model_path_edit);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5.5f);
    ImGui::InputTextWithHint("tokenizer", "llama2.c tokenizer.bin (optional)",
                             &own.tokenizer_path_edit);
    ImGui::BeginDisabled(own.model_path_edit.empty());
    if (ImGui::Button("Load"))
      cmd.push(cmd::LoadModel{own.model_path_edit, own.tokenizer_path_edit});
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Rescan models")) own.want_rescan_models = true;
    ImGui::TreePop();
  }
}

void prompt_section(const Session& s, const PanelEnv& env, PromptPanelState& own, Commands& cmd) {
  heading("Prompt");
  // Two to four lines: as many as leave the Apply button above the panel's fold.
  const ImGuiStyle& gs = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  const float button_h = ImGui::GetFrameHeight() + gs.ItemSpacing.y * 2;
  const float room = ImGui::GetContentRegionAvail().y - button_h - gs.FramePadding.y * 2;
  const float lines = std::clamp(std::floor(room / line), 2.0f, 4.0f);
  const float h = line * lines + gs.FramePadding.y * 2;
  ImGui::InputTextMultiline("##prompt", &own.prompt_edit, ImVec2(-1, h));
  const bool edited = own.prompt_edit != prompt_text(s);
  if (ImGui::Button("Apply prompt")) cmd.push(cmd::SetPrompt{own.prompt_edit});
  ImGui::SameLine();
  if (edited)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette(env.prefs.theme).warning),
                       "edited, not applied yet");
  else if (has_model(s))
    ImGui::TextDisabled("%d tokens", static_cast<int>(prompt_tokens(s).size()));
  if (has_chat_template(s)) {
    // A chat model: the typed text as the user's message, through the model's own template.
    // Already a rendered chat (the box shows the prompt, its markers and all): sending it again
    // would wrap the template's text in a second template.
    const bool rendered = own.prompt_edit == prompt_text(s) && prompt_has_special_past_bos(s);
    if (rendered) ImGui::BeginDisabled();
    if (ImGui::Button("Send as a chat message")) cmd.push(cmd::Chat{own.prompt_edit, ""});
    if (rendered) ImGui::EndDisabled();
    const ImVec2 a = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
    env.log.note_drawn("chat_button", "Send as a chat message", a.x, a.y, size.x, size.y);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("The text becomes the user's turn of a conversation, rendered by this "
                        "model's chat template (tokenizer.chat_template): the prompt is then "
                        "exactly what the model reads, its special tokens included.");
  }
}

// One stage's controls from its parameter table: a single parameter is one slider labelled by
// it; several sit under a tree node named by the stage. Text parameters apply on Enter; a
// refused one is named in `warn` under its box.
template <class S, class Track>
void stage_sliders(S& s, Track& track, ImU32 warn) {
  const std::span<const Param<S>> params = S::params();
  const bool tree = params.size() > 1;
  if (tree && !ImGui::TreeNode(S::name(), "%s%s", S::name(), s.off() ? " (off)" : "")) return;
  for (const Param<S>& p : params) {
    const char* fmt_f = !tree && s.off() ? "off" : "%.2f";
    const char* fmt_i = !tree && s.off() ? "off" : "%d";
    switch (p.type()) {
      case ParamType::Float:
        track(ImGui::SliderFloat(p.label, &(s.*p.f), static_cast<float>(p.lo),
                                 static_cast<float>(p.hi), fmt_f));
        break;
      case ParamType::Int:
        track(ImGui::SliderInt(p.label, &(s.*p.i), static_cast<int>(p.lo),
                               static_cast<int>(p.hi), fmt_i));
        break;
      case ParamType::Text: {
        // A refused text (a regex that does not compile) keeps the old value and says why
        // under the box until a text is taken.
        static std::map<ImGuiID, std::string> refused;
        std::string text = p.get_text(s);
        const bool entered =
            ImGui::InputText(p.label, &text, ImGuiInputTextFlags_EnterReturnsTrue);
        const ImGuiID id = ImGui::GetItemID();
        const bool hovered = ImGui::IsItemHovered();
        bool taken = false;
        if (entered) {
          const Status st = p.set_text(s, text);
          taken = st.ok();
          if (taken)
            refused.erase(id);
          else
            refused[id] = st.error().message;
        }
        track(taken);
        if (hovered) ImGui::SetTooltip("%s", p.help);
        if (auto it = refused.find(id); it != refused.end())
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warn), "%s", it->second.c_str());
        continue;
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help);
  }
  if (tree) ImGui::TreePop();
}

// "+ stage": any stage kind, added off where a spec key would add it (stage_insert_at).
bool add_stage_menu(SamplerSettings& st) {
  bool added = false;
  if (ImGui::BeginCombo("add stage", "choose", ImGuiComboFlags_HeightLarge)) {
    for (int k = 0; k < kStageCount; ++k) {
      const auto kind = static_cast<StageKind>(k);
      if (ImGui::Selectable(stage_name(kind))) {
        const size_t at = stage_insert_at(st.chain, kind);
        st.chain.insert(st.chain.begin() + static_cast<std::ptrdiff_t>(at), default_stage(kind));
        added = true;
      }
    }
    ImGui::EndCombo();
  }
  return added;
}

// The chain order as chips joined by arrows; drag a chip onto another to swap them.
bool chain_order(SamplerSettings& st, const Palette& pal) {
  bool changed = false;
  for (size_t i = 0; i < st.chain.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const char* name = stage_name(kind_of(st.chain[i]));
    const float w = ImGui::CalcTextSize(name).x + ImGui::GetStyle().FramePadding.x * 2;
    if (i > 0) {
      if (ImGui::GetContentRegionAvail().x < w + ImGui::CalcTextSize(" → ").x) ImGui::NewLine();
      ImGui::TextDisabled("→");
      ImGui::SameLine();
    }
    ImGui::SmallButton(name);
    if (ImGui::BeginDragDropSource()) {
      const int src = static_cast<int>(i);
      ImGui::SetDragDropPayload("TS_STAGE", &src, sizeof src);
      ImGui::TextUnformatted(name);
      ImGui::EndDragDropSource();
    }
    if (ImGui::BeginDragDropTarget()) {
      if (const ImGuiPayload* p = ImGui::AcceptDragDropPayload("TS_STAGE")) {
        const int src = *static_cast<const int*>(p->Data);
        if (src >= 0 && src < static_cast<int>(st.chain.size()) && src != static_cast<int>(i)) {
          std::swap(st.chain[src], st.chain[i]);
          changed = true;
        }
      }
      ImGui::EndDragDropTarget();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("drag onto another stage to swap them; right-click to remove");
    if (ImGui::BeginPopupContextItem("stage_menu")) {
      if (st.chain.size() > 1 && ImGui::MenuItem("remove this stage")) {
        st.chain.erase(st.chain.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
      }
      ImGui::EndPopup();
    }
    if (changed) {  // the chain changed under the loop: draw it next frame
      ImGui::PopID();
      break;
    }
    ImGui::SameLine();
    ImGui::PopID();
  }
  ImGui::TextDisabled("→");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "%s",
                     greedy(st) ? "greedy pick" : "draw");
  return changed;
}

void lane_settings(const Session& s, const PanelEnv& env, PromptPanelState& own, Commands& cmd,
                   int lane) {
  SamplerDraft& d = own.sampler_drafts[lane];
  if (!d.dirty) d.settings = ts::settings(s, lane);
  SamplerSettings& st = d.settings;
  bool edited = false;  // a value changed this frame
  bool commit = false;  // an edit finished: apply it
  auto track = [&](bool changed) {
    edited |= changed;
    commit |= ImGui::IsItemDeactivatedAfterEdit();
  };
  const float w = ImGui::GetFontSize() * 9.0f;
  ImGui::PushItemWidth(w);
  track(ImGui::InputText("label", &st.label));
  // Each stage of the chain with its parameters, drawn from its descriptor (stage_param.h).
  for (size_t i = 0; i < st.chain.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    std::visit([&](auto& v) { stage_sliders(v, track, palette(env.prefs.theme).warning); },
               st.chain[i]);
    ImGui::PopID();
  }
  if (add_stage_menu(st)) {
    edited = true;
    commit = true;
  }
  track(ImGui::InputScalar("seed", ImGuiDataType_U64, &st.seed));
  ImGui::PopItemWidth();
  ImGui::TextDisabled("chain:");
  ImGui::SameLine();
  if (chain_order(st, palette(env.prefs.theme))) {
    edited = true;
    commit = true;
  }
  ImGui::NewLine();
  if (edited) d.dirty = true;
  if (commit) cmd.push(cmd::BranchSampler{lane, st});
  if (!d.error.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette(env.prefs.theme).error), "%s",
                       d.error.c_str());
  if (d.dirty && !commit) {
    if (ImGui::SmallButton("apply")) cmd.push(cmd::BranchSampler{lane, st});
    ImGui::SameLine();
    if (ImGui::SmallButton("revert")) {
      d.dirty = false;
      d.error.clear();
    }
  }
}

SamplerSettings preset(int which) {
  SamplerSettings s;
  switch (which) {
    case 0:
      s.label = "greedy";
      stage<Temperature>(s).t = 0.0f;
      break;
    case 1:
      s.label = "T=0.7 top-k 40";
      stage<Temperature>(s).t = 0.7f;
      stage<TopK>(s).k = 40;
      break;
    case 2:
      s.label = "top-p 0.9";
      stage<TopP>(s).p = 0.9f;
      break;
    default:
      s.label = "T=1.5";
      stage<Temperature>(s).t = 1.5f;
      break;
  }
  return s;
}

void sampler_section(const Session& s, const PanelEnv& env, PromptPanelState& own, Commands& cmd) {
  heading("Sampler");
  const int n = has_model(s) ? lane_count(s) : 0;
  if (n == 0) {
    ImGui::TextDisabled("Load a model to set up the sampler.");
    return;
  }
  if (static_cast<int>(own.sampler_drafts.size()) != n) own.sampler_drafts.resize(n);
  if (n == 1) {
    lane_settings(s, env, own, cmd, 0);
  } else if (ImGui::BeginTabBar("lanes")) {
    const Palette& pal = palette(env.prefs.theme);
    for (int i = 0; i < n; ++i) {
      ImGui::PushID(i);
      const std::string label =
          settings(s, i).label.empty() ? "lane " + std::to_string(i) : settings(s, i).label;
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lane_color(pal, i)));
      const bool open = ImGui::BeginTabItem(label.c_str());
      ImGui::PopStyleColor();
      if (open) {
        env.sel.selected_lane = i;
        lane_settings(s, env, own, cmd, i);
        if (ImGui::Button("Remove this lane")) cmd.push(cmd::RemoveLane{i});
        ImGui::EndTabItem();
      }
      ImGui::PopID();
    }
    ImGui::EndTabBar();
  }
  ImGui::BeginDisabled(n >= kMaxLanes);
  if (ImGui::Button("Add a lane…")) ImGui::OpenPopup("add_lane");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Lanes: several samplers over one prompt, stepping together (up to %d)",
                      kMaxLanes);
  if (ImGui::BeginPopup("add_lane")) {
    for (int p = 0; p < 4; ++p) {
      ImGui::PushID(p);
      const SamplerSettings st = preset(p);
      if (ImGui::Selectable(st.label.c_str())) cmd.push(cmd::AddLane{st});
      ImGui::PopID();
    }
    ImGui::EndPopup();
  }
}

std::vector<std::string> parse_stops(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    std::string un;  // "\n" and "\t" typed as two characters mean a newline / tab
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == 'n' || line[i + 1] == 't')) {
        un += line[i + 1] == 'n' ? '\n' : '\t';
        ++i;
      } else {
        un += line[i];
      }
    }
    if (!un.empty()) out.push_back(un);
    start = end + 1;
  }
  return out;
}

std::string join_stops(const std::vector<std::string>& stops) {
  std::string out;
  for (const std::string& st : stops) {
    if (!out.empty()) out += '\n';
    for (char c : st) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else
        out += c;
    }
  }
  return out;
}

void generation_section(const Session& s, const PanelEnv& env, PromptPanelState& own,
                        Commands& cmd) {
  heading("Generation");
  if (!has_model(s)) return;
  if (!own.max_tokens_dirty) own.max_tokens_edit = max_tokens(s);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::InputInt("max new tokens", &own.max_tokens_edit)) own.max_tokens_dirty = true;
  if (own.max_tokens_dirty && !ImGui::IsItemActive()) {  // typed and left, or +/- clicked
    cmd.push(cmd::SetMaxTokens{own.max_tokens_edit});
    own.max_tokens_dirty = false;
  }
  if (!own.stops_dirty) own.stops_edit = join_stops(stop_strings(s));
  const float h = ImGui::GetTextLineHeight() * 2.0f + ImGui::GetStyle().FramePadding.y * 2;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::InputTextMultiline("stop strings", &own.stops_edit,
                                ImVec2(ImGui::GetFontSize() * 9.0f, h)))
    own.stops_dirty = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("one per line; \\n means a newline");
  if (ImGui::IsItemDeactivatedAfterEdit())
    cmd.push(cmd::SetStopStrings{parse_stops(own.stops_edit)});
  const char* const levels[] = {"off", "summary", "full"};
  int level = static_cast<int>(record_level(s));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::Combo("record", &level, levels, 3))
    cmd.push(cmd::SetRecordLevel{static_cast<RecordLevel>(level)});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("full: attention maps and logit lens; summary: logits and costs only");
}

}  // namespace

void draw_prompt_panel(const Session& s, const PanelEnv& env, PromptPanelState& own,
                       Commands& cmd) {
  if (!begin_panel(env, cmd, PanelId::Prompt)) return;
  model_section(s, env, own, cmd);
  prompt_section(s, env, own, cmd);
  sampler_section(s, env, own, cmd);
  generation_section(s, env, own, cmd);
  end_panel();
}

}  // namespace ts
