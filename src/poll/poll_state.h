// The class poll's state: the class code, the open question (a step id the app gives) and each
// student's latest guess to it, with the limits that keep a class (or one student) from flooding
// it. Thread-safe: the HTTP server's threads submit, the app's UI thread opens, closes and reads
// (snapshot() each time revision() has moved). Guesses are kept as typed; tokenizing them is
// class_tally.h's job.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "poll/rate_limit.h"

namespace ts {

struct PollLimits {
  size_t max_names = 200;          // distinct students per question; later new names are refused
  size_t max_name_chars = 32;      // code points
  size_t max_guess_chars = 40;     // code points
  RateLimit per_name{3, 0.5};      // one student: 3 guesses at once, then one every 2 s
  RateLimit all_guesses{120, 60};  // the whole class together
  RateLimit wrong_code{5, 0.1};    // per client address: 5 wrong codes, then one every 10 s
  size_t max_tracked = 1024;       // names / addresses whose rate is remembered
};

struct PollGuess {
  std::string name;    // as the student last typed it (trimmed)
  std::string text;    // the guess exactly as sent (checked, not trimmed)
  uint64_t order = 0;  // when it arrived (a counter): later guesses have larger numbers
};

struct PollQuestion {
  bool open = false;
  int64_t step = -1;      // the app's id for what is being guessed (-1 before the first)
  uint64_t question = 0;  // 1, 2, ...: a new number each time a question opens
};

struct PollSnapshot {
  PollQuestion question;
  std::vector<PollGuess> guesses;  // one per student, in the order they first answered
  uint64_t revision = 0;
};

enum class GuessResult {
  Accepted,     // a first guess from this name
  Replaced,     // this name's earlier guess replaced
  WrongCode,    // the class code does not match
  CodeLocked,   // too many wrong codes from this client: wait
  NoQuestion,   // no question is open
  BadName,      // empty, too long, invalid UTF-8 or control characters
  BadGuess,     // the same rules for the guess
  ClassFull,    // max_names students have answered already
  NameTooFast,  // this name's rate limit
  ClassTooFast  // the whole class's rate limit (or too many names tracked)
};
const char* guess_result_message(GuessResult r);  // one line for the student
bool guess_counted(GuessResult r);                // Accepted or Replaced

// What a request for the question's state gets: the question, or why not.
enum class CodeCheck { Ok, WrongCode, CodeLocked };

class PollState {
 public:
  explicit PollState(PollLimits limits = {});  // a random 4-digit code
  // Four ASCII digits; anything else is refused and the code is kept.
  Status set_code(std::string_view code);
  std::string code() const;
  const PollLimits& limits() const { return limits_; }

  // Opens a new question for `step`: the guesses start empty. Opening while open starts anew.
  void open_question(int64_t step);
  // Closes it: guesses are refused from now on, the ones given are kept until the next open.
  void close_question();

  // A student's guess. `client` is the sender's address (the wrong-code limit is per client).
  GuessResult submit(std::string_view code, std::string_view name, std::string_view guess,
                     const std::string& client, PollClock::time_point now);
  // The class code checked as submit checks it (for the page's "waiting" poll).
  CodeCheck check_code(std::string_view code, const std::string& client, PollClock::time_point now);

  PollQuestion question() const;
  PollSnapshot snapshot() const;
  // Moves on every change (open, close, a counted guess): cheap, for the UI's "anything new?".
  uint64_t revision() const { return revision_.load(std::memory_order_acquire); }

 private:
  CodeCheck check_code_locked(std::string_view code, const std::string& client,
                              PollClock::time_point now);
  void bump() { revision_.fetch_add(1, std::memory_order_acq_rel); }

  const PollLimits limits_;
  mutable std::mutex mu_;
  std::string code_;
  PollQuestion question_;
  std::vector<PollGuess> guesses_;  // one per student
  std::vector<std::string> keys_;   // (guesses_.size()) name_key of each
  uint64_t next_order_ = 1;
  BucketMap per_name_;
  TokenBucket all_guesses_;
  BucketMap wrong_codes_;
  std::atomic<uint64_t> revision_{0};
};

// A random code of four ASCII digits.
std::string random_class_code();

}  // namespace ts
