// Token buckets: the count of tokens is brought up to date lazily, on each look.
#include "poll/rate_limit.h"

#include <algorithm>

namespace ts {

double TokenBucket::tokens_at(PollClock::time_point now) const {
  if (!started_) return tokens_;
  const double seconds = std::chrono::duration<double>(now - last_).count();
  return std::min(limit_.burst, tokens_ + std::max(0.0, seconds) * limit_.per_second);
}

bool TokenBucket::take(PollClock::time_point now) {
  tokens_ = tokens_at(now);
  last_ = started_ ? std::max(last_, now) : now;
  started_ = true;
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

bool TokenBucket::can_take(PollClock::time_point now) const { return tokens_at(now) >= 1.0; }

bool TokenBucket::full(PollClock::time_point now) const { return tokens_at(now) >= limit_.burst; }

BucketMap::Take BucketMap::take(const std::string& key, PollClock::time_point now) {
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      std::erase_if(buckets_, [&](const auto& kv) { return kv.second.full(now); });
      if (buckets_.size() >= max_keys_) return Take::NoRoom;
    }
    it = buckets_.emplace(key, TokenBucket(limit_)).first;
  }
  return it->second.take(now) ? Take::Ok : Take::Limited;
}

bool BucketMap::can_take(const std::string& key, PollClock::time_point now) const {
  const auto it = buckets_.find(key);
  return it == buckets_.end() || it->second.can_take(now);  // a new key starts full
}

}  // namespace ts
