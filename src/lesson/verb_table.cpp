// The verb table (verb_table.h): one row per window / lesson verb, each with its parser; the
// session's words are session/command.h's.
#include "lesson/verb_table.h"

#include <charconv>

#include "base/text_args.h"
#include "lesson/lesson_syntax.h"

namespace ts {
namespace {

std::string_view first_word(std::string_view s, std::string_view* after) {
  const size_t sp = s.find_first_of(" \t");
  *after = sp == std::string_view::npos ? "" : trim_space(s.substr(sp));
  return s.substr(0, sp);
}

// A whole number in [lo, hi]; `what` names it in the message.
Result<int> number(std::string_view s, int lo, int hi, const std::string& what) {
  int v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < lo || v > hi)
    return make_error("needs " + what + ", got '" + std::string(s) + "'");
  return v;
}

Status nothing(std::string_view rest) {
  if (!rest.empty()) return make_error("takes no argument, got '" + std::string(rest) + "'");
  return ok_status();
}

// PANEL...: one or more panel names (lesson_syntax.h's registered ones).
Result<std::vector<std::string>> panels(std::string_view rest) {
  std::vector<std::string> out;
  while (!rest.empty()) {
    const std::string p(first_word(rest, &rest));
    if (!lesson_panel_known(p)) return make_error("unknown panel '" + p + "'");
    out.push_back(p);
  }
  if (out.empty()) return make_error("needs a panel name (kv-cache, next-token, ...)");
  return out;
}

template <class V>
Result<Verb> just(std::string_view rest) {
  TS_TRY(nothing(rest));
  return Verb{V{}};
}

template <class V>
Result<Verb> path_of(std::string_view rest) {
  Result<std::string> t = text_argument(rest, "a file name");
  if (!t.ok()) return t.error();
  return Verb{V{t.value()}};
}

template <class V>
Result<Verb> panels_of(std::string_view rest) {
  Result<std::vector<std::string>> p = panels(rest);
  if (!p.ok()) return p.error();
  return Verb{V{p.value()}};
}

Result<Verb> parse_select(std::string_view rest) {
  std::string_view n_text = rest;
  verb::Select s;
  std::string_view after;
  if (const std::string_view w = first_word(rest, &after);
      w == "position" || w == "layer" || w == "head") {
    s.what = std::string(w);
    n_text = after;
  }
  Result<int> n =
      number(n_text, -1, 1 << 20, "position N, layer N or head N (or just N: a position)");
  if (!n.ok()) return n.error();
  s.n = n.value();
  return Verb{s};
}

Result<Verb> parse_focus(std::string_view rest) {
  if (rest == "none") return Verb{verb::Focus{}};
  return panels_of<verb::Focus>(rest);
}

Result<Verb> parse_size(std::string_view rest) {
  std::string_view pct;
  const std::string panel(first_word(rest, &pct));
  if (!lesson_panel_known(panel))
    return make_error("needs a panel name and a percentage, e.g. size kv-cache 60%");
  if (!pct.empty() && pct.back() == '%') pct.remove_suffix(1);
  Result<int> n = number(pct, 10, 90, "a percentage from 10% to 90%");
  if (!n.ok()) return n.error();
  return Verb{verb::Size{panel, n.value()}};
}

Result<Verb> parse_view(std::string_view rest) {
  if (rest.empty() || rest.find_first_of(" \t") != std::string_view::npos)
    return make_error(
        "needs raw, final, a sampler stage (e.g. top-k), per-step, roofline, "
        "formats, flops, bytes, time, receipt, intervention or map");
  return Verb{verb::View{std::string(rest)}};
}

Result<Verb> parse_no_cache(std::string_view rest) {
  if (rest != "on" && rest != "off")
    return make_error("needs on or off, got '" + std::string(rest) + "'");
  return Verb{verb::NoCache{rest == "on"}};
}

Result<Verb> parse_heads(std::string_view rest) {
  if (rest != "all") {
    Result<int> n = number(rest, 0, 1 << 16, "all or a head number");
    if (!n.ok()) return n.error();
  }
  return Verb{verb::Heads{std::string(rest)}};
}

Result<Verb> parse_sample(std::string_view rest) {
  if (rest.empty()) return Verb{verb::Sample{}};
  Result<int> n = number(rest, 1, 100000, "how many draws, 1 to 100000 (default 1000)");
  if (!n.ok()) return n.error();
  return Verb{verb::Sample{n.value()}};
}

// rival PIECE|#ID: one word, or a quoted piece (to keep its spaces).
Result<Verb> parse_rival(std::string_view rest) {
  if (rest.empty()) return make_error("needs one token: a piece (quoted to keep spaces) or #ID");
  if (rest.front() != '"' && rest.find_first_of(" \t") != std::string_view::npos)
    return make_error("needs one token: quote a piece with spaces");
  Result<std::string> t = text_argument(rest, "a token: a piece or #ID");
  if (!t.ok()) return t.error();
  return Verb{verb::Rival{t.value()}};
}

// poll-wait N [SECONDS]: N answers (1 to 10000), at most SECONDS (1 to 3600, default 30).
Result<Verb> parse_poll_wait(std::string_view rest) {
  std::string_view secs;
  Result<int> n = number(first_word(rest, &secs), 1, 10000, "how many answers, 1 to 10000");
  if (!n.ok()) return n.error();
  verb::PollWait w{n.value(), 30};
  if (!secs.empty()) {
    Result<int> s = number(secs, 1, 3600, "a wait of 1 to 3600 seconds");
    if (!s.ok()) return s.error();
    w.seconds = s.value();
  }
  return Verb{w};
}

Result<Verb> parse_font(std::string_view rest) {
  Result<int> n = number(rest, 10, 64, "a font size from 10 to 64");
  if (!n.ok()) return n.error();
  return Verb{verb::Font{n.value()}};
}

Result<Verb> parse_theme(std::string_view rest) {
  if (rest != "light" && rest != "dark" && rest != "projector")
    return make_error("needs light, dark or projector, got '" + std::string(rest) + "'");
  return Verb{verb::Theme{std::string(rest)}};
}

}  // namespace

const std::vector<VerbRow>& verb_table() {
  static const std::vector<VerbRow> rows = {
      {"model", "default|PATH", "default", "load a model (default: the shipped one)",
       path_of<verb::Model>},
      {"tokenizer", "PATH", "models/tokenizer.json",
       "a lesson's front matter names it, next to model", path_of<verb::Tokenizer>},
      {"select", "N | position N | layer N | head N", "layer 1",
       "what the panels look at (-1: the last)", parse_select},
      {"show", "PANEL...", "", "show panels", panels_of<verb::Show>},
      {"hide", "PANEL...", "", "hide panels", panels_of<verb::Hide>},
      {"focus", "PANEL... | none", "",
       "show panels, the last one large (none: the overview)", parse_focus},
      {"size", "PANEL N%", "60%", "a panel's share of its column, 10% to 90%", parse_size},
      {"view", "raw|final|STAGE|SECTION", "final",
       "the Next token view, or a section of the Cost or Why this token panel", parse_view},
      {"no-cache", "on|off", "on", "the KV cache panel's no-cache comparison", parse_no_cache},
      {"heads", "all|N", "all", "the attention panel's heads", parse_heads},
      {"reveal", "", "", "reveal the question's answer", just<verb::Reveal>},
      {"compare-formats", "", "", "the model as F32, Q8_0 and Q4_K side by side",
       just<verb::CompareFormats>},
      {"measure", "", "", "this machine's probes for the Cost panel's roofline",
       just<verb::Measure>},
      {"sample", "[N]", "200", "draw the step N times (default 1000): the histogram", parse_sample},
      {"rival", "PIECE|#ID", "\" the\"", "the token the receipt compares the chosen one with",
       parse_rival},
      {"poll-open", "", "", "open the class poll's question", just<verb::PollOpen>},
      {"poll-close", "", "", "close the class poll's question", just<verb::PollClose>},
      {"poll-wait", "N [SECONDS]", "3 20", "scripts: wait for N answers (at most SECONDS, 30)",
       parse_poll_wait},
      {"font", "N", "28", "the font size, 10 to 64", parse_font},
      {"theme", "light|dark|projector", "projector", "the colours (projector: large text too)",
       parse_theme},
      {"lesson", "FILE", "lessons/01_tokens.md", "scripts: open a lesson at its first page",
       path_of<verb::OpenLesson>},
      {"next", "", "", "scripts: the lesson's next page", just<verb::NextPage>},
      {"back-page", "", "", "scripts: the lesson's previous page", just<verb::BackPage>},
      {"screenshot", "FILE", "out.png", "scripts: save the window as a PNG",
       path_of<verb::Screenshot>},
      {"open-trace", "FILE", "trace.json", "scripts: replay a trace JSON (File > Open trace)",
       path_of<verb::OpenTrace>},
      {"quit", "", "", "scripts: close the app", just<verb::Quit>},
  };
  return rows;
}

std::vector<std::string> verb_names() {
  std::vector<std::string> out;
  for (std::string_view v : command_verbs()) out.emplace_back(v);
  for (const VerbRow& r : verb_table()) out.emplace_back(r.name);
  return out;
}

Result<Verb> parse_verb(std::string_view line, std::string_view noun) {
  line = trim_space(line);
  std::string_view rest;
  const std::string_view word = first_word(line, &rest);
  if (is_command_verb(word)) {
    Result<SessionCommand> c = parse_command(line);
    if (!c.ok()) return c.error();
    return Verb{verb::SessionWords{c.value()}};
  }
  for (const VerbRow& r : verb_table()) {
    if (r.name != word) continue;
    Result<Verb> v = r.parse(rest);
    if (!v.ok()) return make_error(std::string(word) + ": " + v.error().message);
    return v;
  }
  std::string known;
  for (const std::string& n : verb_names()) known += (known.empty() ? "" : ", ") + n;
  return make_error("unknown " + std::string(noun) + " '" + std::string(word) + "' (" + known +
                    ")");
}

std::string verb_name(const Verb& v) {
  if (const auto* s = std::get_if<verb::SessionWords>(&v)) return command_name(s->command);
  return std::string(verb_table()[v.index() - 1].name);
}

}  // namespace ts
