// The desktop's class poll (app/poll_host.h): poll/'s state, HTTP server and tally inside the
// app's process, off until started. The URL students see names a LAN address when the server is
// bound to all of them (0.0.0.0), and the QR code encodes that URL. The server's own threads
// fill the state; this class only starts, stops, opens, closes and reads a snapshot.
#include <memory>
#include <utility>

#include "app/platform.h"
#include "app/poll_host.h"
#include "poll/class_tally.h"
#include "poll/lan_addresses.h"
#include "poll/listen_address.h"
#include "poll/poll_server.h"
#include "poll/poll_state.h"
#include "poll/qr_matrix.h"

namespace ts {
namespace {

class DesktopPollHost final : public PollHost {
 public:
  Status start(const std::string& address, const std::string& code) override {
    if (running()) return make_error("a poll is already running at " + info_.listen);
    Result<ListenAddress> at = parse_listen_address(address);
    if (!at.ok()) return at.error();
    auto state = std::make_shared<PollState>();
    if (!code.empty()) TS_TRY(state->set_code(code));
    Result<std::unique_ptr<PollServer>> server = PollServer::start(at.value(), state);
    if (!server.ok()) return server.error();
    server_ = std::move(server.value());
    state_ = std::move(state);
    info_ = PollInfo{};
    info_.code = state_->code();
    const bool wildcard = server_->host() == "0.0.0.0" || server_->host() == "::";
    std::string shown = server_->host();
    if (wildcard) {  // bound to every address: show the first one students could reach
      const std::vector<LanAddress> lan = lan_ipv4_addresses();
      shown = lan.empty() ? "127.0.0.1" : lan.front().address;
    }
    const bool v6 = server_->host().find(':') != std::string::npos;
    info_.listen = (v6 ? "[" + server_->host() + "]" : server_->host()) + ":" +
                   std::to_string(server_->port());
    info_.url = poll_url(shown, server_->port(), info_.code);
    if (Result<QrMatrix> qr = qr_encode(info_.url); qr.ok()) {
      info_.qr_size = qr.value().size;
      info_.qr = qr.value().dark;
    }
    return ok_status();
  }

  void stop() override {
    if (server_) server_->stop();
    server_.reset();
    state_.reset();
    info_ = PollInfo{};
  }

  bool running() const override { return server_ && server_->running(); }
  PollInfo info() const override { return info_; }

  void open_question(int64_t step) override {
    if (state_) state_->open_question(step);
  }
  void close_question() override {
    if (state_) state_->close_question();
  }
  uint64_t revision() const override { return state_ ? state_->revision() : 0; }

  PollReading read(const Tokenizer& tok, std::span<const PollModelToken> model) const override {
    PollReading r;
    if (!state_) return r;
    const PollSnapshot snap = state_->snapshot();
    r.open = snap.question.open;
    r.step = snap.question.step;
    r.question = snap.question.question;
    r.answered = static_cast<int>(snap.guesses.size());
    std::vector<ModelToken> list;
    list.reserve(model.size());
    for (const PollModelToken& m : model) list.push_back(ModelToken{m.id, m.p, m.rank});
    const ClassTally t = tally_guesses(snap.guesses, tok, list);
    r.counted = t.guesses;
    r.like_model = t.like_model;
    r.model_top = t.model_top;
    for (const TallyBar& b : t.bars) r.bars.push_back(PollBar{b.token, b.count, b.p, b.rank, b.example});
    return r;
  }

  std::vector<std::string> lan_addresses() const override {
    std::vector<std::string> out;
    for (const LanAddress& a : lan_ipv4_addresses()) out.push_back(a.address);
    return out;
  }

 private:
  std::shared_ptr<PollState> state_;
  std::unique_ptr<PollServer> server_;
  PollInfo info_;
};

}  // namespace

namespace platform {
std::unique_ptr<PollHost> make_poll_host() { return std::make_unique<DesktopPollHost>(); }
}  // namespace platform

}  // namespace ts
