// Model -> GGUF with llama.cpp's names: hyper-parameters under <arch>.*, general.file_type,
// the tokenizer, then token_embd, position_embd, output_norm, output and blk.N.* tensors
// (a family with fused_qkv, gpt2, writes the one attn_qkv llama.cpp expects). Refuses a config
// whose columns differ from its family's row, since the file would read back as another model.
#include "formats/finite_check.h"
#include "formats/gguf_model.h"
#include "formats/gguf_tokenizer.h"

namespace ts {

namespace {

// The config's columns must be its family's (family.h), else the file would read back as
// another model.
Status check_architecture(const ModelConfig& c) {
  const Family* f = family_of(c);
  if (!f) {
    return make_error("model: architecture \"" + c.architecture + "\" cannot be saved (" +
                      family_names() + " can)");
  }
  const bool rope = f->positions == PositionKind::Rope;
  if (c.norm != f->norm || c.positions != f->positions || c.mlp != f->mlp ||
      c.dense_bias != f->dense_bias || (rope && c.rope != f->rope)) {
    return make_error("model: the config's block (" + block_summary(c) + ") is not the " +
                      f->label + " family's");
  }
  if (!f->partial_rope && c.rotary_dims() != c.head_dim()) {
    return make_error(std::string("model: ") + f->arch + " turns whole heads with RoPE");
  }
  if (f->qkv_bias != BiasRule::IfPresent && c.qkv_bias != (f->qkv_bias == BiasRule::Always)) {
    return make_error(std::string("model: ") + f->arch +
                      (c.qkv_bias ? " has no Q/K/V biases" : " needs Q/K/V biases"));
  }
  return ok_status();
}

// llama.cpp's general.file_type (enum llama_ftype): ALL_F32 0, MOSTLY_F16 1, MOSTLY_Q4_0 2,
// MOSTLY_Q4_1 3, MOSTLY_Q8_0 7, MOSTLY_Q5_0 8, MOSTLY_Q5_1 9, MOSTLY_Q4_K_S 14, MOSTLY_Q5_K_S 16,
// MOSTLY_Q6_K 18.
uint32_t file_type(GgmlType t) {
  switch (t) {
    case GgmlType::F16:
      return 1;
    case GgmlType::Q4_0:
      return 2;
    case GgmlType::Q4_1:
      return 3;
    case GgmlType::Q8_0:
      return 7;
    case GgmlType::Q5_0:
      return 8;
    case GgmlType::Q5_1:
      return 9;
    case GgmlType::Q4_K:
      return 14;
    case GgmlType::Q5_K:
      return 16;
    case GgmlType::Q6_K:
      return 18;
    default:
      return 0;
  }
}

// The type a matrix with rows of `cols` values is written as: the requested block type when the
// rows fill whole blocks, else Q8_0 when they fill blocks of 32, else F16.
GgmlType matrix_type_for(GgmlType want, long cols) {
  const auto c = static_cast<size_t>(cols);
  if (c % ggml_block_len(want) == 0) return want;
  if (want != GgmlType::Q8_0 && c % kQ8_0Block == 0) return GgmlType::Q8_0;
  return GgmlType::F16;
}

struct Emitter {
  GgufWriter& w;
  GgmlType matrix_type;

  Status mat(const std::string& name, const Mat& m) {  // m: (rows, cols) -> ne {cols, rows}
    TS_TRY(check_finite(m.data(), static_cast<size_t>(m.size()), "model", name));
    const GgmlType t = matrix_type_for(matrix_type, m.cols());
    return w.add_tensor(name, {static_cast<uint64_t>(m.cols()), static_cast<uint64_t>(m.rows())}, t,
                        std::span<const float>(m.data(), static_cast<size_t>(m.size())));
  }
  Status vec(const std::string& name, const Vec& v) {  // v: (n)
    TS_TRY(check_finite(v.data(), static_cast<size_t>(v.size()), "model", name));
    return w.add_tensor(name, {static_cast<uint64_t>(v.size())}, GgmlType::F32,
                        std::span<const float>(v.data(), static_cast<size_t>(v.size())));
  }
};

void set_hparams(const ModelConfig& c, GgufWriter& w) {
  const std::string p = c.architecture + ".";
  auto u32 = [](int v) { return GgufValue::u32(static_cast<uint32_t>(v)); };
  w.set(p + "block_count", u32(c.n_layers));
  w.set(p + "context_length", u32(c.n_ctx));
  w.set(p + "embedding_length", u32(c.d_model));
  w.set(p + "feed_forward_length", u32(c.d_ff));
  w.set(p + "attention.head_count", u32(c.n_heads));
  w.set(p + "attention.head_count_kv", u32(c.n_kv_heads));
  w.set(p + "vocab_size", u32(c.vocab_size));
  w.set(p + (c.norm == NormKind::Layer ? "attention.layer_norm_epsilon"
                                       : "attention.layer_norm_rms_epsilon"),
        GgufValue::f32(c.norm_eps));
  if (c.positions == PositionKind::Rope) {
    w.set(p + "rope.freq_base", GgufValue::f32(c.rope_theta));
    w.set(p + "rope.dimension_count", u32(c.rotary_dims()));
  }
}

Status write_layer(Emitter& e, const ModelConfig& c, const std::string& b, const LayerWeights& l) {
  const bool layer_norm = c.norm == NormKind::Layer, dense = c.dense_bias;
  TS_TRY(e.vec(b + "attn_norm.weight", l.attn_norm));
  if (layer_norm) TS_TRY(e.vec(b + "attn_norm.bias", l.attn_norm_b));
  if (family_of(c)->fused_qkv) {
    Mat qkv(l.wq.rows() + l.wk.rows() + l.wv.rows(), l.wq.cols());  // (qd + 2*kv, d_model)
    qkv << l.wq, l.wk, l.wv;
    Vec qkv_b(l.bq.size() + l.bk.size() + l.bv.size());  // (qd + 2*kv)
    qkv_b << l.bq, l.bk, l.bv;
    TS_TRY(e.mat(b + "attn_qkv.weight", qkv));
    if (c.qkv_bias) TS_TRY(e.vec(b + "attn_qkv.bias", qkv_b));
  } else {
    TS_TRY(e.mat(b + "attn_q.weight", l.wq));
    TS_TRY(e.mat(b + "attn_k.weight", l.wk));
    TS_TRY(e.mat(b + "attn_v.weight", l.wv));
    if (c.qkv_bias) {
      TS_TRY(e.vec(b + "attn_q.bias", l.bq));
      TS_TRY(e.vec(b + "attn_k.bias", l.bk));
      TS_TRY(e.vec(b + "attn_v.bias", l.bv));
    }
  }
  TS_TRY(e.mat(b + "attn_output.weight", l.wo));
  if (dense) TS_TRY(e.vec(b + "attn_output.bias", l.bo));
  TS_TRY(e.vec(b + "ffn_norm.weight", l.ffn_norm));
  if (layer_norm) TS_TRY(e.vec(b + "ffn_norm.bias", l.ffn_norm_b));
  if (c.mlp == MlpKind::SwiGlu) TS_TRY(e.mat(b + "ffn_gate.weight", l.w_gate));
  TS_TRY(e.mat(b + "ffn_up.weight", l.w_up));
  if (dense) TS_TRY(e.vec(b + "ffn_up.bias", l.b_up));
  TS_TRY(e.mat(b + "ffn_down.weight", l.w_down));
  if (dense) TS_TRY(e.vec(b + "ffn_down.bias", l.b_down));
  return ok_status();
}

}  // namespace

Status model_to_gguf(const Model& m, const TokenizerData& tok,
                     const std::map<std::string, std::string>& extra, GgmlType matrix_type,
                     GgufWriter& w) {
  if (m.is_quantized()) {  // the writer encodes from fp32: decode the kept blocks first
    Model plain = m;
    dequantize_weights(plain);
    return model_to_gguf(plain, tok, extra, matrix_type, w);
  }
  const ModelConfig& c = m.config;
  Status valid = validate_model(m);
  if (!valid) return make_error("model: " + valid.error().message);
  TS_TRY(check_architecture(c));
  if (!ggml_type_writable(matrix_type)) {
    const std::string name = ggml_type_name(static_cast<uint32_t>(matrix_type));
    return make_error(
        "model: matrices can be saved as F32, F16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K or "
        "Q6_K, not " +
        name);
  }
  w.set("general.architecture", GgufValue::str(c.architecture));
  if (!c.name.empty()) w.set("general.name", GgufValue::str(c.name));
  w.set("general.file_type", GgufValue::u32(file_type(matrix_type)));
  set_hparams(c, w);
  if (!tok.tokens.empty()) {
    if (static_cast<int>(tok.tokens.size()) > c.vocab_size) {
      return make_error("model: the tokenizer has " + std::to_string(tok.tokens.size()) +
                        " tokens, more than the model's vocab_size " +
                        std::to_string(c.vocab_size));
    }
    TS_TRY(tokenizer_to_gguf(tok, w));
  }
  for (const auto& [key, value] : extra) w.set(key, GgufValue::str(value));

  const Weights& wt = m.weights;
  Emitter e{w, matrix_type};
  TS_TRY(e.mat("token_embd.weight", wt.tok_embd));
  if (c.learned_positions()) TS_TRY(e.mat("position_embd.weight", wt.pos_embd));
  TS_TRY(e.vec("output_norm.weight", wt.out_norm));
  if (c.norm == NormKind::Layer) TS_TRY(e.vec("output_norm.bias", wt.out_norm_b));
  if (wt.output.size()) TS_TRY(e.mat("output.weight", wt.output));
  for (int i = 0; i < c.n_layers; ++i) {
    TS_TRY(write_layer(e, c, "blk." + std::to_string(i) + ".", wt.layers[i]));
  }
  return ok_status();
}

Status save_gguf_model_as(const std::string& path, const Model& model, const TokenizerData& tok,
                          GgmlType matrix_type, const std::map<std::string, std::string>& extra) {
  GgufWriter w;
  Status st = model_to_gguf(model, tok, extra, matrix_type, w);
  if (!st) return make_error(path + ": " + st.error().message);
  return w.write_file(path);
}

}  // namespace ts
