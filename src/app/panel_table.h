// The app's panels, one row each: the window title the class reads, the name lessons and scripts
// use (show, hide, focus), the key that puts it in focus, where the overview places it and how
// tall it is there, whether it shows by default, and the function that draws it. Everything that
// lists panels (the layout, the splitters, the switchboard, the View menu, names in lessons and
// the settings file) reads this table; a new panel is a PanelId, a row here and its own file.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/ui_types.h"

namespace ts {

class Session;
class LessonRunner;
struct UiState;

// Where the overview puts a panel (the presentation layout puts the focus panel beside the
// lesson and makes the rest tabs). Special: laid out by hand (the timeline, the status bar).
enum class Column { Left, Centre, Right, Special };

struct PanelSpec {
  PanelId id;
  const char* title;        // the window's title, as the class reads it
  const char* lesson_name;  // lessons and scripts: show, hide, focus (e.g. next-token)
  const char* alias;        // an older lesson name that still works ("" none)
  const char* key;          // the number key that puts it in focus ("" none)
  Column column;
  float weight;             // its share of its column's height in the overview
  bool shown;               // visible on a first start
  void (*draw)(const Session& s, const LessonRunner* lesson, UiState& ui, Commands& cmd);
};

// In drawing order; within a column, top to bottom.
const std::array<PanelSpec, kPanelCount>& panel_table();
const PanelSpec& panel_spec(PanelId id);
// Every lesson name (and alias), for the lesson parser (registered at start-up, see main.cpp).
std::vector<std::string> panel_lesson_names();

}  // namespace ts
