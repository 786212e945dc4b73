// KvCache: per layer, the key and value rows of every cached position, in one contiguous
// (capacity, kv_dim) block each, so decode attention reads them without copies. Rewind is
// truncate(n); a branch copies the rows of its fork prefix from another cache.
#pragma once
#include <cstddef>
#include <vector>

#include "base/tensor.h"
#include "engine/config.h"

namespace ts {

class KvCache {
 public:
  KvCache() = default;
  KvCache(const ModelConfig& cfg, int capacity);

  int length() const { return length_; }
  int capacity() const { return capacity_; }
  int n_layers() const { return static_cast<int>(k_.size()); }
  int kv_dim() const { return kv_dim_; }

  // Rewind: forget positions >= n (n <= length()).
  void truncate(int n);
  // Make positions [0, n) equal to other's (a branch's shared prefix); length becomes n.
  void copy_prefix_from(const KvCache& other, int n);
  // Used by the forward pass after writing rows [length(), length() + n).
  void advance(int n) { length_ += n; }

  Mat& keys(int layer) { return k_[layer]; }  // (capacity, kv_dim)
  Mat& values(int layer) { return v_[layer]; }
  const Mat& keys(int layer) const { return k_[layer]; }
  const Mat& values(int layer) const { return v_[layer]; }

  size_t bytes_per_position() const;  // all layers, K and V, fp32
  size_t bytes_used() const { return bytes_per_position() * length_; }
  size_t bytes_capacity() const { return bytes_per_position() * capacity_; }

 private:
  std::vector<Mat> k_, v_;  // (n_layers) x (capacity, kv_dim)
  int capacity_ = 0;
  int length_ = 0;
  int kv_dim_ = 0;
};

}  // namespace ts
