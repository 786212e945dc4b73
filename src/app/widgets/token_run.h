// Running text made of tokens, for panels that show whole continuations (Compare's lanes, the
// Branches panel's stories): the pieces wrapped across the width (panels/text_flow.h's wrap_flow)
// in a box of whole lines that keeps its last token in view (earlier lines scroll away above),
// some tokens tinted, one outlined (where the texts part), forced ones in the forced colour, and
// a note at the end (why generation stopped). Each visual line is recorded as an item of kind
// `<kind>_line` and the last token as `<kind>_newest`, with the run's name as their state, so a
// lesson can check what the class sees. Drawing only.
#pragma once
#include <string>
#include <vector>

#include "app/panel_env.h"
#include "app/theme.h"

namespace ts {

struct RunToken {
  std::string text;     // as it reads in running text (spaces as spaces)
  std::string display;  // as chips show it (the recorded label)
  bool tinted = false;
  bool outlined = false;
  bool forced = false;
};

struct TokenRunStyle {
  const char* kind = "lane";  // items: "lane_line", "lane_newest", "lane_diverge"
  std::string name;           // the items' state: the lane's or branch's name
  ImU32 tint = 0;             // behind tinted tokens
  ImU32 mark = 0;             // the outline
  const char* end_note = nullptr;  // e.g. "stopped: max tokens"
};

// Draws the run in a box `box_h` tall across the content region's width.
void draw_token_run(const char* id, const std::vector<RunToken>& toks, float box_h,
                    const TokenRunStyle& st, const Palette& pal, DrawLog& log);
// A token's text as it reads in running text: the chip's visible-space mark back to a space.
std::string running_piece(const std::string& display);

}  // namespace ts
