// Test harness for the app: a headless ImGui context (Dear ImGui's example_null pattern: display
// size, atlas built with GetTexDataAsRGBA32, NewFrame/Render, no ini file), simulated mouse and
// keys with the 1.86 API (io.MousePos, io.MouseDown, io.KeysDown), and sessions over the shipped
// model (models/tales-4m.gguf) in the states the panels must survive.
#pragma once
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>

#include "app/commands.h"
#include "app/fonts.h"
#include "app/layout.h"
#include "app/theme.h"
#include "app/ui_state.h"
#include "golden.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "session/path_queries.h"
#include "session/phase_walk.h"
#include "session/session.h"
#include "session/session_ops.h"

namespace ts::test {

class ImGuiHarness {
 public:
  explicit ImGuiHarness(float w = 1600, float h = 900) {
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(w, h);
    io.DeltaTime = 1.0f / 60.0f;
    build_fonts(16.0f);
    unsigned char* px = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&px, &tw, &th);
    // The 1.86 GLFW backend maps named keys to GLFW key codes; do the same.
    io.KeyMap[ImGuiKey_Space] = 32;
    io.KeyMap[ImGuiKey_RightArrow] = 262;
    io.KeyMap[ImGuiKey_LeftArrow] = 263;
    io.KeyMap[ImGuiKey_Home] = 268;
    io.KeyMap[ImGuiKey_End] = 269;
    apply_theme(ThemeKind::Light, 16.0f);
  }
  ~ImGuiHarness() { ImGui::DestroyContext(ctx_); }
  ImGuiHarness(const ImGuiHarness&) = delete;
  ImGuiHarness& operator=(const ImGuiHarness&) = delete;

  // One frame around `body`; checks that body left the window stack balanced.
  void frame(const std::function<void()>& body) {
    ImGui::NewFrame();
    body();
    CHECK_MESSAGE(GImGui->CurrentWindowStack.Size == 1, "unbalanced Begin/End in a panel");
    ImGui::Render();
    ImGui::GetIO().MouseDown[0] = false;
  }
  // Moves the mouse to (x, y), presses and releases the left button over three frames, calling
  // `body` in each frame (buttons fire on release, IsItemClicked on press).
  void click(float x, float y, const std::function<void()>& body) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(x, y);
    io.MouseDown[0] = false;
    frame(body);
    io.MouseDown[0] = true;
    ImGui::NewFrame();
    body();
    ImGui::Render();
    io.MouseDown[0] = false;
    frame(body);
    io.MousePos = ImVec2(-1, -1);
  }
  void press_key(int key, bool shift, const std::function<void()>& body) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyShift = shift;
    io.KeysDown[key] = true;
    frame(body);
    io.KeysDown[key] = false;
    io.KeyShift = false;
    frame(body);
  }

 private:
  ImGuiContext* ctx_ = nullptr;
};

// The model the panel tests draw: the one the project ships (models/tales-4m.gguf, tokenizer
// inside), so they run on every machine, with or without the golden folder.
inline std::string shipped_model() { return (source_dir() / "models" / "tales-4m.gguf").string(); }

// The states every panel is drawn in.
enum class SessionState {
  Empty,         // no model
  Loaded,        // model + prompt, nothing computed (cursor -1)
  Mid,           // mid-generation: 6 steps
  Rewound,       // 8 steps, then back 3
  Branch,        // a forced token at step 4, then 2 more steps
  SteppingInto,  // stepping into step 3, a few phases in
  TwoLanes,      // greedy + a sampling lane, 5 steps
  Stopped,       // stepped until every lane stopped (max tokens 6)
};
inline const char* state_name(SessionState s) {
  const char* names[] = {"empty",  "loaded",        "mid",       "rewound",
                         "branch", "stepping-into", "two-lanes", "stopped"};
  return names[static_cast<int>(s)];
}
constexpr SessionState kAllStates[] = {SessionState::Empty,    SessionState::Loaded,
                                       SessionState::Mid,      SessionState::Rewound,
                                       SessionState::Branch,   SessionState::SteppingInto,
                                       SessionState::TwoLanes, SessionState::Stopped};

// A session over the shipped model in `state`.
inline std::unique_ptr<Session> make_session(SessionState state) {
  auto s = std::make_unique<Session>();
  if (state == SessionState::Empty) return s;
  REQUIRE(s->load_model(shipped_model()).ok());
  REQUIRE(set_record_level(*s, RecordLevel::Full).ok());
  REQUIRE(s->set_prompt("A dream of a red bird").ok());
  SamplerSettings t;
  t.label = "T=0.9";
  stage<Temperature>(t).t = 0.9f;
  stage<TopK>(t).k = 40;
  stage<TopP>(t).p = 0.95f;
  REQUIRE(s->set_sampler(0, t).ok());
  switch (state) {
    case SessionState::Empty:
    case SessionState::Loaded:
      break;
    case SessionState::Mid:
      for (int i = 0; i < 6; ++i) REQUIRE(s->step().ok());
      break;
    case SessionState::Rewound:
      for (int i = 0; i < 8; ++i) REQUIRE(s->step().ok());
      for (int i = 0; i < 3; ++i) REQUIRE(back(*s).ok());
      break;
    case SessionState::Branch: {
      for (int i = 0; i < 5; ++i) REQUIRE(s->step().ok());
      const Step* st = current_step(*s, 0);
      REQUIRE(st != nullptr);
      // The model's most likely token other than the one chosen (the raw distribution: the
      // sampler may have left a single candidate).
      int other = -1;
      for (const Candidate& c : st->sampling.raw)
        if (c.id != st->token) {
          other = c.id;
          break;
        }
      REQUIRE(other >= 0);
      REQUIRE(s->force(other, 0).ok());
      for (int i = 0; i < 2; ++i) REQUIRE(s->step().ok());
      break;
    }
    case SessionState::SteppingInto:
      for (int i = 0; i < 3; ++i) REQUIRE(s->step().ok());
      for (int i = 0; i < 5; ++i) REQUIRE(step_into(*s).ok());
      break;
    case SessionState::TwoLanes: {
      SamplerSettings g;
      g.label = "greedy";
      stage<Temperature>(g).t = 0.0f;
      REQUIRE(s->add_lane(g).ok());
      for (int i = 0; i < 5; ++i) REQUIRE(s->step().ok());
      break;
    }
    case SessionState::Stopped:
      REQUIRE(set_max_tokens(*s, 6).ok());
      for (int i = 0; i < 20 && can_step(*s); ++i) REQUIRE(s->step().ok());
      REQUIRE(all_stopped(*s));
      break;
  }
  return s;
}

// A UiState laid out for a w x h window.
inline UiState laid_out_ui(float w = 1600, float h = 900, bool all_panels = true) {
  UiState ui;
  if (all_panels) ui.prefs.show.fill(true);
  compute_layout(ui, w, h, 22.0f, 16.0f);
  return ui;
}

// The first DrawnItem of `kind` (and label, when given), or nullptr.
inline const DrawnItem* find_drawn(const UiState& ui, const std::string& kind,
                                   const std::string& label = "") {
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == kind && (label.empty() || d.label == label)) return &d;
  return nullptr;
}

// A probability bar of the given state ("chosen", "kept", "cut"), optionally with a label.
inline const DrawnItem* find_bar(const UiState& ui, const std::string& state,
                                 const std::string& label = "") {
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "bar" && d.state == state && (label.empty() || d.label == label)) return &d;
  return nullptr;
}

}  // namespace ts::test
