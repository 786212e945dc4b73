// Settings file (see settings.h): nlohmann::json, written atomically (temp file + rename) over a
// regular file or a new one only. A damaged file is read field by field (or, when it does not
// parse, searched for the prompt), moved aside as settings.json.bad-DATE, and reported.
#include "app/settings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

#include "base/atomic_write.h"
#include "base/read_file.h"
#include "sampling/sampler_fields.h"
#include "session/session.h"
#include "session/session_access.h"

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

// Field by field: a value of the wrong type is noted in `bad` and skipped, so one damaged field
// never loses the others (the prompt above all).
thread_local std::vector<std::string>* g_bad = nullptr;  // set while settings_from_json runs (one thread)

template <class T>
void get(const json& j, const char* key, T& out) {
  if (!j.is_object() || !j.contains(key)) return;
  try {
    T v = j.at(key).get<T>();
    out = std::move(v);
  } catch (const json::exception&) {
    if (g_bad) g_bad->push_back(key);
  }
}

std::string get_string(const json& j, const char* key, const std::string& fallback) {
  std::string v = fallback;
  get(j, key, v);
  return v;
}

// A lane's sampler settings: the field list of sampling/sampler_fields.h, written as plain JSON
// values and read field by field as above (a damaged field keeps its default).
struct SamplerWriter {
  json j = json::object();
  template <class T>
  void operator()(const char* key, const T& v) {
    j[key] = v;
  }
  void bytes(const char* key, const std::string& s) { j[key] = s; }
  void stage_kinds(const char* key, const std::vector<StageKind>& v) {
    json names = json::array();
    for (StageKind k : v) names.push_back(stage_name(k));
    j[key] = std::move(names);
  }
  void chain(const char* key, const std::vector<Stage>& stages, bool has) {
    if (!has) return;
    json a = json::array();
    for (const Stage& st : stages) {
      SamplerWriter w;
      w.j["kind"] = stage_name(kind_of(st));
      std::visit([&](const auto& v) { stage_fields(w, v); }, st);
      a.push_back(std::move(w.j));
    }
    j[key] = std::move(a);
  }
};

// One stage's parameters, all present and of the right type, or ok = false.
struct StageParamsReader {
  const json& j;
  bool ok = true;
  template <class T>
  void operator()(const char* key, T& v) {
    try {
      v = j.at(key).get<T>();
    } catch (const json::exception&) {
      ok = false;
    }
  }
  void bytes(const char* key, std::string& s) { (*this)(key, s); }  // a text parameter
};

struct SamplerReader {
  const json& j;
  template <class T>
  void operator()(const char* key, T& v) {
    get(j, key, v);
  }
  void bytes(const char* key, std::string& s) { get(j, key, s); }
  void stage_kinds(const char* key, std::vector<StageKind>& v) {  // unknown names are skipped
    std::vector<std::string> names;
    get(j, key, names);
    std::vector<StageKind> kinds;
    for (const std::string& k : names) {
      Result<StageKind> r = parse_stage_kind(k);
      if (r.ok()) kinds.push_back(r.value());
    }
    if (!kinds.empty()) v = kinds;
  }
  // All or nothing: a damaged chain is noted and the flat fields beside it are used instead.
  void chain(const char* key, std::vector<Stage>& stages, bool& has) {
    if (!j.is_object() || !j.contains(key)) return;
    const json& a = j.at(key);
    std::vector<Stage> out;
    bool ok = a.is_array();
    for (size_t i = 0; ok && i < a.size(); ++i) {
      const json& e = a[i];
      ok = e.is_object() && e.contains("kind") && e.at("kind").is_string();
      Result<StageKind> kind = parse_stage_kind(ok ? e.at("kind").get<std::string>() : "");
      ok = ok && kind.ok();
      if (!ok) break;
      Stage st = default_stage(kind.value());
      StageParamsReader r{e};
      std::visit([&](auto& v) { stage_fields(r, v); }, st);
      ok = r.ok;
      out.push_back(st);
    }
    if (!ok) {
      if (g_bad) g_bad->push_back(key);
      return;
    }
    stages = std::move(out);
    has = true;
  }
};

json sampler_json(const SamplerSettings& s) {
  SamplerWriter w;
  write_sampler(w, s);
  return std::move(w.j);
}

SamplerSettings sampler_from(const json& j) {
  SamplerSettings s;
  SamplerReader r{j};
  read_sampler(r, s);
  return s;
}

constexpr uint64_t kMaxSettingsBytes = uint64_t{1} << 20;

// The JSON string value of the first "key": "..." in text that does not parse as a whole (a
// truncated file keeps what was written of its value).
std::optional<std::string> salvage_string(const std::string& text, const std::string& key) {
  const std::string quoted_key = "\"" + key + "\"";
  size_t at = text.find(quoted_key);
  while (at != std::string::npos) {
    size_t k = at + quoted_key.size();
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    if (k < text.size() && text[k] == ':') {
      ++k;
      while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
      if (k >= text.size() || text[k] != '"') return std::nullopt;
      size_t e = k + 1;
      while (e < text.size() && text[e] != '"') e += text[e] == '\\' ? 2 : 1;
      std::string literal = text.substr(k, std::min(e, text.size()) - k);
      // Cut: drop a dangling escape so the literal closes.
      for (size_t cut = 0; cut < 8 && !literal.empty(); ++cut) {
        try {
          return json::parse(literal + "\"").get<std::string>();
        } catch (const json::exception&) {
          literal.pop_back();
        }
      }
      return std::nullopt;
    }
    at = text.find(quoted_key, at + 1);
  }
  return std::nullopt;
}

// settings.json -> settings.json.bad-20261124-173502 (a number appended if that exists).
Result<std::string> move_aside(const std::string& path) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm {};
  gmtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  std::string bad = path + ".bad-" + stamp;
  std::error_code ec;
  for (int n = 2; std::filesystem::exists(bad, ec) && n < 100; ++n) {
    bad = path + ".bad-" + stamp + "-" + std::to_string(n);
  }
  std::filesystem::rename(path, bad, ec);
  if (ec) return make_error(ec.message());
  return bad;
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
  if (has_model(s)) ss.model_path = model_info(s).path;
  ss.prompt = prompt_text(s);
  ss.has_prompt = true;
  ss.record_level = ts::record_level(s);
  ss.max_tokens = ts::max_tokens(s);
  ss.stops = stop_strings(s);
  for (int i = 0; i < lane_count(s); ++i) ss.lanes.push_back(settings(s, i));
  return ss;
}

std::string settings_to_json(const UiState& ui, const SessionSettings& ss) {
  json panels = json::object();
  for (int i = 0; i < kPanelCount; ++i)
    panels[panel_title(static_cast<PanelId>(i))] = ui.prefs.show[i];
  json lanes = json::array();
  for (const SamplerSettings& s : ss.lanes) lanes.push_back(sampler_json(s));
  json weights = json::object();  // only the panels the teacher resized
  for (int i = 0; i < kPanelCount; ++i)
    if (ui.prefs.layout_prefs.weight[i] > 0)
      weights[panel_lesson_name(static_cast<PanelId>(i))] = ui.prefs.layout_prefs.weight[i];
  json j = {
      {"version", 1},
      {"ui",
       {{"font_size", ui.prefs.font_size},
        {"theme", theme_name(ui.prefs.theme)},
        {"panels", panels},
        {"play_speed", ui.timeline.play_speed},
        {"selected_layer", ui.sel.selected_layer},
        {"selected_head", ui.sel.selected_head},
        {"selected_lane", ui.sel.selected_lane},
        {"dist_top_n", ui.dist.top_n},
        {"dist_stage", ui.dist.stage == DistStage::Raw     ? "raw"
                       : ui.dist.stage == DistStage::Stage ? "stage"
                                                           : "final"},
        {"dist_stage_index", ui.dist.stage_index},
        {"dist_log_scale", ui.dist.log_scale},
        {"color_chips_by_p", ui.prefs.color_chips_by_p},
        {"show_position_numbers", ui.prefs.show_position_numbers},
        {"predict_then_reveal", ui.sel.predict_then_reveal},
        {"histogram_samples", ui.dist.histogram_samples},
        {"attention_all_heads", ui.attention.all_heads},
        {"attention_log_scale", ui.attention.log_scale},
        {"kv_no_cache", ui.kv.no_cache},
        {"focus", ui.prefs.focus_panel >= 0 && ui.prefs.focus_panel < kPanelCount
                      ? panel_lesson_name(static_cast<PanelId>(ui.prefs.focus_panel))
                      : ""},
        {"layout",
         {{"columns", ui.prefs.layout_prefs.columns},
          {"lesson_width", ui.prefs.layout_prefs.lesson_width},
          {"weights", weights}}}}},
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

namespace {

// The "ui" section's fields into ui (a field of the wrong type is noted in g_bad, then kept).
void read_ui_section(const json& u, UiState& ui) {
  get(u, "font_size", ui.prefs.font_size);
  ui.prefs.theme = parse_theme(get_string(u, "theme", theme_name(ui.prefs.theme)));
  if (u.is_object() && u.contains("panels"))
    for (int i = 0; i < kPanelCount; ++i)
      get(u.at("panels"), panel_title(static_cast<PanelId>(i)), ui.prefs.show[i]);
  get(u, "play_speed", ui.timeline.play_speed);
  get(u, "selected_layer", ui.sel.selected_layer);
  get(u, "selected_head", ui.sel.selected_head);
  get(u, "selected_lane", ui.sel.selected_lane);
  get(u, "dist_top_n", ui.dist.top_n);
  if (u.is_object() && u.contains("dist_stage")) {
    const std::string v = get_string(u, "dist_stage", "final");
    ui.dist.stage = v == "raw"     ? DistStage::Raw
                    : v == "stage" ? DistStage::Stage
                                   : DistStage::Final;
  }
  get(u, "dist_stage_index", ui.dist.stage_index);
  get(u, "dist_log_scale", ui.dist.log_scale);
  get(u, "color_chips_by_p", ui.prefs.color_chips_by_p);
  get(u, "show_position_numbers", ui.prefs.show_position_numbers);
  get(u, "predict_then_reveal", ui.sel.predict_then_reveal);
  get(u, "histogram_samples", ui.dist.histogram_samples);
  get(u, "attention_all_heads", ui.attention.all_heads);
  get(u, "attention_log_scale", ui.attention.log_scale);
  get(u, "kv_no_cache", ui.kv.no_cache);
  if (u.is_object() && u.contains("focus"))
    ui.prefs.focus_panel = panel_from_lesson_name(get_string(u, "focus", ""));
  if (u.is_object() && u.contains("layout") && u.at("layout").is_object()) {
    const json& l = u.at("layout");  // files from before the presentation layout have none
    get(l, "columns", ui.prefs.layout_prefs.columns);
    get(l, "lesson_width", ui.prefs.layout_prefs.lesson_width);
    if (l.contains("weights") && l.at("weights").is_object())
      for (const auto& [name, w] : l.at("weights").items())
        if (int i = panel_from_lesson_name(name); i >= 0 && w.is_number())
          ui.prefs.layout_prefs.weight[i] = w.get<float>();
  }
}

// The "session" section's fields into ss; `bad` collects fields of the wrong type.
void read_session_section(const json& s, SessionSettings& ss, std::vector<std::string>& bad) {
  get(s, "model", ss.model_path);
  get(s, "tokenizer", ss.tokenizer_path);
  if (s.is_object() && s.contains("prompt")) {
    const size_t before = bad.size();
    get(s, "prompt", ss.prompt);
    if (bad.size() == before) ss.has_prompt = true;
  }
  if (s.is_object() && s.contains("record_level"))
    ss.record_level = parse_level(get_string(s, "record_level", level_name(ss.record_level)));
  get(s, "max_tokens", ss.max_tokens);
  get(s, "stops", ss.stops);
  if (!s.is_object() || !s.contains("lanes")) return;
  if (!s.at("lanes").is_array()) {
    bad.push_back("lanes");
    return;
  }
  ss.lanes.clear();
  for (const json& l : s.at("lanes"))
    if (l.is_object()) ss.lanes.push_back(sampler_from(l));
}

// Numbers a hand-edited file may put out of range, brought back into it.
void clamp_ui(UiState& ui) {
  ui.prefs.font_size = std::clamp(ui.prefs.font_size, 10.0f, 64.0f);
  ui.timeline.play_speed = std::clamp(ui.timeline.play_speed, 0.25f, 30.0f);
  ui.dist.top_n = std::clamp(ui.dist.top_n, 3, 64);
  ui.dist.histogram_samples = std::clamp(ui.dist.histogram_samples, 10, 100000);
  LayoutPrefs& lp = ui.prefs.layout_prefs;
  for (float& c : lp.columns) c = std::isfinite(c) ? std::clamp(c, 0.1f, 0.8f) : 0.3f;
  for (float& w : lp.weight) w = std::isfinite(w) ? std::clamp(w, 0.0f, 100.0f) : 0.0f;
  lp.lesson_width = std::isfinite(lp.lesson_width) ? std::clamp(lp.lesson_width, 0.15f, 0.5f)
                                                   : LayoutPrefs{}.lesson_width;
}

}  // namespace

Status settings_from_json(const std::string& text, UiState& ui, SessionSettings& ss) {
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception& e) {
    return make_error(std::string("settings: ") + e.what());
  }
  if (!j.is_object()) return make_error("settings: not a JSON object");
  std::vector<std::string> bad;
  g_bad = &bad;
  const json none = json::object();
  read_ui_section(j.contains("ui") ? j.at("ui") : none, ui);
  read_session_section(j.contains("session") ? j.at("session") : none, ss, bad);
  g_bad = nullptr;
  for (const char* section : {"ui", "session"}) {
    if (j.contains(section) && !j.at(section).is_object()) bad.push_back(section);
  }
  clamp_ui(ui);
  if (!bad.empty()) {
    std::string list;
    for (const std::string& b : bad) list += (list.empty() ? "" : ", ") + b;
    return make_error("settings: wrong type for " + list + " (the other fields were read)");
  }
  return ok_status();
}

Status save_settings(const std::string& path, const UiState& ui, const SessionSettings& ss) {
  if (path.empty()) return make_error("no settings path (HOME is not set)");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string text = settings_to_json(ui, ss) + "\n";
  // Over a regular file or a new one only (a symlink's target is replaced, never the link).
  return write_file_atomically(path, [&](std::ostream& os) {
    os << text;
    return os ? ok_status() : make_error("cannot write");
  });
}

Status load_settings(const std::string& path, UiState& ui, SessionSettings& ss) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return ok_status();
  Result<std::string> text = read_regular_file(path, kMaxSettingsBytes, "settings file");
  if (!text.ok()) {
    // A device or directory is left alone (and never written over); a regular file that cannot
    // be read (too large) is moved aside like a damaged one.
    if (!check_regular_file(path).ok()) return make_error("settings: " + text.error().message);
    Result<std::string> moved = move_aside(path);
    return make_error("settings: " + text.error().message +
                      (moved.ok() ? "; the file was moved to " + moved.value() : std::string()));
  }
  Status st = settings_from_json(text.value(), ui, ss);
  if (st.ok()) return st;
  std::string kept;
  if (!ss.has_prompt) {  // unparseable: take the prompt (and model) out of the text itself
    if (std::optional<std::string> p = salvage_string(text.value(), "prompt")) {
      ss.prompt = *p;
      ss.has_prompt = true;
    }
    if (std::optional<std::string> m = salvage_string(text.value(), "model")) ss.model_path = *m;
    if (std::optional<std::string> t = salvage_string(text.value(), "tokenizer")) {
      ss.tokenizer_path = *t;
    }
  }
  kept = ss.has_prompt ? "the prompt and what else could be read were kept"
                       : "no prompt could be recovered";
  Result<std::string> moved = move_aside(path);
  const std::string where = moved.ok() ? "moved to " + moved.value()
                                       : "could not be moved aside (" + moved.error().message +
                                             "); it will not be overwritten";
  return make_error(st.error().message + " in " + path + "; the file was " + where + "; " + kept);
}

}  // namespace ts
