// The Class poll panel without a window: what it says on the web page (no server), before a
// poll runs and with one running; the QR code drawn big enough to scan (at least 4 px a module at
// 1280x720); the guesses' bars with the model's rank and p; student text drawn as plain text
// (format directives in it come out literally); its buttons ask for poll-open / poll-close.
#include <doctest/doctest.h>

#include <string>

#include "app/panels/panels.h"
#include "harness.h"
#include "poll/qr_matrix.h"

namespace ts::test {
namespace {

// A laid-out UI at 1280x720 with the Class poll panel in focus.
UiState poll_panel_ui() {
  UiState ui;
  ui.prefs.show[static_cast<int>(PanelId::Poll)] = true;
  ui.prefs.focus_panel = static_cast<int>(PanelId::Poll);
  compute_layout(ui, 1280, 720, 22.0f, 16.0f);
  ui.log.record = true;
  return ui;
}

// A running poll with a question open and three guessed tokens.
void poll_running_state(PollPanelState& p) {
  p.available = true;
  p.running = true;
  p.url = "http://192.168.1.20:8080/?code=4711";
  p.listen = "0.0.0.0:8080";
  p.code = "4711";
  Result<QrMatrix> qr = qr_encode(p.url);
  REQUIRE(qr.ok());
  p.qr_size = qr.value().size;
  p.qr = qr.value().dark;
  p.open = true;
  p.step = 3;
  p.answered = 7;
  p.counted = 6;
  p.like_model = 4;
  p.model_top = "␣the";
  p.bars = {{"␣the", "the", 4, 0.41f, 1}, {"␣a", "%s%n%x", 1, 0.12f, 2}, {"%d%%s", "%d%%s", 1, 0, 0}};
}

bool poll_drawn_text(const UiState& ui, const std::string& text) {
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "text" && d.label.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("poll panel: the web page says it cannot host a poll; no poll running says how") {
  ImGuiHarness h(1280, 720);
  Session s;
  UiState ui = poll_panel_ui();
  Commands cmd;
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  CHECK(poll_drawn_text(ui, "A web page cannot host the class poll"));
  ui.poll.available = true;
  ui.log.clear();
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  CHECK(poll_drawn_text(ui, "No class poll is running"));
  CHECK(find_drawn(ui, "poll_qr") == nullptr);
  ui.poll.notice = "This page asks the class. Start one from the Poll menu";
  ui.log.clear();
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  CHECK(poll_drawn_text(ui, "This page asks the class."));
  CHECK(cmd.empty());
}

TEST_CASE("poll panel: address, code, a scannable QR code and the guesses beside the model") {
  ImGuiHarness h(1280, 720);
  Session s;
  UiState ui = poll_panel_ui();
  poll_running_state(ui.poll);
  Commands cmd;
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  ui.log.finish_frame();
  CHECK(cmd.empty());
  const DrawnItem* url = find_drawn(ui, "poll_url");
  REQUIRE(url != nullptr);
  CHECK(url->label == ui.poll.url);
  CHECK(url->visible);
  REQUIRE(find_drawn(ui, "poll_code") != nullptr);
  CHECK(find_drawn(ui, "poll_code")->label == "Class code 4711");
  const DrawnItem* qr = find_drawn(ui, "poll_qr");
  REQUIRE(qr != nullptr);
  CHECK(qr->visible);
  const float module_px = qr->rect.w / static_cast<float>(ui.poll.qr_size + 8);
  CHECK(module_px >= 4.0f);
  CHECK(qr->rect.w == doctest::Approx(qr->rect.h));
  // The bars: one per guessed token, in the order given, each with its count.
  int bars = 0;
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "poll_bar") {
      CHECK(d.label == ui.poll.bars[bars].piece);
      CHECK(d.state == std::to_string(ui.poll.bars[bars].count));
      CHECK(d.visible);
      ++bars;
    }
  CHECK(bars == 3);
  CHECK(poll_drawn_text(ui, "4 · rank 1 · 41.0%"));
  CHECK(poll_drawn_text(ui, "1 · not in the model's top list"));
  CHECK(poll_drawn_text(ui, "Question open (step 3): 7 answers"));
  const DrawnItem* like = find_drawn(ui, "poll_like_model");
  REQUIRE(like != nullptr);
  CHECK(like->label.find("4 of 6 students thought like the model") == 0);
  // A piece with format directives is drawn as it reads (plain text, not a format).
  bool literal = false;
  for (const DrawnItem& d : ui.log.drawn) literal |= d.kind == "poll_bar" && d.label == "%d%%s";
  CHECK(literal);
  for (const ClippedText& c : ui.log.clipped) CHECK_MESSAGE(c.panel != "Class poll", c.text << " (" << c.how << ")");
}

TEST_CASE("poll panel: hovering a guess shows the student's text; the button closes or opens") {
  ImGuiHarness h(1280, 720);
  Session s;
  UiState ui = poll_panel_ui();
  poll_running_state(ui.poll);
  Commands cmd;
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  const DrawnItem* bar = nullptr;
  for (const DrawnItem& d : ui.log.drawn)
    if (d.kind == "poll_bar" && d.label == "␣a") bar = &d;
  REQUIRE(bar != nullptr);
  // The label sits left of its bar: hover it (the tooltip's text is "%s%n%x", drawn as is).
  ImGui::GetIO().MousePos = ImVec2(bar->rect.x - 20, bar->rect.y + bar->rect.h * 0.5f);
  for (int f = 0; f < 3; ++f) h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  CHECK(cmd.empty());
  ui.log.clear();
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  const DrawnItem* close = find_drawn(ui, "button", "poll_close");
  REQUIRE(close != nullptr);
  h.click(close->rect.x + close->rect.w / 2, close->rect.y + close->rect.h / 2,
          [&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  CHECK(cmd.find<cmd::PollClose>() != nullptr);
  ui.poll.open = false;
  cmd.clear();
  ui.log.clear();
  h.frame([&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  const DrawnItem* open = find_drawn(ui, "button", "poll_open");
  REQUIRE(open != nullptr);
  h.click(open->rect.x + open->rect.w / 2, open->rect.y + open->rect.h / 2,
          [&] { draw_poll_panel(s, ui.env(), ui.poll, cmd); });
  CHECK(cmd.find<cmd::PollOpen>() != nullptr);
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("poll menu: offers this machine's addresses and 127.0.0.1; the web page says it cannot") {
  ImGuiHarness h(1280, 720);
  Session s;
  UiState ui = poll_panel_ui();
  ui.poll.available = true;
  ui.poll.addresses = {"192.168.1.20"};
  Commands cmd;
  auto menu = [&] { draw_menu_bar(s, ui, cmd); };
  h.frame(menu);
  REQUIRE(find_drawn(ui, "menu", "Poll") != nullptr);
  const PanelRect title = find_drawn(ui, "menu", "Poll")->rect;  // a copy: the log is refilled
  h.click(title.x + title.w / 2, title.y + title.h / 2, menu);
  ui.log.clear();
  ImGui::GetIO().MousePos = ImVec2(title.x + 2, title.y + title.h / 2);
  h.frame(menu);
  const DrawnItem* lan = find_drawn(ui, "menu_item", "poll_start 192.168.1.20:8080");
  const DrawnItem* local = find_drawn(ui, "menu_item", "poll_start 127.0.0.1:8080");
  REQUIRE(lan != nullptr);
  REQUIRE(local != nullptr);
  h.click(local->rect.x + local->rect.w / 2, local->rect.y + local->rect.h / 2, menu);
  const cmd::PollStart* start = cmd.find<cmd::PollStart>();
  REQUIRE(start != nullptr);
  CHECK(start->address == "127.0.0.1:8080");
  CHECK(start->code.empty());

  UiState web = poll_panel_ui();  // available == false: the page's build
  Commands none;
  auto web_menu = [&] { draw_menu_bar(s, web, none); };
  h.frame(web_menu);
  const DrawnItem* wt = find_drawn(web, "menu", "Poll");
  REQUIRE(wt != nullptr);
  h.click(wt->rect.x + wt->rect.w / 2, wt->rect.y + wt->rect.h / 2, web_menu);
  web.log.clear();
  h.frame(web_menu);
  CHECK(poll_drawn_text(web, "A web page cannot host the class poll"));
  CHECK(none.empty());
}

}  // namespace ts::test
