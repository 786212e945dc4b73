// Parsing and evaluating a page's ```see lines (see lesson_see.h).
#include "lesson/lesson_see.h"

#include <algorithm>
#include <cstdlib>

#include "lesson/lesson_syntax.h"

namespace ts {

namespace {

bool parse_count(const std::string& s, int* out) {
  if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), ::isdigit)) return false;
  *out = std::atoi(s.c_str());
  return *out >= 1;
}

bool is_word(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
           c == '=';
  });
}

}  // namespace

Result<SeeLine> parse_see_syntax(std::string_view raw) {
  Result<std::vector<LessonToken>> lexed = lex_lesson_line(raw);
  if (!lexed.ok()) return lexed.error();
  const std::vector<LessonToken>& t = lexed.value();
  SeeLine s;
  s.source = lesson_trim(raw);
  if (t.empty() || t[0].quoted) return make_error("a see line starts with what to see: " + s.source);
  s.what = t[0].text;
  const size_t n = t.size();
  auto quoted = [&](size_t i) { return i < n && t[i].quoted; };
  auto bad = [&](const std::string& form) {
    return make_error("'" + s.source + "': write " + form);
  };
  if (s.what == "bar" || s.what == "chip" || s.what == "status" || s.what == "text") {
    if (n != 2 || !quoted(1) || t[1].text.empty()) return bad(s.what + " \"TEXT\"");
    s.text = t[1].text;
  } else if (s.what == "bars") {
    if (n != 2 || t[1].quoted || !parse_count(t[1].text, &s.count)) return bad("bars N");
  } else if (s.what == "lane") {
    if (n != 3 || t[1].quoted || !is_word(t[1].text) || !quoted(2) || t[2].text.empty())
      return bad("lane NAME \"TEXT\"");
    s.name = t[1].text;
    s.text = t[2].text;
  } else if (s.what == "branch") {
    if (n != 3 || t[1].quoted || !parse_count(t[1].text, &s.count) || !quoted(2) || t[2].text.empty())
      return bad("branch N \"TEXT\"");
    s.name = "branch " + t[1].text;
    s.text = t[2].text;
  } else if (s.what == "panel") {
    const auto& names = lesson_panel_names();
    if (n != 2 || t[1].quoted || std::find(names.begin(), names.end(), t[1].text) == names.end())
      return bad("panel NAME (a lesson panel name)");
    s.name = t[1].text;
  } else if (s.what == "item") {
    if (n < 2 || n > 4 || t[1].quoted || !is_word(t[1].text)) return bad("item KIND [\"LABEL\"] [N]");
    s.name = t[1].text;
    size_t i = 2;
    if (quoted(i)) s.text = t[i++].text;
    if (i < n && !parse_count(t[i++].text, &s.count)) return bad("item KIND [\"LABEL\"] [N]");
    if (i != n) return bad("item KIND [\"LABEL\"] [N]");
  } else {
    return make_error("unknown see line '" + s.what +
                      "' (bar, bars, chip, lane, branch, panel, status, text, item)");
  }
  return s;
}

namespace {

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// A lane is named by its label, or by the label's first word ("temp=1.0 seed=3" is "temp=1.0").
bool lane_is(const std::string& label, const std::string& name) {
  return label == name || label.substr(0, label.find(' ')) == name;
}

// The visible lines of one Compare lane or one branch's story (`kind` "lane" or "branch"), joined
// in drawing order (a text may wrap across lines).
std::string run_text(const ScreenRecord& r, const std::string& kind, const std::string& name,
                     int* lines, int* hidden) {
  std::string out;
  for (const ScreenItem& it : r.items) {
    if (it.kind != kind + "_line" || !lane_is(it.state, name)) continue;
    if (!it.visible) {
      ++*hidden;
      continue;
    }
    out += it.label;
    ++*lines;
  }
  return out;
}

}  // namespace

SeeResult evaluate_see(const SeeLine& s, const ScreenRecord& r, const std::string& path,
                       std::string (*display)(std::string_view)) {
  int seen = 0, hidden = 0;
  auto count = [&](auto&& match) {
    for (const ScreenItem& it : r.items)
      if (match(it)) (it.visible ? seen : hidden) += 1;
  };
  std::string why;
  if (s.what == "bar" || s.what == "chip") {
    const std::string want = display ? display(s.text) : s.text;
    const bool bar = s.what == "bar";
    count([&](const ScreenItem& it) {
      const bool kind = bar ? it.kind == "bar" : it.kind.size() > 5 &&
                                                     it.kind.compare(it.kind.size() - 5, 5, "_chip") == 0;
      return kind && it.label == want;
    });
  } else if (s.what == "bars") {
    count([](const ScreenItem& it) { return it.kind == "bar"; });
    if (seen >= s.count) return {true, ""};
    why = std::to_string(seen) + " visible";
  } else if (s.what == "lane" || s.what == "branch") {
    int lines = 0;
    const std::string text = run_text(r, s.what, s.name, &lines, &hidden);
    bool newest = false;
    for (const ScreenItem& it : r.items)
      newest |= it.kind == s.what + "_newest" && lane_is(it.state, s.name) && it.visible;
    if (lines == 0) {
      why = "no visible line of " + (s.what == "lane" ? "a lane named " + s.name : s.name);
    } else if (!contains(text, s.text)) {
      why = "its visible text does not contain it";
    } else if (!newest) {
      why = "its newest token is not visible";
    } else {
      return {true, ""};
    }
  } else if (s.what == "panel") {
    count([&](const ScreenItem& it) { return it.kind == "panel" && it.label == s.name; });
  } else if (s.what == "status") {
    count([&](const ScreenItem& it) { return it.kind == "status" && contains(it.label, s.text); });
  } else if (s.what == "text") {
    count([&](const ScreenItem& it) { return contains(it.label, s.text); });
  } else if (s.what == "item") {
    count([&](const ScreenItem& it) {
      return it.kind == s.name && (s.text.empty() || it.label == s.text);
    });
    if (seen >= s.count) return {true, ""};
    why = std::to_string(seen) + " visible";
  }
  if (why.empty()) {
    if (seen >= 1) return {true, ""};
    why = hidden > 0 ? "drawn but not visible (" + std::to_string(hidden) + " hidden)" : "not drawn";
  }
  return {false, path + ":" + std::to_string(s.line) + ": see " + s.source + ": " + why};
}

}  // namespace ts
