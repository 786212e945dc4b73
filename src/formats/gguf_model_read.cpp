// GGUF -> ModelConfig and Model. Each tensor's shape is checked against the config before its
// data is read (so a hostile config never sizes an allocation: only tensors the file really
// holds are read), then decoded to fp32 and checked for NaN/Inf; a large matrix in one of the
// types the engine computes with directly (Q8_0, Q4_0, Q4_K, Q5_K, Q6_K) keeps its blocks
// instead (checked for NaN/Inf row by row). Tensors the architecture does
// not use are an error, since ignoring one (a bias, RoPE scaling factors) would compute wrongly.
#include <optional>
#include <set>

#include "formats/finite_check.h"
#include "formats/gguf_model.h"

namespace ts {

namespace {

constexpr int64_t kMaxSize = int64_t{1} << 24;  // any one hyper-parameter

std::optional<QType> engine_qtype(GgmlType t) {
  switch (t) {
    case GgmlType::Q8_0: return QType::Q8_0;
    case GgmlType::Q4_0: return QType::Q4_0;
    case GgmlType::Q4_K: return QType::Q4_K;
    case GgmlType::Q5_K: return QType::Q5_K;
    case GgmlType::Q6_K: return QType::Q6_K;
    default: return std::nullopt;
  }
}

Result<int> get_size(const GgufFile& f, const std::string& key, int fallback = 0) {
  const GgufValue* v = f.find(key);
  if (!v) {
    if (fallback > 0) return fallback;
    return make_error(f.name() + ": missing metadata key " + key);
  }
  const std::optional<int64_t> n = v->as_int();
  if (!n) return make_error(f.name() + ": " + key + " must be an integer, got " + v->describe());
  if (*n <= 0 || *n > kMaxSize) {
    return make_error(f.name() + ": " + key + " = " + std::to_string(*n) + " is out of range");
  }
  return static_cast<int>(*n);
}

Result<float> get_float(const GgufFile& f, const std::string& key, float fallback) {
  const GgufValue* v = f.find(key);
  if (!v) return fallback;
  const std::optional<double> x = v->as_float();
  if (!x || !(*x > 0.0) || *x > 1e12) {
    return make_error(f.name() + ": " + key + " must be a positive number, got " + v->describe());
  }
  return static_cast<float>(*x);
}

std::vector<uint64_t> trim_ones(std::vector<uint64_t> ne) {
  while (ne.size() > 1 && ne.back() == 1) ne.pop_back();
  return ne;
}

std::string shape_of(const std::vector<uint64_t>& ne) {
  GgufTensorInfo t;
  t.ne = ne;
  return t.shape_string();
}

// Reads and checks the weights; `dry`: every check short of reading the data (tokenscope info).
struct Loader {
  const GgufFile& f;
  const LoadProgressFn& progress;
  bool dry = false;
  bool scan = false;  // dry: still check every value for NaN/Inf, in bounded chunks
  std::set<std::string> used;

  bool has(const std::string& name) const { return f.find_tensor(name) != nullptr; }

  Result<std::vector<float>> values(const std::string& name, std::vector<uint64_t> want) {
    const GgufTensorInfo* t = f.find_tensor(name);
    if (!t) return make_error(f.name() + ": missing tensor " + name);
    if (trim_ones(t->ne) != trim_ones(want)) {
      return make_error(f.name() + ": tensor " + name + " has shape " + t->shape_string() +
                        ", expected " + shape_of(want) + " for this config");
    }
    used.insert(name);
    if (dry) {
      TS_TRY(scan ? f.check_tensor_finite(*t) : f.check_tensor_f32(*t));
      return std::vector<float>{};
    }
    Result<std::vector<float>> v = f.read_tensor_f32(*t);
    if (!v) return v.error();
    TS_TRY(check_finite(v->data(), v->size(), f.name(), name));
    if (progress && !progress(static_cast<int>(used.size()), static_cast<int>(f.tensors().size())))
      return make_error(f.name() + ": loading cancelled");
    return v;
  }

  // A matrix the engine can compute from in its file's blocks: read the blocks into `out`.
  // false (nothing done) when the tensor is of another type or shape (`values` then decides).
  Result<bool> quantized(const std::string& name, int rows, int cols, QMat& out) {
    const GgufTensorInfo* t = f.find_tensor(name);
    if (!t || dry) return false;
    std::optional<QType> qt = engine_qtype(static_cast<GgmlType>(t->type));
    if (!qt || cols % qtype_block_values(*qt) != 0 ||
        trim_ones(t->ne) != trim_ones({static_cast<uint64_t>(cols), static_cast<uint64_t>(rows)})) {
      return false;
    }
    Result<std::vector<uint8_t>> bytes = f.read_tensor_bytes(*t);
    if (!bytes) return bytes.error();
    QMat q = make_qmat(*qt, rows, cols);
    if (bytes->size() != q.blocks.size()) {
      return make_error(f.name() + ": tensor " + name + " holds " + std::to_string(bytes->size()) +
                        " bytes, expected " + std::to_string(q.blocks.size()));
    }
    q.blocks = std::move(bytes.value());
    std::vector<float> row(static_cast<size_t>(cols));
    for (int r = 0; r < rows; ++r) {
      qmat_row_f32(q, r, row.data());
      TS_TRY(check_finite(row.data(), row.size(), f.name(), name));
    }
    used.insert(name);
    out = std::move(q);
    if (progress && !progress(static_cast<int>(used.size()), static_cast<int>(f.tensors().size())))
      return make_error(f.name() + ": loading cancelled");
    return true;
  }

  // out: (rows, cols); with `q`, a quantized matrix goes there instead (out stays 0x0).
  Status mat(const std::string& name, int rows, int cols, Mat& out, QMat* q = nullptr) {
    if (q) {
      Result<bool> kept = quantized(name, rows, cols, *q);
      if (!kept) return kept.error();
      if (kept.value()) return ok_status();
    }
    Result<std::vector<float>> v =
        values(name, {static_cast<uint64_t>(cols), static_cast<uint64_t>(rows)});
    if (!v) return v.error();
    if (!dry) out = ConstMatMap(v->data(), rows, cols);
    return ok_status();
  }

  Status vec(const std::string& name, int n, Vec& out) {  // out: (n)
    Result<std::vector<float>> v = values(name, {static_cast<uint64_t>(n)});
    if (!v) return v.error();
    if (!dry) out = ConstVecMap(v->data(), n);
    return ok_status();
  }
};

// One block's tensors, the family's columns deciding which exist: LayerNorm biases, Q/K/V
// biases, the dense biases (attention output, MLP) and the SwiGLU gate. Q, K, V come as three
// tensors or as llama.cpp's fused attn_qkv (rows [q; k; v]), whichever the file holds.
Status load_layer(Loader& ld, const ModelConfig& c, const std::string& b, LayerWeights& l) {
  const int d = c.d_model, qd = c.n_heads * c.head_dim(), kv = c.kv_dim(), ff = c.d_ff;
  const bool layer_norm = c.norm == NormKind::Layer, dense = c.dense_bias;
  TS_TRY(ld.vec(b + "attn_norm.weight", d, l.attn_norm));
  if (layer_norm) TS_TRY(ld.vec(b + "attn_norm.bias", d, l.attn_norm_b));
  if (ld.has(b + "attn_qkv.weight")) {
    Mat qkv;    // (qd + 2*kv, d)
    Vec qkv_b;  // (qd + 2*kv)
    TS_TRY(ld.mat(b + "attn_qkv.weight", qd + 2 * kv, d, qkv));
    if (c.qkv_bias) TS_TRY(ld.vec(b + "attn_qkv.bias", qd + 2 * kv, qkv_b));
    if (!ld.dry) {
      l.wq = qkv.topRows(qd);
      l.wk = qkv.middleRows(qd, kv);
      l.wv = qkv.bottomRows(kv);
      if (c.qkv_bias) {
        l.bq = qkv_b.head(qd);
        l.bk = qkv_b.segment(qd, kv);
        l.bv = qkv_b.tail(kv);
      }
    }
  } else {
    TS_TRY(ld.mat(b + "attn_q.weight", qd, d, l.wq, &l.q.wq));
    TS_TRY(ld.mat(b + "attn_k.weight", kv, d, l.wk, &l.q.wk));
    TS_TRY(ld.mat(b + "attn_v.weight", kv, d, l.wv, &l.q.wv));
    if (c.qkv_bias) {
      TS_TRY(ld.vec(b + "attn_q.bias", qd, l.bq));
      TS_TRY(ld.vec(b + "attn_k.bias", kv, l.bk));
      TS_TRY(ld.vec(b + "attn_v.bias", kv, l.bv));
    }
  }
  TS_TRY(ld.mat(b + "attn_output.weight", d, qd, l.wo, &l.q.wo));
  if (dense) TS_TRY(ld.vec(b + "attn_output.bias", d, l.bo));
  TS_TRY(ld.vec(b + "ffn_norm.weight", d, l.ffn_norm));
  if (layer_norm) TS_TRY(ld.vec(b + "ffn_norm.bias", d, l.ffn_norm_b));
  if (c.mlp == MlpKind::SwiGlu) TS_TRY(ld.mat(b + "ffn_gate.weight", ff, d, l.w_gate, &l.q.w_gate));
  TS_TRY(ld.mat(b + "ffn_up.weight", ff, d, l.w_up, &l.q.w_up));
  if (dense) TS_TRY(ld.vec(b + "ffn_up.bias", ff, l.b_up));
  TS_TRY(ld.mat(b + "ffn_down.weight", d, ff, l.w_down, &l.q.w_down));
  if (dense) TS_TRY(ld.vec(b + "ffn_down.bias", d, l.b_down));
  return ok_status();
}

}  // namespace

Result<ModelConfig> config_from_gguf(const GgufFile& f) {
  const GgufValue* a = f.find("general.architecture");
  if (!a || !a->as_string()) return make_error(f.name() + ": missing general.architecture");
  ModelConfig c;
  c.architecture = *a->as_string();
  const Family* family = find_family(c.architecture);
  if (!family) {
    return make_error(f.name() + ": architecture \"" + gguf_printable(c.architecture) +
                      "\" is not supported (" + family_names() + " are)");
  }
  if (const GgufValue* n = f.find("general.name"); n && n->as_string()) c.name = *n->as_string();
  const std::string p = c.architecture + ".";
  Result<int> layers = get_size(f, p + "block_count");
  Result<int> d_model = get_size(f, p + "embedding_length");
  Result<int> d_ff = get_size(f, p + "feed_forward_length");
  Result<int> heads = get_size(f, p + "attention.head_count");
  Result<int> n_ctx = get_size(f, p + "context_length");
  for (const Result<int>* r : {&layers, &d_model, &d_ff, &heads, &n_ctx}) {
    if (!r->ok()) return r->error();
  }
  Result<int> kv_heads = get_size(f, p + "attention.head_count_kv", heads.value());
  if (!kv_heads) return kv_heads.error();
  c.n_layers = layers.value();
  c.d_model = d_model.value();
  c.d_ff = d_ff.value();
  c.n_heads = heads.value();
  c.n_kv_heads = kv_heads.value();
  c.n_ctx = n_ctx.value();
  if (c.d_model % c.n_heads != 0 || c.n_heads % c.n_kv_heads != 0) {
    return make_error(f.name() + ": embedding_length " + std::to_string(c.d_model) +
                      ", head_count " + std::to_string(c.n_heads) + ", head_count_kv " +
                      std::to_string(c.n_kv_heads) + " do not divide evenly");
  }
  apply_family(c, *family);
  const bool layer_norm = c.norm == NormKind::Layer;
  Result<float> eps = get_float(
      f, p + (layer_norm ? "attention.layer_norm_epsilon" : "attention.layer_norm_rms_epsilon"),
      1e-5f);
  if (!eps) return eps.error();
  c.norm_eps = eps.value();
  if (c.positions == PositionKind::Rope) {
    Result<float> theta = get_float(f, p + "rope.freq_base", 10000.0f);
    if (!theta) return theta.error();
    c.rope_theta = theta.value();
    Result<int> rope_dim = get_size(f, p + "rope.dimension_count", c.rotary_dims());
    if (!rope_dim) return rope_dim.error();
    const int n = rope_dim.value();
    if (!family->partial_rope && n != c.head_dim()) {
      return make_error(f.name() + ": rope.dimension_count " + std::to_string(n) +
                        " with head size " + std::to_string(c.head_dim()) + ": " + family->arch +
                        " turns whole heads");
    }
    if (n < 2 || n % 2 != 0 || n > c.head_dim()) {
      return make_error(f.name() + ": rope.dimension_count " + std::to_string(n) +
                        " with head size " + std::to_string(c.head_dim()) +
                        ": RoPE turns an even number of a head's dimensions, at most all");
    }
    c.rope_dims = n == c.head_dim() ? 0 : n;
  }
  if (family->qkv_bias == BiasRule::IfPresent) {
    c.qkv_bias = f.find_tensor("blk.0.attn_q.bias") || f.find_tensor("blk.0.attn_qkv.bias");
  }
  c.tied_embeddings = f.find_tensor("output.weight") == nullptr;
  if (const GgufTensorInfo* e = f.find_tensor("token_embd.weight"); e && e->ne.size() >= 2) {
    if (e->ne[1] == 0 || e->ne[1] > static_cast<uint64_t>(kMaxSize)) {
      return make_error(f.name() + ": token_embd.weight has an out-of-range vocabulary size");
    }
    c.vocab_size = static_cast<int>(e->ne[1]);
  } else if (const GgufValue* t = f.find("tokenizer.ggml.tokens"); t && t->array_size() > 0) {
    if (t->array_size() > static_cast<size_t>(kMaxSize)) {
      return make_error(f.name() + ": tokenizer.ggml.tokens is too long");
    }
    c.vocab_size = static_cast<int>(t->array_size());
  } else {
    Result<int> v = get_size(f, p + "vocab_size");
    if (!v) return v.error();
    c.vocab_size = v.value();
  }
  return c;
}

namespace {

// Every tensor the config needs, then no tensor left over; a dry run reads no data.
Status load_weights(Loader& ld, const ModelConfig& c, Weights& w) {
  const GgufFile& f = ld.f;
  if (f.tensors().empty()) {
    return make_error(f.name() + ": has no weights (a vocabulary-only file)");
  }
  TS_TRY(ld.mat("token_embd.weight", c.vocab_size, c.d_model, w.tok_embd, &w.tok_embd_q));
  if (c.learned_positions()) {
    TS_TRY(ld.mat("position_embd.weight", c.n_ctx, c.d_model, w.pos_embd));
  }
  TS_TRY(ld.vec("output_norm.weight", c.d_model, w.out_norm));
  if (c.norm == NormKind::Layer) TS_TRY(ld.vec("output_norm.bias", c.d_model, w.out_norm_b));
  if (!c.tied_embeddings) TS_TRY(ld.mat("output.weight", c.vocab_size, c.d_model, w.output, &w.output_q));
  // Every block is several tensors: a block count beyond the file's tensors is refused before
  // block_count (up to 2^24) sizes an allocation.
  if (static_cast<size_t>(c.n_layers) > f.tensors().size()) {
    return make_error(f.name() + ": " + c.architecture + ".block_count " +
                      std::to_string(c.n_layers) + " but the file holds only " +
                      std::to_string(f.tensors().size()) + " tensors");
  }
  LayerWeights scratch;  // a dry run fills nothing
  if (!ld.dry) w.layers.resize(c.n_layers);
  for (int i = 0; i < c.n_layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    LayerWeights& l = ld.dry ? scratch : w.layers[i];
    TS_TRY(load_layer(ld, c, b, l));
  }
  for (const GgufTensorInfo& t : f.tensors()) {
    if (!ld.used.count(t.name)) {
      return make_error(f.name() + ": tensor " + t.name + " is not used by the " + c.architecture +
                        " architecture as tokenscope runs it");
    }
  }
  return ok_status();
}

}  // namespace

Result<Model> model_from_gguf(const GgufFile& f, const LoadProgressFn& progress) {
  Result<ModelConfig> cfg = config_from_gguf(f);
  if (!cfg) return cfg.error();
  Model m;
  m.config = cfg.value();
  Loader ld{f, progress, false, false, {}};
  TS_TRY(load_weights(ld, m.config, m.weights));
  Status st = validate_model(m);
  if (!st) return make_error(f.name() + ": " + st.error().message);
  return m;
}

Status check_gguf_model(const GgufFile& f, bool scan_weights) {
  Result<ModelConfig> cfg = config_from_gguf(f);
  if (!cfg) return cfg.error();
  const LoadProgressFn none;
  Loader ld{f, none, true, scan_weights, {}};
  Weights w;
  return load_weights(ld, cfg.value(), w);
}

}  // namespace ts
