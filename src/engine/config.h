// ModelConfig: the hyper-parameters of one decoder, whichever file it came from, with its
// family's columns (family.h) copied in: the forward reads norm, positions, mlp and the biases
// from here, never the architecture's name.
#pragma once
#include <string>

#include "engine/family.h"

namespace ts {

struct ModelConfig {
  std::string architecture = "llama";   // GGUF general.architecture, a row of family.h
  std::string name;                     // general.name, for display
  NormKind norm = NormKind::Rms;
  PositionKind positions = PositionKind::Rope;
  MlpKind mlp = MlpKind::SwiGlu;
  bool dense_bias = false;  // biases on the attention output and the MLP (GPT-2)
  int n_layers = 0;
  int n_heads = 0;
  int n_kv_heads = 0;  // == n_heads without grouped-query attention
  int d_model = 0;
  int d_ff = 0;
  int vocab_size = 0;
  int n_ctx = 0;  // longest sequence the model was trained for
  float norm_eps = 1e-5f;
  float rope_theta = 10000.0f;
  RopeStyle rope = RopeStyle::Adjacent;
  int rope_dims = 0;            // leading dimensions of each head RoPE turns; 0: all of them
  bool qkv_bias = false;        // biases on Q, K, V
  bool tied_embeddings = true;  // unembedding == token embedding

  int head_dim() const { return n_heads ? d_model / n_heads : 0; }
  int kv_dim() const { return n_kv_heads * head_dim(); }
  int group_size() const { return n_kv_heads ? n_heads / n_kv_heads : 1; }  // q heads per kv head
  int rotary_dims() const { return rope_dims > 0 ? rope_dims : head_dim(); }
  bool learned_positions() const { return positions == PositionKind::Learned; }
};

// architecture = f.arch and the family's columns: norm, positions, RoPE style, MLP, dense
// biases, Q/K/V biases when the family always has them (IfPresent leaves qkv_bias to the file),
// and rope_dims from the family's fraction when it turns part of a head (needs d_model, n_heads).
void apply_family(ModelConfig& c, const Family& f);
// The same by name; false (c unchanged) for an architecture no row names.
bool set_family(ModelConfig& c, const std::string& arch);
// "LayerNorm, RoPE (halves) on 16 of 64 dimensions, SwiGLU, Q/K/V biases": the block as the
// forward runs it, from the config's columns.
std::string block_summary(const ModelConfig& c);
// The same for a family row: "LayerNorm, RoPE (halves) on 25% of each head, SwiGLU, Q/K/V
// biases if the file has them" (`info --families`).
std::string family_summary(const Family& f);
// The family row of c.architecture, or null.
const Family* family_of(const ModelConfig& c);

}  // namespace ts
