// Token buckets for the class poll's limits: a bucket holds at most `burst` tokens and gains
// `per_second` of them each second; each request spends one or is refused. BucketMap keeps one
// bucket per key (a student's name, a client's address), never more than `max_keys` of them.
// The time is passed in (steady_clock), so tests drive it by hand. Not thread-safe: the owner
// locks.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>
#include <unordered_map>

namespace ts {

using PollClock = std::chrono::steady_clock;

struct RateLimit {
  double burst = 1;       // tokens a fresh or long-idle bucket holds
  double per_second = 1;  // tokens gained per second, up to `burst`
};

class TokenBucket {
 public:
  TokenBucket() = default;
  explicit TokenBucket(RateLimit limit) : limit_(limit), tokens_(limit.burst) {}  // starts full
  bool take(PollClock::time_point now);  // spends one token if there is one
  bool can_take(PollClock::time_point now) const;
  bool full(PollClock::time_point now) const;  // idle long enough to forget

 private:
  double tokens_at(PollClock::time_point now) const;
  RateLimit limit_;
  double tokens_ = 0;
  bool started_ = false;  // last_ is set by the first take
  PollClock::time_point last_{};
};

class BucketMap {
 public:
  enum class Take { Ok, Limited, NoRoom };
  BucketMap(RateLimit limit, size_t max_keys) : limit_(limit), max_keys_(max_keys) {}
  // Spends one of `key`'s tokens. A new key needs room: when the map is full, the buckets that
  // have refilled (keys idle long enough) are forgotten first; NoRoom when none has.
  Take take(const std::string& key, PollClock::time_point now);
  // Whether `key` has a token now (a key not seen yet has: its bucket would start full).
  bool can_take(const std::string& key, PollClock::time_point now) const;
  size_t size() const { return buckets_.size(); }

 private:
  RateLimit limit_;
  size_t max_keys_;
  std::unordered_map<std::string, TokenBucket> buckets_;
};

}  // namespace ts
