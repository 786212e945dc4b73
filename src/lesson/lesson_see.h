// What a lesson page says must be visible, checked against what the app really drew. A page's
// ```see block names the things its text talks about, one per line:
//   bar " Priya"          a probability bar of this token (Next token panel)
//   bars 8                at least 8 probability bars
//   chip " comfort"       a token chip of this piece (Tokens panel)
//   lane greedy " house"  the Compare lane labelled greedy shows this text, its newest token too
//   branch 2 " the lake"  the Branches panel's second story shows this text, its last token too
//   panel branches        the panel is on screen whole, not a tab (lesson names: lessons/README)
//   status "max tokens"   the status bar shows this text
//   text "19 tokens"      some drawn text shows this (a label, a line of a panel)
//   item roof_decode      a drawn item of this kind (optionally a label, and a count: item
//                         attention_mini 16)
// Only items the class can see count: wholly inside their panel's visible region, not scrolled
// away, not covered. The record itself is made by the app (app/draw_log.cpp); this file knows no
// drawing: it parses the lines and evaluates them over a plain ScreenRecord.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace ts {

// One drawn thing, as the app recorded it.
struct ScreenItem {
  std::string kind;   // "bar", "prompt_chip", "lane_line", "panel", "status", "text", ...
  std::string label;  // a bar's or chip's piece as displayed (␣ for a space), a line's text
  std::string state;  // a bar's "chosen" / "kept" / "cut"; a lane line's lane name
  std::string panel;  // the panel's title
  bool visible = true;
};

// One frame as the class saw it.
struct ScreenRecord {
  std::vector<ScreenItem> items;
  float text_hidden_px = 0;  // the lesson page's text, question and checks below the fold
};

struct SeeLine {
  std::string what;  // bar, bars, chip, lane, panel, status, text, item
  std::string name;  // lane name, panel name, item kind
  std::string text;  // the quoted piece or text ("" when none)
  int count = 1;     // bars N, item KIND N
  std::string source;
  int line = 0;
};

Result<SeeLine> parse_see_syntax(std::string_view line);

struct SeeResult {
  bool ok = false;
  std::string message;  // "lesson.md:40: see bar " Priya": no visible bar (drawn: 3, hidden)"
};
// `display` turns a piece into how chips and bars show it (spaces as ␣, newlines as ↵).
SeeResult evaluate_see(const SeeLine& s, const ScreenRecord& screen, const std::string& path,
                       std::string (*display)(std::string_view));

}  // namespace ts
