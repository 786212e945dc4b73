// App: owns the Session, the UiState, the worker thread and the script runner, and runs one
// frame of UI: layout -> switchboard (panels read the session, emit commands) -> commands applied
// on the worker (waiting a few milliseconds so quick ones finish inside the frame) -> script.
// It knows nothing of GLFW or OpenGL: the window code (window.cpp) asks it for screenshots and
// font rebuilds, so the whole app runs headless in tests.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/app_options.h"
#include "app/commands.h"
#include "app/poll_host.h"
#include "app/script.h"
#include "app/settings.h"
#include "app/ui_state.h"
#include "app/worker.h"
#include "lesson/lesson_runner.h"
#include "session/decision_map.h"
#include "session/session.h"

namespace ts {

class App {
 public:
  explicit App(AppOptions opt);
  ~App();  // waits for the worker, saves the settings
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Reads the settings, parses the script, starts loading the model (on the worker). Call once,
  // after the ImGui context exists.
  void start();
  // One frame; call between ImGui::NewFrame() and ImGui::Render(). dt: seconds since last frame.
  void frame(double dt);

  // ---- for the window layer ----------------------------------------------------------------
  bool wants_quit() const { return quit_; }
  int exit_code() const { return exit_code_; }
  // True once after the font size changed (the window rebuilds the atlas and its GPU texture).
  bool take_font_rebuild();
  // The PNG path to write from this frame's pixels, if a screenshot is due now.
  std::optional<std::string> screenshot_due() const;
  bool screenshot_pending() const { return screenshot_.has_value(); }
  // The window wrote (or failed to write) the due screenshot.
  void screenshot_written(const std::string& path, const Status& st);
  void save_settings_now();

  // ---- for tests ---------------------------------------------------------------------------
  const Session& session() const { return session_; }
  Session& session_for_tests() { return session_; }
  UiState& ui() { return ui_; }
  bool busy() const { return worker_.busy(); }
  void wait_idle() {
    worker_.wait_idle(-1);
    finish_job();
  }
  // Record DrawnItems in every frame, not only screenshot frames.
  void record_drawn_always(bool on) { record_always_ = on; }
  // Queue commands as if a panel had emitted them this frame.
  void push(Command c) { injected_.push_back(std::move(c)); }
  bool script_finished() const { return script_pos_ >= script_.size(); }
  const std::vector<std::string>& errors() const { return errors_; }  // script / startup errors
  const LessonRunner* lesson() const { return lesson_.get(); }
  const PollHost* poll() const { return poll_.get(); }  // nullptr where no poll can run (web)

 private:
  struct PendingResult {
    Command command;
    Status status = ok_status();
    int script_line = 0;
  };
  struct Screenshot {
    std::string path;
    int frames_left = 0;  // frames to draw before capturing (layout settles)
    int script_line = 0;
  };

  // start()'s parts, in order: the saved settings and ceilings, the command line's view
  // options, the class poll, the model to open (command line, else the last one, else the
  // default), the script; then the commands of the start-up job.
  void load_saved_state();
  void apply_view_options();
  void start_poll();
  std::pair<std::string, std::string> startup_model();  // (model, tokenizer); "" when none
  void load_script_option();
  std::vector<Command> startup_commands(const std::string& model, const std::string& tokenizer);

  Status apply_lesson_command(const Command& c);  // on the worker
  void apply_lesson_hints();                      // on the main thread, after the job
  void start_job(const char* label, std::vector<Command> cmds, std::vector<int> lines, double dt);
  void finish_job();
  // finish_job's parts: a command that failed (its message, where it goes) and what the screen
  // does after one that worked; a new model or trace resets what pointed into the old one.
  void after_failed(const PendingResult& r);
  void after_applied(const Command& c);
  void reset_for_new_model();
  bool open_read_only(const std::string& path, int line);
  bool read_only_command(const Command& c, int line);
  void dispatch(std::vector<Command> cmds, std::vector<int> lines, double dt);
  void run_script_line(std::vector<Command>& cmds, std::vector<int>& lines);
  struct RunVerb;  // a script line's verb, one overload each (app_script.cpp)
  void draw_histogram(int n, const std::string& who, int line);
  void draw_busy();
  void rescan_models();
  void apply_style_if_changed();
  void report_error(const std::string& msg, int script_line);
  // The class poll (app_poll.cpp): its commands, the lesson's poll-open / poll-close, the
  // panel's state read when the poll's revision moved, and a script's poll-wait.
  Status apply_poll_command(const Command& c);
  void apply_lesson_poll(const std::string& what);
  void refresh_poll();
  bool poll_waiting();
  void write_drawn_json(const std::string& png_path);
  std::string auto_name(const char* ext) const;

  AppOptions opt_;
  Session session_;
  UiState ui_;
  SessionSettings saved_session_;
  Worker worker_;
  std::vector<PendingResult> results_;  // written by the job, read after it finished
  MachineCeilings measured_;            // written by a "measure this machine" job
  FormatComparison formats_measured_;   // written by a "compare formats" job
  std::optional<Result<DecisionMap>> map_computed_;  // written by a "decision map" job
  bool job_pending_ = false;
  std::vector<Command> injected_;
  std::unique_ptr<LessonRunner> lesson_;  // the open lesson (touched by jobs only while busy)
  bool lesson_hides_ = false;             // a lesson question turned predict-then-reveal on
  bool teacher_predict_ = false;          // the teacher's predict-then-reveal setting before it did
  std::vector<ScriptLine> script_;
  size_t script_pos_ = 0;
  std::optional<Screenshot> screenshot_;
  bool quit_after_screenshot_ = false;
  bool final_screenshot_done_ = false;
  bool quit_ = false;
  bool record_always_ = false;
  bool capture_now_ = false;  // this frame is drawn for a screenshot
  int exit_code_ = 0;
  std::string startup_notice_;  // a settings-file problem, kept on screen past the first load
  std::vector<std::string> errors_;
  ThemeKind applied_theme_ = ThemeKind::Light;
  float applied_font_ = 0;
  bool style_applied_ = false;
  double settings_timer_ = 0;
  std::string last_saved_json_;
  int shot_counter_ = 0;
  struct PollWait {
    int answers = 0;
    std::chrono::steady_clock::time_point until;
  };
  std::unique_ptr<PollHost> poll_;  // platform::make_poll_host(): nullptr on the web page
  int poll_lane_ = 0, poll_node_ = -1;  // the step the open question is about
  int poll_lesson_page_ = -1;           // the lesson page that opened it (-1: not a lesson)
  uint64_t poll_seen_ = ~uint64_t{0};   // the revision ui_.poll was read at
  std::optional<PollWait> poll_wait_;
};

}  // namespace ts
