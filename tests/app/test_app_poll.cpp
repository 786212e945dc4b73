// The class poll inside the App, on loopback only (127.0.0.1, port 0): --poll starts it, a
// script's poll-open / poll-wait / poll-close drive it, 30 simulated students post guesses with
// httplib's client, and the panel's tally and the screenshot JSON's "poll" agree, each student
// counted once; a flood of posts while frames are drawn leaves the frame time bounded; a lesson's
// poll-open without a server says so and starts nothing.
#include <doctest/doctest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/app.h"
#include "app/view.h"
#include "harness.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts::test {
namespace {

namespace fs = std::filesystem;

AppOptions poll_options() {
  AppOptions o;
  o.model = std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf";
  o.prompt = "Once upon a time";
  o.has_prompt = true;
  o.use_settings = false;
  o.synchronous = true;
  o.poll_address = "127.0.0.1:0";  // loopback only, any free port
  o.poll_code = "4711";
  o.source_dir = TS_SOURCE_DIR;  // lessons' `model default`
  return o;
}

void poll_frames(ImGuiHarness& h, App& app, int n) {
  for (int i = 0; i < n && !app.wants_quit(); ++i) h.frame([&] { app.frame(1.0 / 60.0); });
}

int poll_port(const App& app) {
  REQUIRE(app.poll() != nullptr);
  const std::string listen = app.poll()->info().listen;
  REQUIRE(listen.rfind("127.0.0.1:", 0) == 0);
  return std::stoi(listen.substr(listen.find(':') + 1));
}

// One student's guess; the HTTP status (0: no answer).
int poll_post_guess(int port, const std::string& code, const std::string& name, const std::string& guess) {
  httplib::Client cli("127.0.0.1", port);
  cli.set_connection_timeout(2);
  cli.set_read_timeout(5);
  const httplib::Params form = {{"code", code}, {"name", name}, {"guess", guess}};
  const httplib::Result r = cli.Post("/guess", form);
  return r ? r->status : 0;
}

// The model's pieces at the step on screen, as text a student would type (raw rank order).
std::vector<std::string> poll_model_guesses(const App& app, int n) {
  const Session& s = app.session();
  const Step* st = current_step(s, 0);
  REQUIRE(st != nullptr);
  std::vector<std::string> out;
  for (int i = 0; i < n && i < static_cast<int>(st->sampling.raw.size()); ++i) {
    const int id = st->sampling.raw[i].id;
    out.push_back(s.tokenizer().decode(std::span<const int>(&id, 1)));
  }
  return out;
}

// Frames until `pred` holds or `seconds` passed.
template <class Pred>
bool poll_frames_until(ImGuiHarness& h, App& app, Pred pred, double seconds = 10) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > until) return false;
    poll_frames(h, app, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

nlohmann::json poll_screenshot_json(ImGuiHarness& h, App& app, const fs::path& png) {
  app.push(cmd::ExportPng{png.string()});
  for (int i = 0; i < 8; ++i) {
    h.frame([&] { app.frame(1.0 / 60.0); });
    if (std::optional<std::string> shot = app.screenshot_due()) {
      app.screenshot_written(*shot, ok_status());
      break;
    }
  }
  std::ifstream f(png.string() + ".json");
  REQUIRE(f.good());
  return nlohmann::json::parse(f);
}

}  // namespace

TEST_CASE("app poll: 30 students on loopback; the panel, the tally and the JSON agree") {
  ImGuiHarness h(1280, 720);
  App app(poll_options());
  app.start();
  poll_frames(h, app, 2);
  REQUIRE(app.poll() != nullptr);
  REQUIRE(app.poll()->running());
  CHECK(app.ui().poll.running);
  CHECK(app.ui().poll.code == "4711");
  CHECK(app.ui().poll.url.find("http://127.0.0.1:") == 0);
  app.push(cmd::Step{3});
  poll_frames(h, app, 1);
  app.push(cmd::PollOpen{});
  poll_frames(h, app, 2);
  REQUIRE(app.ui().poll.open);
  CHECK(app.ui().poll.step == app.session().cursor());
  const int port = poll_port(app);
  const std::vector<std::string> pieces = poll_model_guesses(app, 3);
  REQUIRE(pieces.size() == 3);

  // 30 students: 12 guess the model's top-1 as it writes it, 9 its second, 6 its third and 3
  // type nothing tokenizable twice over; 10 change their minds to the same answer (replaced, not
  // counted twice), and one wrong code is refused.
  // Six phones post at a time (one client address here; the server admits 8 connections each).
  constexpr int kStudents = 30;
  std::vector<std::thread> class_;
  std::atomic<int> ok{0};
  for (int row = 0; row < 6; ++row)
    class_.emplace_back([&, row] {
      for (int i = row; i < kStudents; i += 6) {
        const std::string guess = i < 12 ? pieces[0] : i < 21 ? pieces[1] : i < 27 ? pieces[2] : "zq";
        const std::string name = "student " + std::to_string(i);
        ok += poll_post_guess(port, "4711", name, guess) == 200;
        if (i % 3 == 0) ok += poll_post_guess(port, "4711", name, guess) == 200;
      }
    });
  for (std::thread& t : class_) t.join();
  CHECK(ok == kStudents + 10);
  CHECK(poll_post_guess(port, "1234", "intruder", pieces[0]) == 403);
  REQUIRE(poll_frames_until(h, app, [&] { return app.ui().poll.answered == kStudents; }));
  poll_frames(h, app, 2);

  const PollPanelState& p = app.ui().poll;
  CHECK(p.answered == kStudents);
  int total = 0;
  for (const PollBarRow& b : p.bars) total += b.count;
  CHECK(total == p.counted);
  CHECK(p.counted <= kStudents);
  CHECK(p.counted >= 27);  // "zq" may or may not give a token of its own
  CHECK(p.like_model == 12);
  REQUIRE(!p.bars.empty());
  CHECK(p.bars[0].count == 12);
  CHECK(p.bars[0].rank == 1);
  CHECK(p.model_top == p.bars[0].piece);

  const fs::path dir = fs::temp_directory_path() / "ts_app_poll";
  fs::create_directories(dir);
  const nlohmann::json j = poll_screenshot_json(h, app, dir / "poll.png");
  REQUIRE(j["poll"].is_object());
  CHECK(j["poll"]["open"] == true);
  CHECK(j["poll"]["guesses"] == kStudents);
  CHECK(j["poll"]["counted"] == p.counted);
  int json_total = 0;
  std::map<std::string, int> seen;
  for (const auto& t : j["poll"]["top"]) {
    json_total += t["count"].get<int>();
    CHECK(++seen[t["piece"].get<std::string>()] == 1);  // each token once
  }
  CHECK(json_total == p.counted);
  CHECK(j["poll"]["top"][0]["rank"] == 1);
  CHECK(j["poll"]["top"][0]["count"] == 12);
  CHECK(j["poll"]["top"][0]["p"].get<double>() == doctest::Approx(p.bars[0].p));

  // Closed: later guesses are refused, the tally stays.
  app.push(cmd::PollClose{});
  poll_frames(h, app, 2);
  CHECK_FALSE(app.ui().poll.open);
  CHECK(poll_post_guess(port, "4711", "late", pieces[0]) == 409);
  poll_frames(h, app, 2);
  CHECK(app.ui().poll.answered == kStudents);
  app.push(cmd::PollStop{});
  poll_frames(h, app, 2);
  CHECK_FALSE(app.ui().poll.running);
  CHECK(poll_post_guess(port, "4711", "after", pieces[0]) == 0);
}

TEST_CASE("app poll: a flood of posts while frames are drawn keeps the frame time bounded") {
  ImGuiHarness h(1280, 720);
  App app(poll_options());
  app.start();
  app.ui().prefs.show[static_cast<int>(PanelId::Poll)] = true;
  poll_frames(h, app, 2);
  app.push(cmd::Step{2});
  poll_frames(h, app, 1);  // the step runs on the worker after the frame's app commands
  app.push(cmd::PollOpen{});
  poll_frames(h, app, 2);
  for (const std::string& e : app.errors()) MESSAGE(e);
  REQUIRE(app.ui().poll.open);
  const int port = poll_port(app);
  std::atomic<bool> stop{false};
  std::atomic<int> sent{0};
  std::vector<std::thread> flood;
  for (int t = 0; t < 6; ++t)
    flood.emplace_back([&, t] {
      for (int k = 0; !stop && k < 5000; ++k) {
        poll_post_guess(port, "4711", "flood " + std::to_string(t) + "-" + std::to_string(k % 300),
                   "w" + std::to_string(k % 7));
        ++sent;
      }
    });
  double worst = 0;
  const auto begin = std::chrono::steady_clock::now();
  int frames = 0;
  while (std::chrono::steady_clock::now() - begin < std::chrono::seconds(2)) {
    const auto t0 = std::chrono::steady_clock::now();
    poll_frames(h, app, 1);
    worst = std::max(worst, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    ++frames;
  }
  stop = true;
  for (std::thread& t : flood) t.join();
  poll_frames(h, app, 2);
  MESSAGE(frames << " frames under " << sent.load() << " posts, worst " << worst * 1000 << " ms");
  CHECK(sent > 100);
  CHECK(frames > 20);
  CHECK(worst < 0.5);  // generous: the frames never wait for the server
  // Nothing counted twice: each name once, never more than the class limit of 200 names.
  const PollPanelState& p = app.ui().poll;
  int total = 0;
  for (const PollBarRow& b : p.bars) total += b.count;
  CHECK(total == p.counted);
  CHECK(p.answered <= 200);
  CHECK(p.answered > 0);
}

TEST_CASE("app poll: a script's poll-open and poll-wait; without a server they are errors") {
  const fs::path dir = fs::temp_directory_path() / "ts_app_poll_script";
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "wait.script");
    f << "step 2\npoll-open\npoll-wait 3 20\npoll-close\n";
  }
  ImGuiHarness h(1280, 720);
  AppOptions o = poll_options();
  o.script = (dir / "wait.script").string();
  App app(o);
  app.start();
  REQUIRE(poll_frames_until(h, app, [&] { return app.ui().poll.open; }));
  const int port = poll_port(app);
  poll_frames(h, app, 5);
  CHECK(app.ui().poll.open);  // waiting: the script has not closed it
  CHECK_FALSE(app.script_finished());
  for (int i = 0; i < 3; ++i) CHECK(poll_post_guess(port, "4711", "s" + std::to_string(i), "the") == 200);
  REQUIRE(poll_frames_until(h, app, [&] { return app.script_finished(); }));
  poll_frames(h, app, 2);
  CHECK_FALSE(app.ui().poll.open);
  CHECK(app.ui().poll.answered == 3);
  CHECK(app.errors().empty());

  AppOptions off = poll_options();
  off.poll_address.clear();
  off.script = (dir / "wait.script").string();
  App no_server(off);
  no_server.start();
  poll_frames(h, no_server, 12);
  CHECK_FALSE(no_server.poll()->running());
  CHECK(!no_server.errors().empty());
  CHECK(no_server.exit_code() == 1);
}

TEST_CASE("app poll: a lesson's poll-open opens the teacher's poll, and without one says so") {
  const fs::path dir = fs::temp_directory_path() / "ts_app_poll_lesson";
  fs::create_directories(dir);
  const std::string lesson = (dir / "poll.md").string();
  {
    std::ofstream f(lesson);
    f << "---\ntitle: A poll\n---\n\n## Guess\n\nWhat comes next?\n\n```do\nprompt \"Once upon a "
         "time\"\nstep\npoll-open\n```\n\n```ask\nWhat will the model write?\n```\n\n```reveal\n"
         "step\n```\n\n## After\n\n```do\npoll-close\n```\n";
  }
  ImGuiHarness h(1280, 720);
  AppOptions off = poll_options();
  off.poll_address.clear();
  off.lesson = lesson;
  App no_server(off);
  no_server.start();
  poll_frames(h, no_server, 3);
  for (const std::string& e : no_server.errors()) MESSAGE(e);
  CHECK(no_server.errors().empty());
  CHECK_FALSE(no_server.poll()->running());
  CHECK(no_server.ui().poll.notice.find("No class poll is running") != std::string::npos);
  CHECK(no_server.ui().status.message.find("No class poll is running") != std::string::npos);
  CHECK_FALSE(no_server.ui().status.message_is_error);

  AppOptions on = poll_options();
  on.lesson = lesson;
  App app(on);
  app.start();
  poll_frames(h, app, 3);
  REQUIRE(app.ui().poll.open);
  const int port = poll_port(app);
  CHECK(poll_post_guess(port, "4711", "Ana", "the") == 200);
  REQUIRE(poll_frames_until(h, app, [&] { return app.ui().poll.answered == 1; }));
  app.push(cmd::LessonNext{});  // the reveal steps on: the question and its guess stay
  poll_frames(h, app, 3);
  CHECK(app.ui().poll.open);
  CHECK(app.ui().poll.answered == 1);
  app.push(cmd::LessonNext{});  // the next page closes it
  poll_frames(h, app, 3);
  CHECK_FALSE(app.ui().poll.open);
  CHECK(app.errors().empty());
}

}  // namespace ts::test

namespace ts::test {

TEST_CASE("app poll: the script verbs parse; bad poll-wait arguments name the line") {
  Result<std::vector<ScriptLine>> r = parse_script("poll-open\npoll-wait 30\npoll-wait 5 90\npoll-close\n");
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 4);
  CHECK(std::holds_alternative<verb::PollOpen>(r.value()[0].verb));
  REQUIRE(std::holds_alternative<verb::PollWait>(r.value()[1].verb));
  CHECK(std::get<verb::PollWait>(r.value()[1].verb).answers == 30);
  CHECK(std::get<verb::PollWait>(r.value()[1].verb).seconds == 30);
  CHECK(std::get<verb::PollWait>(r.value()[2].verb).answers == 5);
  CHECK(std::get<verb::PollWait>(r.value()[2].verb).seconds == 90);
  CHECK(std::holds_alternative<verb::PollClose>(r.value()[3].verb));
  for (const char* bad : {"poll-wait", "poll-wait 0", "poll-wait x", "poll-wait 3 0",
                          "poll-wait 3 4000", "poll-open now"}) {
    CAPTURE(bad);
    Result<std::vector<ScriptLine>> b = parse_script(std::string("step\n") + bad + "\n");
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message.find("line 2") == 0);
  }
}

TEST_CASE("app poll: --poll and --poll-code are app options; a bad code is refused") {
  const char* good[] = {"tokenscope", "--poll", "127.0.0.1:0", "--poll-code", "0042"};
  Result<AppOptions> o = parse_app_options(5, const_cast<char**>(good));
  REQUIRE(o.ok());
  CHECK(o.value().poll_address == "127.0.0.1:0");
  CHECK(o.value().poll_code == "0042");
  const char* bad[] = {"tokenscope", "--poll-code", "12a4"};
  CHECK_FALSE(parse_app_options(3, const_cast<char**>(bad)).ok());
  CHECK(std::string(app_usage()).find("--poll ADDR:PORT") != std::string::npos);
  // A bad address is reported at start, and nothing listens.
  ImGuiHarness h(1280, 720);
  AppOptions opt = poll_options();
  opt.poll_address = "example.org:80";
  App app(opt);
  app.start();
  poll_frames(h, app, 2);
  CHECK_FALSE(app.poll()->running());
  CHECK_FALSE(app.errors().empty());
}

}  // namespace ts::test
