// Names of panels and themes for titles, the View menu and the settings file.
// No drawing and no persistence here (app/settings.cpp saves UiState).
#include "app/ui_state.h"

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
