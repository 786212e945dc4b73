// The poll's state under one mutex: every check a guess passes, in the order that costs least
// for an honest class and most for a flood (code, question, text, rates, room).
#include "poll/poll_state.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "poll/student_text.h"

namespace ts {

const char* guess_result_message(GuessResult r) {
  switch (r) {
    case GuessResult::Accepted:
      return "Got it! Your guess is in.";
    case GuessResult::Replaced:
      return "Got it! Your new guess replaces your earlier one.";
    case GuessResult::WrongCode:
      return "That class code is not right. Check the board.";
    case GuessResult::CodeLocked:
      return "Too many wrong codes. Wait a minute, then try again.";
    case GuessResult::NoQuestion:
      return "No question is open right now. Wait for the next one.";
    case GuessResult::BadName:
      return "Please type a short name (letters, no special characters).";
    case GuessResult::BadGuess:
      return "Please type a short guess (one word or a few letters).";
    case GuessResult::ClassFull:
      return "This question has as many answers as it can take.";
    case GuessResult::NameTooFast:
      return "Slow down: wait a few seconds before guessing again.";
    case GuessResult::ClassTooFast:
      return "The class is busy. Try again in a moment.";
  }
  return "?";
}

bool guess_counted(GuessResult r) {
  return r == GuessResult::Accepted || r == GuessResult::Replaced;
}

std::string random_class_code() {
  uint64_t seed =
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  try {
    std::random_device rd;
    seed ^= (static_cast<uint64_t>(rd()) << 32) ^ rd();
  } catch (...) {  // no entropy source: the clock alone still gives a code nobody typed before
  }
  std::mt19937_64 gen(seed);
  std::string code(4, '0');
  for (char& c : code) c = static_cast<char>('0' + gen() % 10);
  return code;
}

PollState::PollState(PollLimits limits)
    : limits_(limits),
      code_(random_class_code()),
      per_name_(limits.per_name, limits.max_tracked),
      all_guesses_(limits.all_guesses),
      wrong_codes_(limits.wrong_code, limits.max_tracked) {}

Status PollState::set_code(std::string_view code) {
  const bool digits = code.size() == 4 && std::all_of(code.begin(), code.end(),
                                                      [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) return make_error("a class code is four digits, 0000 to 9999");
  std::lock_guard<std::mutex> lock(mu_);
  code_ = std::string(code);
  bump();
  return ok_status();
}

std::string PollState::code() const {
  std::lock_guard<std::mutex> lock(mu_);
  return code_;
}

void PollState::open_question(int64_t step) {
  std::lock_guard<std::mutex> lock(mu_);
  question_ = {true, step, question_.question + 1};
  guesses_.clear();
  keys_.clear();
  bump();
}

void PollState::close_question() {
  std::lock_guard<std::mutex> lock(mu_);
  question_.open = false;
  bump();
}

CodeCheck PollState::check_code_locked(std::string_view code, const std::string& client,
                                       PollClock::time_point now) {
  if (!wrong_codes_.can_take(client, now)) return CodeCheck::CodeLocked;
  if (code == code_) return CodeCheck::Ok;
  wrong_codes_.take(client, now);  // NoRoom: too many clients guessing codes; still wrong
  return CodeCheck::WrongCode;
}

CodeCheck PollState::check_code(std::string_view code, const std::string& client,
                                PollClock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  return check_code_locked(code, client, now);
}

GuessResult PollState::submit(std::string_view code, std::string_view name, std::string_view guess,
                              const std::string& client, PollClock::time_point now) {
  const std::string_view shown = trim_spaces(name);
  const bool name_ok = check_student_text(shown, limits_.max_name_chars) == TextProblem::None;
  const bool guess_ok = check_student_text(guess, limits_.max_guess_chars) == TextProblem::None;
  const std::string key = name_ok ? name_key(shown) : std::string();

  std::lock_guard<std::mutex> lock(mu_);
  switch (check_code_locked(code, client, now)) {
    case CodeCheck::WrongCode:
      return GuessResult::WrongCode;
    case CodeCheck::CodeLocked:
      return GuessResult::CodeLocked;
    case CodeCheck::Ok:
      break;
  }
  if (!question_.open) return GuessResult::NoQuestion;
  if (!name_ok || key.empty()) return GuessResult::BadName;
  if (!guess_ok) return GuessResult::BadGuess;
  const auto it = std::find(keys_.begin(), keys_.end(), key);
  if (it == keys_.end() && guesses_.size() >= limits_.max_names) return GuessResult::ClassFull;
  switch (per_name_.take(key, now)) {
    case BucketMap::Take::Limited:
      return GuessResult::NameTooFast;
    case BucketMap::Take::NoRoom:
      return GuessResult::ClassTooFast;
    case BucketMap::Take::Ok:
      break;
  }
  if (!all_guesses_.take(now)) return GuessResult::ClassTooFast;

  PollGuess g{std::string(shown), std::string(guess), next_order_++};
  GuessResult result = GuessResult::Accepted;
  if (it == keys_.end()) {
    guesses_.push_back(std::move(g));
    keys_.push_back(key);
  } else {
    guesses_[static_cast<size_t>(it - keys_.begin())] = std::move(g);
    result = GuessResult::Replaced;
  }
  bump();
  return result;
}

PollQuestion PollState::question() const {
  std::lock_guard<std::mutex> lock(mu_);
  return question_;
}

PollSnapshot PollState::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {question_, guesses_, revision_.load(std::memory_order_acquire)};
}

}  // namespace ts
