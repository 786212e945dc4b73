// The lesson render check (see lesson_render.h): the App drawn headless page by page.
#include "app/lesson_render.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/app.h"
#include "app/fonts.h"
#include "app/presentation_check.h"
#include "app/text_size_probe.h"
#include "imgui.h"
#include "tokenizer/tokenizer.h"

namespace ts {

ScreenRecord screen_record(const DrawLog& log) {
  ScreenRecord r;
  r.items.reserve(log.drawn.size());
  for (const DrawnItem& d : log.drawn)
    r.items.push_back(ScreenItem{d.kind, d.label, d.state, d.panel, d.visible});
  r.text_hidden_px = std::max(0.0f, log.lesson_text_hidden_px);
  for (const PanelOverflow& o : log.overflow)
    if (o.panel == panel_title(PanelId::Lesson)) r.text_hidden_px = std::max(r.text_hidden_px, o.below);
  return r;
}

namespace {

// An ImGui context without a window, its fonts built on the CPU at the app's size.
class Headless {
 public:
  Headless(int w, int h) : ctx_(ImGui::CreateContext()) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
    io.DeltaTime = 1.0f / 60.0f;
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // as the OpenGL 3 backend
  }
  ~Headless() { ImGui::DestroyContext(ctx_); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  // Frames until the app is idle and its layout has settled (panels measure their content in
  // one frame and get their size in the next).
  void settle(App& app, int frames = 4) {
    for (int i = 0; i < frames; ++i) {
      if (app.take_font_rebuild()) {
        build_fonts(app.ui().prefs.font_size);
        unsigned char* px = nullptr;
        int tw = 0, th = 0;
        ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&px, &tw, &th);
      }
      ImGui::NewFrame();
      app.frame(1.0 / 60.0);
      ImGui::Render();
      app.wait_idle();
    }
  }

 private:
  ImGuiContext* ctx_;
};

std::string display_text(std::string_view s) { return visible_bytes(s); }

struct Tally {
  int pages = 0, checks = 0;
  std::vector<std::string> misses;
};

std::string page_place(const Lesson& l, int i, const char* when) {
  return l.path + ":" + std::to_string(l.pages[i].line) + ": page " + std::to_string(i + 1) +
         " (" + when + ")";
}

void check_text_fits(const Lesson& l, int i, const ScreenRecord& r, const char* when, Tally& t) {
  ++t.checks;
  if (r.text_hidden_px > 0.5f) {
    char px[32];
    std::snprintf(px, sizeof px, "%.0f", r.text_hidden_px);
    t.misses.push_back(page_place(l, i, when) + ": the page's text goes " + px +
                       " px below the lesson panel's fold");
  }
}

// The presentation layout on the frame just drawn (presentation_check.h).
void check_layout(App& app, const Lesson& l, int i, const char* when, Tally& t) {
  ++t.checks;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const UiState& ui = app.ui();
  const std::string p = presentation_problems(ui.prefs, ui.frame, ui.log, size.x, size.y);
  if (!p.empty()) t.misses.push_back(page_place(l, i, when) + ": " + p);
}

// One page: its state before the reveal (when it asks), then after.
void check_page(Headless& h, App& app, int i, Tally& t) {
  const Lesson& l = app.lesson()->lesson();
  const LessonPage& page = l.pages[i];
  h.settle(app);
  if (page.sees.empty())
    t.misses.push_back(page_place(l, i, "see") + ": no ```see line says what must be visible");
  if (app.lesson()->hints().hide_distribution) {
    const ScreenRecord before = screen_record(app.ui().log);
    check_text_fits(l, i, before, "before the reveal", t);
    check_layout(app, l, i, "before the reveal", t);
    const bool all_hold = std::all_of(page.sees.begin(), page.sees.end(), [&](const SeeLine& s) {
      return evaluate_see(s, before, l.path, display_text).ok;
    });
    ++t.checks;
    if (all_hold && !page.sees.empty())
      t.misses.push_back(page_place(l, i, "before the reveal") +
                         ": every see line already holds: the question shows its answer");
    app.push(cmd::LessonNext{});
    h.settle(app);
  }
  const ScreenRecord after = screen_record(app.ui().log);
  check_text_fits(l, i, after, "shown", t);
  check_layout(app, l, i, "shown", t);
  // Text a class can read from the back: 22 px at the projector's 28 px, in proportion at others.
  ++t.checks;
  const TextSizeReport sizes = measure_text_sizes(ImGui::GetDrawData());
  const float least = 22.0f * app.ui().prefs.font_size / 28.0f;
  if (sizes.glyphs > 0 && sizes.smallest_px < least - 0.25f) {
    char buf[160];
    std::snprintf(buf, sizeof buf, ": text %.1f px tall at (%.0f, %.0f), below %.1f px",
                  sizes.smallest_px, sizes.x, sizes.y, least);
    t.misses.push_back(page_place(l, i, "shown") + buf);
  }
  for (const SeeLine& s : page.sees) {
    ++t.checks;
    const SeeResult r = evaluate_see(s, after, l.path, display_text);
    if (!r.ok) t.misses.push_back(r.message);
  }
  ++t.pages;
}

// Returns true when the lesson passed.
bool render_lesson(const LessonRenderOptions& opt, const std::string& path, std::ostream& out) {
  Headless h(opt.width, opt.height);
  AppOptions ao;
  ao.lesson = path;
  ao.use_settings = false;
  ao.synchronous = true;
  ao.theme = "projector";
  ao.font_size = opt.font_size;
  ao.width = opt.width;
  ao.height = opt.height;
  ao.source_dir = opt.source_dir;
  ao.exe_path = opt.exe_path;
  App app(ao);
  app.start();
  app.record_drawn_always(true);
  h.settle(app);
  char where[64];
  std::snprintf(where, sizeof where, " @%dx%d:%g", opt.width, opt.height, opt.font_size);
  if (!app.lesson() || app.lesson()->page() < 0) {
    out << "FAIL " << path << where << ": the lesson did not open";
    for (const std::string& e : app.errors()) out << ": " << e;
    out << "\n";
    return false;
  }
  Tally t;
  const int n = app.lesson()->page_count();
  for (int i = 0; i < n; ++i) {
    if (i > 0) {
      app.push(cmd::LessonNext{});
      h.settle(app, 1);
      if (app.lesson()->page() != i) {
        t.misses.push_back(path + ": page " + std::to_string(i + 1) + " did not open");
        break;
      }
    }
    check_page(h, app, i, t);
  }
  // Then back to the first page, one Back at a time, as a teacher answering a question goes:
  // Back replays the session from the start, but what the later pages changed in the app (a
  // view, a panel's option) is still there, so each page is checked again as Back leaves it.
  const int forward_pages = t.pages;
  for (int i = n - 2; i >= 0 && static_cast<int>(t.misses.size()) == 0; --i) {
    app.push(cmd::LessonBack{});
    h.settle(app, 1);
    if (app.lesson()->page() != i) {
      t.misses.push_back(path + ": Back did not open page " + std::to_string(i + 1));
      break;
    }
    const size_t before = t.misses.size();
    check_page(h, app, i, t);
    for (size_t m = before; m < t.misses.size(); ++m) t.misses[m] += " (reached by Back)";
  }
  t.pages = forward_pages;
  for (const std::string& e : app.errors()) t.misses.push_back(path + ": " + e);
  if (t.misses.empty()) {
    out << "ok   " << path << where << ": " << t.pages << " pages, " << t.checks
        << " visible checks\n";
    return true;
  }
  out << "FAIL " << path << where << ": " << t.misses.size() << " problem(s) in " << t.pages
      << " pages, " << t.checks << " visible checks\n";
  for (const std::string& m : t.misses) out << "     " << m << "\n";
  return false;
}

}  // namespace

int run_lesson_render(const LessonRenderOptions& opt, std::ostream& out, std::ostream& err) {
  if (opt.width < 320 || opt.height < 240 || opt.width > 8192 || opt.height > 8192 ||
      !(opt.font_size >= 8 && opt.font_size <= 96)) {
    err << "tokenscope lesson check: --render wants WxH:FONT within 320x240..8192x8192 and a font "
           "of 8..96 px\n";
    return 2;
  }
  int failed = 0, passed = 0;
  for (const std::string& f : opt.lessons) {
    if (std::filesystem::path(f).filename() == "README.md") continue;
    (render_lesson(opt, f, out) ? passed : failed) += 1;
  }
  out << "rendered lessons: " << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace ts
