// The model families tokenscope runs, one row each: how a block normalises, where positions come
// from, how RoPE pairs dimensions and how much of a head it turns, which biases exist, the MLP's
// kind and how the GGUF file lays out Q, K, V. The forward, the reference, the attribution, the
// GGUF reader and writer, `info` and the Model panel read these columns, never a family's name,
// so a family that differs only in them is one row here (plus its test). `info` and the Model
// panel describe a block from the config's copy of the columns (block_summary in config.h).
#pragma once
#include <span>
#include <string>

namespace ts {

enum class NormKind { Rms /* RMSNorm: gain */, Layer /* LayerNorm: gain and bias */ };
enum class PositionKind {
  Rope /* rotary, on Q and K */,
  Learned /* a table added to the embedding */
};
enum class RopeStyle { Adjacent /* pairs (2i, 2i+1): llama2.c, GGUF llama */, NeoX /* halves */ };
enum class MlpKind { SwiGlu /* down(silu(gate h) * up h) */, Gelu /* down(gelu(up h + b) + b) */ };
enum class BiasRule { Never, Always, IfPresent /* whatever the file holds */ };

struct Family {
  const char* arch;   // GGUF general.architecture
  const char* label;  // the family as people call it: "Llama", "GPT-2"
  NormKind norm;
  PositionKind positions;
  RopeStyle rope;       // with PositionKind::Rope
  float rope_fraction;  // share of each head RoPE turns when the file gives no dimension_count
  bool partial_rope;    // the file's rope.dimension_count may be less than the head size
  BiasRule qkv_bias;    // biases on Q, K, V
  bool dense_bias;      // biases on the attention output and the MLP's two matrices (Gelu only)
  MlpKind mlp;
  bool fused_qkv;  // the writer stores one attn_qkv tensor (the reader takes either)
};

// Every row, in the order `info` lists them.
std::span<const Family> families();
// The row for a GGUF architecture name; null when tokenscope does not run it.
const Family* find_family(const std::string& arch);
// "llama, qwen2, gpt2 and stablelm": for the one-line refusal of any other.
std::string family_names();

}  // namespace ts
