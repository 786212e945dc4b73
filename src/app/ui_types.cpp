// Names of panels and themes for titles, the View menu, lessons and the settings file.
// No drawing and no persistence here (app/settings.cpp saves the UI state).
#include "app/ui_types.h"

namespace ts {

const char* panel_title(PanelId p) {
  switch (p) {
    case PanelId::Prompt:
      return "Prompt & model";
    case PanelId::Tokens:
      return "Tokens";
    case PanelId::Transport:
      return "Timeline";
    case PanelId::Distribution:
      return "Next token";
    case PanelId::Attention:
      return "Attention";
    case PanelId::KvCache:
      return "KV cache";
    case PanelId::Cost:
      return "Cost";
    case PanelId::Compare:
      return "Compare lanes";
    case PanelId::Branches:
      return "Branches";
    case PanelId::Model:
      return "Model & logit lens";
    case PanelId::Lesson:
      return "Lesson";
    case PanelId::Status:
      return "Status";
    case PanelId::Count:
      break;
  }
  return "?";
}

const char* panel_lesson_name(PanelId p) {
  static const char* const names[kPanelCount] = {"prompt",    "tokens",   "timeline", "next-token",
                                                 "attention", "kv-cache", "cost",     "compare",
                                                 "branches",  "model",    "lesson",   "status"};
  const int i = static_cast<int>(p);
  return i >= 0 && i < kPanelCount ? names[i] : "?";
}

int panel_from_lesson_name(const std::string& name) {
  if (name == "distribution") return static_cast<int>(PanelId::Distribution);  // older name
  for (int i = 0; i < kPanelCount; ++i)
    if (name == panel_lesson_name(static_cast<PanelId>(i))) return i;
  return -1;
}

const char* panel_key_name(PanelId p) {
  static const char* const keys[kPanelCount] = {"1", "2", "3", "4", "5", "6",
                                                "7", "8", "9", "0", "",  ""};
  const int i = static_cast<int>(p);
  return i >= 0 && i < kPanelCount ? keys[i] : "";
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
