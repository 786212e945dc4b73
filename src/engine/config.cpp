// apply_family: a family row's columns copied into a config.
#include "engine/config.h"

#include <algorithm>
#include <cmath>

namespace ts {

void apply_family(ModelConfig& c, const Family& f) {
  c.architecture = f.arch;
  c.norm = f.norm;
  c.positions = f.positions;
  c.rope = f.rope;
  c.mlp = f.mlp;
  c.dense_bias = f.dense_bias;
  if (f.qkv_bias != BiasRule::IfPresent) c.qkv_bias = f.qkv_bias == BiasRule::Always;
  c.rope_dims = 0;
  if (f.positions == PositionKind::Rope && f.rope_fraction < 1.0f && c.head_dim() > 0) {
    const int n = static_cast<int>(std::lround(f.rope_fraction * c.head_dim()));
    c.rope_dims = std::max(2, n - n % 2);  // an even count: RoPE turns pairs
  }
}

bool set_family(ModelConfig& c, const std::string& arch) {
  const Family* f = find_family(arch);
  if (!f) return false;
  apply_family(c, *f);
  return true;
}

namespace {

// "LayerNorm, RoPE (halves)<rope_share>, SwiGLU": the words both summaries share.
std::string block_words(NormKind norm, PositionKind positions, RopeStyle rope, MlpKind mlp,
                        const std::string& rope_share) {
  std::string s = norm == NormKind::Layer ? "LayerNorm, " : "RMSNorm, ";
  if (positions == PositionKind::Learned) {
    s += "learned positions";
  } else {
    s += rope == RopeStyle::NeoX ? "RoPE (halves)" : "RoPE (adjacent pairs)";
    s += rope_share;
  }
  return s + (mlp == MlpKind::SwiGlu ? ", SwiGLU" : ", GELU");
}

}  // namespace

std::string block_summary(const ModelConfig& c) {
  const std::string share = c.rotary_dims() == c.head_dim()
                                ? ""
                                : " on " + std::to_string(c.rotary_dims()) + " of " +
                                      std::to_string(c.head_dim()) + " dimensions";
  std::string s = block_words(c.norm, c.positions, c.rope, c.mlp, share);
  if (c.dense_bias) {
    s += ", biases";
  } else if (c.qkv_bias) {
    s += ", Q/K/V biases";
  }
  return s;
}

std::string family_summary(const Family& f) {
  const std::string share =
      f.rope_fraction < 1.0f
          ? " on " + std::to_string(static_cast<int>(std::lround(f.rope_fraction * 100))) +
                "% of each head"
          : "";
  std::string s = block_words(f.norm, f.positions, f.rope, f.mlp, share);
  if (f.dense_bias) {
    s += ", biases";
  } else if (f.qkv_bias == BiasRule::Always) {
    s += ", Q/K/V biases";
  } else if (f.qkv_bias == BiasRule::IfPresent) {
    s += ", Q/K/V biases if the file has them";
  }
  return s;
}

const Family* family_of(const ModelConfig& c) { return find_family(c.architecture); }

}  // namespace ts
