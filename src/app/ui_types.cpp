// Names of panels (read from the panel table) and themes, for titles, the View menu, lessons and
// the settings file.
// No drawing and no persistence here (app/settings.cpp saves the UI state).
#include "app/ui_types.h"

#include "app/panel_table.h"

namespace ts {

// The panels' names live in their table (panel_table.cpp); these read it.
const char* panel_title(PanelId p) { return p == PanelId::Count ? "?" : panel_spec(p).title; }

const char* panel_lesson_name(PanelId p) {
  return p == PanelId::Count ? "?" : panel_spec(p).lesson_name;
}

int panel_from_lesson_name(const std::string& name) {
  for (const PanelSpec& p : panel_table())
    if (name == p.lesson_name || (*p.alias && name == p.alias)) return static_cast<int>(p.id);
  return -1;
}

const char* panel_key_name(PanelId p) { return p == PanelId::Count ? "" : panel_spec(p).key; }

std::array<bool, kPanelCount> default_panel_visibility() {
  std::array<bool, kPanelCount> show{};
  for (const PanelSpec& p : panel_table()) show[static_cast<int>(p.id)] = p.shown;
  return show;
}

const char* theme_name(ThemeKind t) {
  switch (t) {
    case ThemeKind::Light:
      return "light";
    case ThemeKind::Dark:
      return "dark";
    case ThemeKind::Projector:
      return "projector";
  }
  return "light";
}

}  // namespace ts
