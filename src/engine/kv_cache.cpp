// KvCache storage: one (capacity, kv_dim) block per layer for K and for V.
#include "engine/kv_cache.h"

#include <algorithm>
#include <cassert>

namespace ts {

KvCache::KvCache(const ModelConfig& cfg, int capacity)
    : capacity_(capacity), length_(0), kv_dim_(cfg.kv_dim()) {
  // Not zero-filled: rows past length() are never read, and a large block's pages become
  // resident only as the context fills them (a long context costs memory as it is used).
  k_.reserve(cfg.n_layers);
  v_.reserve(cfg.n_layers);
  for (int l = 0; l < cfg.n_layers; ++l) {
    k_.emplace_back(capacity, kv_dim_);
    v_.emplace_back(capacity, kv_dim_);
  }
}

void KvCache::truncate(int n) { length_ = std::clamp(n, 0, length_); }

void KvCache::copy_prefix_from(const KvCache& other, int n) {
  n = std::clamp(n, 0, std::min(other.length_, capacity_));
  for (size_t l = 0; l < k_.size() && l < other.k_.size(); ++l) {
    k_[l].topRows(n) = other.k_[l].topRows(n);
    v_[l].topRows(n) = other.v_[l].topRows(n);
  }
  length_ = n;
}

size_t KvCache::bytes_per_position() const {
  return k_.size() * 2 * static_cast<size_t>(kv_dim_) * sizeof(float);
}

}  // namespace ts
