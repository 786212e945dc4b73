// The class poll as the app sees it, behind one interface: the desktop's host
// (desktop/poll_host_desktop.cpp) runs poll/'s HTTP server, state and tally; the web page has
// none (platform::make_poll_host returns nullptr there: a browser cannot run a server). Plain
// values only, so ts_ui builds without src/poll. Called on the UI thread; reading never waits
// for the server's threads longer than one snapshot's copy.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"

namespace ts {

class Tokenizer;

// One entry of the model's distribution at the step the class guesses (rank 1 = most likely).
struct PollModelToken {
  int id = -1;
  float p = 0.0f;
  int rank = 0;
};

// One bar of the class's guesses: the first token they count as, how many, and the model's
// rank and p of it (0 when the model's list does not have it).
struct PollBar {
  int token = -1;
  int count = 0;
  float p = 0.0f;
  int rank = 0;
  std::string example;  // one guess as a student typed it (plain text only)
};

// One look at the poll: the question and the class's answers counted by first token.
struct PollReading {
  bool open = false;
  int64_t step = -1;       // the app's id of what is guessed (a timeline node)
  uint64_t question = 0;   // 1, 2, ... a new number per opened question
  int answered = 0;        // students with a guess (one each: a later guess replaces)
  int counted = 0;         // of them, guesses that gave a token (the bars' total)
  int like_model = 0;      // guesses whose token is the model's rank-1 token
  int model_top = -1;      // that token
  std::vector<PollBar> bars;
};

// What the panel shows of a running poll, fixed while it runs.
struct PollInfo {
  std::string url;     // what students type or scan: http://HOST:PORT/?code=NNNN
  std::string listen;  // the address and port bound ("0.0.0.0:8080")
  std::string code;    // the class code
  int qr_size = 0;     // modules per side (0: no QR code)
  std::vector<bool> qr;  // (qr_size, qr_size) row-major, true = dark
};

class PollHost {
 public:
  virtual ~PollHost() = default;
  // Starts the server at "ADDR:PORT" (port 0: any free port) with `code` (4 digits; "" a random
  // one). Errors: a bad address or code, the port taken, a poll already running.
  virtual Status start(const std::string& address, const std::string& code) = 0;
  virtual void stop() = 0;  // joins the server's threads; safe when not running
  virtual bool running() const = 0;
  virtual PollInfo info() const = 0;
  virtual void open_question(int64_t step) = 0;  // starts with no guesses
  virtual void close_question() = 0;             // keeps the guesses given
  // Moves on every change (a guess counted, open, close): read() again only when it moved.
  virtual uint64_t revision() const = 0;
  virtual PollReading read(const Tokenizer& tok, std::span<const PollModelToken> model) const = 0;
  // This machine's addresses students could reach ("192.168.1.20"), for the Poll menu.
  virtual std::vector<std::string> lan_addresses() const = 0;
};

}  // namespace ts
