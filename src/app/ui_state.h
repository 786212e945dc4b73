// UiState: all of the app's UI-only state, as parts with one owner each: the persisted
// preferences, the shared selection, this frame's layout, the status line and the drawn-items
// log (panel_env.h), then one struct per panel (panel_state.h). It holds no model data: that
// lives in the Session, which panels read through const access. The app and the switchboard see
// the whole; a panel gets env() and its own part. Saved and loaded by app/settings.h.
#pragma once
#include "app/panel_env.h"
#include "app/panel_state.h"
#include "app/ui_types.h"

namespace ts {

struct UiState {
  Preferences prefs;
  Selection sel;
  FrameLayout frame;
  AppStatus status;
  DrawLog log;

  PromptPanelState prompt;
  TokensPanelState tokens;
  TimelinePanelState timeline;
  DistributionPanelState dist;
  AttentionPanelState attention;
  KvCachePanelState kv;
  CostPanelState cost;
  ReceiptPanelState why;
  ComparePanelState compare;
  LessonPanelState lesson;
  TraceViewState trace_view;
  PollPanelState poll;
  DecodingPanelState decoding;
  MenuState menu;

  // What every panel shares (the references point into this UiState).
  PanelEnv env() { return PanelEnv{prefs, frame, status, sel, log}; }
};

}  // namespace ts
