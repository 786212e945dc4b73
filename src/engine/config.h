// ModelConfig: the hyper-parameters of one decoder, whichever file it came from. Two block
// types: Llama-style (RMSNorm, RoPE, SwiGLU, GQA, no biases unless qkv_bias) and GPT-2-style
// (LayerNorm, learned positions, GELU, biases).
#pragma once
#include <string>

namespace ts {

enum class BlockType { Llama, Gpt2 };
enum class RopeStyle { Adjacent /* pairs (2i, 2i+1): llama2.c, GGUF llama */, NeoX /* halves */ };

struct ModelConfig {
  std::string architecture = "llama";  // GGUF general.architecture: llama, gpt2, qwen2
  std::string name;                     // general.name, for display
  BlockType block = BlockType::Llama;
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
  bool qkv_bias = false;        // qwen2: biases on Q, K, V only
  bool tied_embeddings = true;  // unembedding == token embedding

  int head_dim() const { return n_heads ? d_model / n_heads : 0; }
  int kv_dim() const { return n_kv_heads * head_dim(); }
  int group_size() const { return n_kv_heads ? n_heads / n_kv_heads : 1; }  // q heads per kv head
};

}  // namespace ts
