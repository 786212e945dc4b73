// Names of record enums, packed attention indexing, and record memory accounting.
#include "engine/record.h"

#include "base/f16.h"

namespace ts {

const char* record_level_name(RecordLevel l) {
  switch (l) {
    case RecordLevel::Off: return "off";
    case RecordLevel::Summary: return "summary";
    case RecordLevel::Full: return "full";
  }
  return "?";
}

const char* phase_name(Phase p) { return p == Phase::Prefill ? "prefill" : "decode"; }

size_t AttentionMap::row_offset(int head, int row) const {
  // Rows of one head: lengths first_pos+1, first_pos+2, ..., first_pos+n_rows.
  const size_t per_head =
      static_cast<size_t>(n_rows) * (first_pos + 1) + static_cast<size_t>(n_rows) * (n_rows - 1) / 2;
  const size_t r = static_cast<size_t>(row);
  const size_t before = r * (first_pos + 1) + (r * (r > 0 ? r - 1 : 0)) / 2;
  return per_head * head + before;
}

float AttentionMap::at(int head, int row, int key) const {
  if (head < 0 || head >= n_heads || row < 0 || row >= n_rows || key < 0 || key >= row_length(row))
    return 0.0f;
  return f16_to_f32(probs_f16[row_offset(head, row) + key]);
}

size_t ForwardRecord::memory_bytes() const {
  size_t n = sizeof(*this) + input_ids.capacity() * sizeof(int) + logits.capacity() * sizeof(float);
  for (const auto& v : position_top) n += sizeof(v) + v.capacity() * sizeof(TokenScore);
  for (const auto& v : logit_lens) n += sizeof(v) + v.capacity() * sizeof(TokenScore);
  for (const auto& a : attention) n += sizeof(a) + a.probs_f16.capacity() * sizeof(uint16_t);
  n += residual_norms.capacity() * sizeof(float);
  n += lens_residuals.capacity() * sizeof(float);
  n += cost.ops.capacity() * sizeof(OpCost);
  return n;
}

}  // namespace ts
