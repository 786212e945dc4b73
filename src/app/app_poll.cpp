// App, part 4: the class poll (app/poll_host.h). Its commands are applied here on the UI thread:
// start and stop the server, open the question for the step on screen, close it. Each frame the
// Class poll panel's state is read again only when the poll's revision moved (one snapshot, never
// a wait on the server). A lesson's poll-open without a server says so in the panel; a script's
// poll-wait holds the script (not the frames) until enough students answered or time is up.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/platform.h"
#include "app/view.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {
namespace {

constexpr const char* kNoServer =
    "No class poll is running: start one from the Poll menu, or start tokenscope with "
    "--poll ADDR:PORT (e.g. --poll 0.0.0.0:8080).";

// The model's raw distribution at timeline node `node` of `lane` (rank 1 = most likely), empty
// when that step is gone (a new prompt or model).
std::vector<PollModelToken> model_list(const Session& s, int lane, int node) {
  std::vector<PollModelToken> out;
  if (!has_model(s) || lane < 0 || lane >= lane_count(s) || node < 0 ||
      node >= timeline(s, lane).size())
    return out;
  const std::vector<Candidate>& raw = timeline(s, lane).node(node).sampling.raw;
  for (size_t i = 0; i < raw.size(); ++i)
    out.push_back(PollModelToken{raw[i].id, raw[i].p, static_cast<int>(i) + 1});
  return out;
}

// The step index of `node` on `lane`'s current path, -1 when it is not on it.
int step_of_node(const Session& s, int lane, int node) {
  if (!has_model(s) || lane < 0 || lane >= lane_count(s)) return -1;
  const std::vector<int>& path = timeline(s, lane).path();
  const auto it = std::find(path.begin(), path.end(), node);
  return it == path.end() ? -1 : static_cast<int>(it - path.begin());
}

}  // namespace

Status App::apply_poll_command(const Command& c) {
  if (!poll_) return make_error("a web page cannot host the class poll (no server in a browser)");
  poll_seen_ = ~uint64_t{0};  // read the poll again this frame
  if (const auto* st = std::get_if<cmd::PollStart>(&c)) {
    Status r = poll_->start(st->address, st->code.empty() ? opt_.poll_code : st->code);
    ui_.poll.notice = r.ok() ? "" : "The poll did not start: " + r.error().message;
    if (!r.ok()) return r;
    ui_.prefs.show[static_cast<int>(PanelId::Poll)] = true;
    ui_.status.set_message("class poll at " + poll_->info().url, false);
    return ok_status();
  }
  if (std::holds_alternative<cmd::PollStop>(c)) {
    poll_->stop();
    poll_wait_.reset();
    ui_.poll.addresses = poll_->lan_addresses();
    return ok_status();
  }
  if (!poll_->running()) {
    ui_.poll.notice = kNoServer;
    return make_error(kNoServer);
  }
  if (std::holds_alternative<cmd::PollClose>(c)) {
    poll_->close_question();
    return ok_status();
  }
  const int node = shown_node(session_, ui_.sel);
  if (node < 0) return make_error("no step to ask about yet: step once first");
  poll_lane_ = shown_lane(session_, ui_.sel);
  poll_node_ = node;
  poll_lesson_page_ = -1;
  poll_->open_question(node);
  ui_.prefs.show[static_cast<int>(PanelId::Poll)] = true;
  return ok_status();
}

// A lesson page's `poll-open` / `poll-close` ("" none). Lessons never start a server: without
// one the status bar and the panel say how to start it (the panels stay as the page set them),
// and the page goes on. A page opens its question once: the hints applied again (its reveal,
// which may step on) keep the class's guesses.
void App::apply_lesson_poll(const std::string& what) {
  if (what.empty()) return;
  if (!poll_ || !poll_->running()) {
    ui_.poll.notice = poll_ ? std::string("This page asks the class. ") + kNoServer
                            : std::string("A web page cannot host the class poll.");
    if (what == "open") ui_.status.set_message(ui_.poll.notice, false);
    return;
  }
  ui_.prefs.show[static_cast<int>(PanelId::Poll)] = true;
  const int page = lesson_ ? lesson_->page() : -1;
  if (what == "close") {
    poll_->close_question();
  } else if (!(ui_.poll.open && poll_lesson_page_ == page)) {
    Status st = apply_poll_command(cmd::PollOpen{});
    if (!st.ok()) ui_.poll.notice = st.error().message;
    poll_lesson_page_ = page;
  }
  poll_seen_ = ~uint64_t{0};
}

void App::refresh_poll() {
  PollPanelState& p = ui_.poll;
  p.available = poll_ != nullptr;
  if (!poll_) return;
  const bool running = poll_->running();
  if (running == p.running && running && poll_->revision() == poll_seen_) return;
  if (!running && !p.running && poll_seen_ == 0) return;
  p.running = running;
  if (!running) {
    const std::string notice = p.notice;
    const std::vector<std::string> addresses = p.addresses;
    const int port = p.port_edit;
    const std::string code = p.code_edit;
    p = PollPanelState{};
    p.available = true;
    p.notice = notice;
    p.addresses = addresses;
    p.port_edit = port;
    p.code_edit = code;
    poll_seen_ = 0;
    return;
  }
  poll_seen_ = poll_->revision();
  const PollInfo info = poll_->info();
  p.url = info.url;
  p.listen = info.listen;
  p.code = info.code;
  p.qr_size = info.qr_size;
  p.qr = info.qr;
  p.notice.clear();
  if (!has_model(session_)) return;  // the guesses are counted by the model's tokens
  const std::vector<PollModelToken> model = model_list(session_, poll_lane_, poll_node_);
  const PollReading r = poll_->read(session_.tokenizer(), model);
  const bool ours = r.step == poll_node_ && r.step >= 0;
  p.open = r.open && ours;
  p.step = ours ? step_of_node(session_, poll_lane_, poll_node_) : -1;
  p.answered = r.answered;
  p.counted = r.counted;
  p.like_model = r.like_model;
  p.model_top = r.model_top >= 0 ? session_.tokenizer().display_piece(r.model_top) : "";
  p.bars.clear();
  for (const PollBar& b : r.bars)
    p.bars.push_back(PollBarRow{session_.tokenizer().display_piece(b.token), b.example, b.count,
                                b.p, b.rank});
}

// A script's poll-wait: true while it still waits (the frames go on; the script does not).
bool App::poll_waiting() {
  if (!poll_wait_) return false;
  const bool enough = ui_.poll.answered >= poll_wait_->answers;
  if (enough || !poll_ || !poll_->running() ||
      std::chrono::steady_clock::now() >= poll_wait_->until) {
    poll_wait_.reset();
    return false;
  }
  return true;
}

}  // namespace ts
