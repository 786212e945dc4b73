// Settings file (see settings.h): nlohmann::json, written atomically (temp file + rename).
#include "app/settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "session/session.h"

namespace ts {
namespace {

using nlohmann::json;

const char* level_name(RecordLevel l) {
  switch (l) {
    case RecordLevel::Off:
      return "off";
    case RecordLevel::Summary:
      return "summary";
    case RecordLevel::Full:
      return "full";
  }
  return "full";
}

RecordLevel parse_level(const std::string& s) {
  if (s == "off") return RecordLevel::Off;
  if (s == "summary") return RecordLevel::Summary;
  return RecordLevel::Full;
}

json sampler_json(const SamplerSettings& s) {
  json order = json::array();
  for (StageKind k : s.order) order.push_back(stage_name(k));
  return json{{"label", s.label},
              {"temperature", s.temperature},
              {"top_k", s.top_k},
              {"top_p", s.top_p},
              {"min_p", s.min_p},
              {"repetition_penalty", s.repetition_penalty},
              {"frequency_penalty", s.frequency_penalty},
              {"presence_penalty", s.presence_penalty},
              {"penalty_last_n", s.penalty_last_n},
              {"seed", s.seed},
              {"order", order}};
}

template <class T>
void get(const json& j, const char* key, T& out) {
  if (j.contains(key)) out = j.at(key).get<T>();
}

SamplerSettings sampler_from(const json& j) {
  SamplerSettings s;
  get(j, "label", s.label);
  get(j, "temperature", s.temperature);
  get(j, "top_k", s.top_k);
  get(j, "top_p", s.top_p);
  get(j, "min_p", s.min_p);
  get(j, "repetition_penalty", s.repetition_penalty);
  get(j, "frequency_penalty", s.frequency_penalty);
  get(j, "presence_penalty", s.presence_penalty);
  get(j, "penalty_last_n", s.penalty_last_n);
  get(j, "seed", s.seed);
  if (j.contains("order")) {
    std::vector<StageKind> order;
    for (const json& k : j.at("order")) {
      Result<StageKind> r = parse_stage_kind(k.get<std::string>());
      if (r.ok()) order.push_back(r.value());
    }
    if (!order.empty()) s.order = order;
  }
  return s;
}

ThemeKind parse_theme(const std::string& s) {
  if (s == "dark") return ThemeKind::Dark;
  if (s == "projector") return ThemeKind::Projector;
  return ThemeKind::Light;
}

}  // namespace

std::string default_settings_path() {
  std::filesystem::path dir;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    dir = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    dir = std::filesystem::path(h) / ".config";
  else
    return "";
  return (dir / "tokenscope" / "settings.json").string();
}

SessionSettings capture_session_settings(const Session& s) {
  SessionSettings ss;
  if (s.has_model()) ss.model_path = s.model_info().path;
  ss.prompt = s.prompt();
  ss.has_prompt = true;
  ss.record_level = s.record_level();
  ss.max_tokens = s.max_tokens();
  ss.stops = s.stop_strings();
  for (int i = 0; i < s.lane_count(); ++i) ss.lanes.push_back(s.settings(i));
  return ss;
}

std::string settings_to_json(const UiState& ui, const SessionSettings& ss) {
  json panels = json::object();
  for (int i = 0; i < kPanelCount; ++i) panels[panel_title(static_cast<PanelId>(i))] = ui.show[i];
  json lanes = json::array();
  for (const SamplerSettings& s : ss.lanes) lanes.push_back(sampler_json(s));
  json j = {
      {"version", 1},
      {"ui",
       {{"font_size", ui.font_size},
        {"theme", theme_name(ui.theme)},
        {"panels", panels},
        {"play_speed", ui.play_speed},
        {"selected_layer", ui.selected_layer},
        {"selected_head", ui.selected_head},
        {"selected_lane", ui.selected_lane},
        {"dist_top_n", ui.dist_top_n},
        {"dist_stage", ui.dist_stage == DistStage::Raw     ? "raw"
                       : ui.dist_stage == DistStage::Stage ? "stage"
                                                           : "final"},
        {"dist_stage_index", ui.dist_stage_index},
        {"dist_log_scale", ui.dist_log_scale},
        {"color_chips_by_p", ui.color_chips_by_p},
        {"show_position_numbers", ui.show_position_numbers},
        {"predict_then_reveal", ui.predict_then_reveal},
        {"histogram_samples", ui.histogram_samples},
        {"attention_all_heads", ui.attention_all_heads},
        {"attention_log_scale", ui.attention_log_scale}}},
      {"session",
       {{"model", ss.model_path},
        {"tokenizer", ss.tokenizer_path},
        {"prompt", ss.prompt},
        {"record_level", level_name(ss.record_level)},
        {"max_tokens", ss.max_tokens},
        {"stops", ss.stops},
        {"lanes", lanes}}},
  };
  return j.dump(2);
}

Status settings_from_json(const std::string& text, UiState& ui, SessionSettings& ss) {
  try {
    const json j = json::parse(text);
    if (j.contains("ui")) {
      const json& u = j.at("ui");
      get(u, "font_size", ui.font_size);
      if (u.contains("theme")) ui.theme = parse_theme(u.at("theme").get<std::string>());
      if (u.contains("panels"))
        for (int i = 0; i < kPanelCount; ++i)
          get(u.at("panels"), panel_title(static_cast<PanelId>(i)), ui.show[i]);
      get(u, "play_speed", ui.play_speed);
      get(u, "selected_layer", ui.selected_layer);
      get(u, "selected_head", ui.selected_head);
      get(u, "selected_lane", ui.selected_lane);
      get(u, "dist_top_n", ui.dist_top_n);
      if (u.contains("dist_stage")) {
        const std::string v = u.at("dist_stage").get<std::string>();
        ui.dist_stage = v == "raw"     ? DistStage::Raw
                        : v == "stage" ? DistStage::Stage
                                       : DistStage::Final;
      }
      get(u, "dist_stage_index", ui.dist_stage_index);
      get(u, "dist_log_scale", ui.dist_log_scale);
      get(u, "color_chips_by_p", ui.color_chips_by_p);
      get(u, "show_position_numbers", ui.show_position_numbers);
      get(u, "predict_then_reveal", ui.predict_then_reveal);
      get(u, "histogram_samples", ui.histogram_samples);
      get(u, "attention_all_heads", ui.attention_all_heads);
      get(u, "attention_log_scale", ui.attention_log_scale);
    }
    if (j.contains("session")) {
      const json& s = j.at("session");
      get(s, "model", ss.model_path);
      get(s, "tokenizer", ss.tokenizer_path);
      if (s.contains("prompt")) {
        ss.prompt = s.at("prompt").get<std::string>();
        ss.has_prompt = true;
      }
      if (s.contains("record_level"))
        ss.record_level = parse_level(s.at("record_level").get<std::string>());
      get(s, "max_tokens", ss.max_tokens);
      get(s, "stops", ss.stops);
      if (s.contains("lanes")) {
        ss.lanes.clear();
        for (const json& l : s.at("lanes")) ss.lanes.push_back(sampler_from(l));
      }
    }
  } catch (const std::exception& e) {
    return make_error(std::string("settings: ") + e.what());
  }
  ui.font_size = std::clamp(ui.font_size, 10.0f, 64.0f);
  ui.play_speed = std::clamp(ui.play_speed, 0.25f, 30.0f);
  ui.dist_top_n = std::clamp(ui.dist_top_n, 3, 64);
  ui.histogram_samples = std::clamp(ui.histogram_samples, 10, 100000);
  return ok_status();
}

Status save_settings(const std::string& path, const UiState& ui, const SessionSettings& ss) {
  if (path.empty()) return make_error("no settings path (HOME is not set)");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) return make_error("cannot write " + tmp);
    f << settings_to_json(ui, ss) << '\n';
    if (!f) return make_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return make_error("cannot replace " + path + ": " + ec.message());
  return ok_status();
}

Status load_settings(const std::string& path, UiState& ui, SessionSettings& ss) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return ok_status();
  std::ifstream f(path, std::ios::binary);
  if (!f) return make_error("cannot read " + path);
  std::ostringstream text;
  text << f.rdbuf();
  Status st = settings_from_json(text.str(), ui, ss);
  if (!st.ok()) return make_error(st.error().message + " (in " + path + ")");
  return ok_status();
}

}  // namespace ts
