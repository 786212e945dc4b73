// llama2.c checkpoint and tokenizer.bin import. The header fixes every array size, so the whole
// expected file size is computed (with overflow checks) and compared with the real one before a
// single weight is allocated.
#include "formats/llama2c.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "formats/finite_check.h"

namespace ts {

namespace {

struct Header {
  int32_t dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len;
};

// a * b + c... with overflow detection: false when the true value does not fit in 64 bits.
bool mul_add(uint64_t& acc, uint64_t a, uint64_t b) {
  uint64_t p;
  if (__builtin_mul_overflow(a, b, &p)) return false;
  return !__builtin_add_overflow(acc, p, &acc);
}

// Number of fp32 values after the header for a config; 0 when it overflows.
uint64_t expected_floats(const ModelConfig& c, bool shared) {
  const uint64_t d = c.d_model, h = c.d_ff, l = c.n_layers, v = c.vocab_size;
  const uint64_t kv = c.kv_dim(), hs = c.head_dim(), seq = c.n_ctx;
  uint64_t n = 0;
  bool ok = mul_add(n, v, d);                // token embedding (vocab, dim)
  ok = ok && mul_add(n, l, d);               // attention rmsnorm (layers, dim)
  ok = ok && mul_add(n, l * d, d);           // wq (layers, dim, dim)
  ok = ok && mul_add(n, l * kv, d);          // wk (layers, kv_dim, dim)
  ok = ok && mul_add(n, l * kv, d);          // wv (layers, kv_dim, dim)
  ok = ok && mul_add(n, l * d, d);           // wo (layers, dim, dim)
  ok = ok && mul_add(n, l, d);               // ffn rmsnorm (layers, dim)
  ok = ok && mul_add(n, l * h, d * 3);       // w1, w2, w3 (layers, hidden, dim) x3
  ok = ok && mul_add(n, 1, d);               // final rmsnorm (dim)
  ok = ok && mul_add(n, seq, hs);            // two RoPE tables of seq * head_size / 2 each
  if (!shared) ok = ok && mul_add(n, v, d);  // classifier (vocab, dim)
  return ok ? n : 0;
}

std::string stem_of(const std::string& path) { return std::filesystem::path(path).stem().string(); }

Status read_mat(Cursor& cur, Mat& m, const std::string& name) {
  TS_TRY(cur.read(m.data(), sizeof(float) * static_cast<size_t>(m.size()), name.c_str()));
  return check_finite(m.data(), static_cast<size_t>(m.size()), cur.source().name(), name);
}

Status read_vec(Cursor& cur, Vec& v, const std::string& name) {
  TS_TRY(cur.read(v.data(), sizeof(float) * static_cast<size_t>(v.size()), name.c_str()));
  return check_finite(v.data(), static_cast<size_t>(v.size()), cur.source().name(), name);
}

}  // namespace

bool looks_like_llama2c_checkpoint(const ByteSource& src) {
  Header h{};
  if (src.size() < sizeof(h) || !src.read_at(0, &h, sizeof(h), "llama2.c header").ok()) {
    return false;
  }
  if (h.dim == 0x616b3432) return true;
  // Positive and of a size some model has (four ASCII bytes such as "GGML" read as ~1e9).
  auto in = [](int32_t v, int32_t hi) { return v > 0 && v <= hi; };
  return in(h.dim, 1 << 16) && in(h.hidden_dim, 1 << 18) && in(h.n_layers, 1 << 12) &&
         in(h.n_heads, h.dim) && in(h.n_kv_heads, h.n_heads) && h.vocab_size != 0 &&
         h.vocab_size > -(1 << 22) && h.vocab_size < (1 << 22) && in(h.seq_len, 1 << 22);
}

Result<ModelConfig> read_llama2c_config(const ByteSource& src) {
  Cursor cur(src);
  Header h{};
  TS_TRY(cur.read(&h, sizeof(h), "llama2.c header (7 int32)"));
  const std::string& f = src.name();
  if (h.dim == 0x616b3432) {  // "ak42": llama2.c's later export versions
    return make_error(f +
                      ": llama2.c export version 1/2 (magic ak42) is not supported; "
                      "export with --version 0");
  }
  const bool shared = h.vocab_size > 0;
  const int64_t vocab = h.vocab_size > 0 ? h.vocab_size : -static_cast<int64_t>(h.vocab_size);
  if (h.dim <= 0 || h.hidden_dim <= 0 || h.n_layers <= 0 || h.n_heads <= 0 || h.n_kv_heads <= 0 ||
      vocab <= 0 || vocab > INT32_MAX || h.seq_len <= 0) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "not a llama2.c checkpoint: header dim=%d hidden=%d layers=%d heads=%d "
                  "kv_heads=%d vocab=%d seq_len=%d has a non-positive size",
                  h.dim, h.hidden_dim, h.n_layers, h.n_heads, h.n_kv_heads, h.vocab_size,
                  h.seq_len);
    return make_error(f + ": " + buf);
  }
  if (h.dim % h.n_heads != 0 || h.n_heads % h.n_kv_heads != 0 || (h.dim / h.n_heads) % 2 != 0) {
    return make_error(f + ": not a llama2.c checkpoint: dim " + std::to_string(h.dim) + ", heads " +
                      std::to_string(h.n_heads) + ", kv heads " + std::to_string(h.n_kv_heads) +
                      " do not divide into even head sizes");
  }
  ModelConfig c;
  set_family(c, "llama");  // llama2.c's block: RMSNorm, adjacent-pair RoPE, SwiGLU
  c.name = stem_of(f);
  c.n_layers = h.n_layers;
  c.n_heads = h.n_heads;
  c.n_kv_heads = h.n_kv_heads;
  c.d_model = h.dim;
  c.d_ff = h.hidden_dim;
  c.vocab_size = static_cast<int>(vocab);
  c.n_ctx = h.seq_len;
  c.norm_eps = 1e-5f;
  c.rope_theta = 10000.0f;
  c.qkv_bias = false;
  c.tied_embeddings = shared;
  const uint64_t n = expected_floats(c, shared);
  if (n == 0 || n > (UINT64_MAX - sizeof(Header)) / 4) {
    return make_error(f + ": llama2.c header describes an impossibly large model");
  }
  const uint64_t want = sizeof(Header) + 4 * n;
  if (want != src.size()) {
    return make_error(f + ": llama2.c header (dim " + std::to_string(h.dim) + ", " +
                      std::to_string(h.n_layers) + " layers, vocab " + std::to_string(vocab) +
                      ") needs " + std::to_string(want) + " bytes but the file has " +
                      std::to_string(src.size()) +
                      (want > src.size() ? " (truncated)" : " (trailing data)"));
  }
  return c;
}

Result<Model> read_llama2c_model(const ByteSource& src) {
  Result<ModelConfig> cfg = read_llama2c_config(src);
  if (!cfg) return cfg.error();
  const ModelConfig& c = cfg.value();
  Model m = allocate_model(c);  // sizes are now known to fit in the file
  Weights& w = m.weights;
  Cursor cur(src, sizeof(Header));
  TS_TRY(read_mat(cur, w.tok_embd, "token_embedding"));
  const int nl = c.n_layers;
  auto each_layer = [&](auto member, const char* name, auto reader) -> Status {
    for (int i = 0; i < nl; ++i) {
      TS_TRY(reader(cur, w.layers[i].*member, std::string(name) + "[" + std::to_string(i) + "]"));
    }
    return ok_status();
  };
  // The file groups each tensor kind over all layers: (layers, ...) per array.
  TS_TRY(each_layer(&LayerWeights::attn_norm, "rms_att_weight", read_vec));
  TS_TRY(each_layer(&LayerWeights::wq, "wq", read_mat));
  TS_TRY(each_layer(&LayerWeights::wk, "wk", read_mat));
  TS_TRY(each_layer(&LayerWeights::wv, "wv", read_mat));
  TS_TRY(each_layer(&LayerWeights::wo, "wo", read_mat));
  TS_TRY(each_layer(&LayerWeights::ffn_norm, "rms_ffn_weight", read_vec));
  TS_TRY(each_layer(&LayerWeights::w_gate, "w1", read_mat));
  TS_TRY(each_layer(&LayerWeights::w_down, "w2", read_mat));
  TS_TRY(each_layer(&LayerWeights::w_up, "w3", read_mat));
  TS_TRY(read_vec(cur, w.out_norm, "rms_final_weight"));
  // Legacy RoPE tables freq_cis_real / freq_cis_imag: (seq_len, head_size/2) each, unused.
  TS_TRY(cur.skip(static_cast<uint64_t>(c.n_ctx) * c.head_dim() * sizeof(float), "RoPE tables"));
  if (!c.tied_embeddings) TS_TRY(read_mat(cur, w.output, "wcls"));
  TS_TRY(validate_model(m));
  return m;
}

Status check_llama2c_weights(const ByteSource& src) {
  Result<ModelConfig> cfg = read_llama2c_config(src);
  if (!cfg) return cfg.error();
  const ModelConfig& c = cfg.value();
  const uint64_t d = c.d_model, h = c.d_ff, kv = c.kv_dim(), v = c.vocab_size;
  Cursor cur(src, sizeof(Header));
  std::vector<float> buf;
  // `count` floats named `name`, checked as read_mat / read_vec check them, 256k at a time.
  auto scan = [&](const std::string& name, uint64_t count) -> Status {
    for (uint64_t at = 0; at < count;) {
      const uint64_t n = std::min<uint64_t>(count - at, uint64_t{1} << 18);
      buf.resize(static_cast<size_t>(n));
      TS_TRY(cur.read(buf.data(), sizeof(float) * buf.size(), name.c_str()));
      for (size_t k = 0; k < buf.size(); ++k) {
        if (!std::isfinite(buf[k])) {
          return make_error(src.name() + ": tensor " + name + " has " +
                            (std::isnan(buf[k]) ? "a NaN" : "an infinite") + " value at index " +
                            std::to_string(at + k));
        }
      }
      at += n;
    }
    return ok_status();
  };
  auto each_layer = [&](const char* name, uint64_t count) -> Status {
    for (int i = 0; i < c.n_layers; ++i) {
      TS_TRY(scan(std::string(name) + "[" + std::to_string(i) + "]", count));
    }
    return ok_status();
  };
  TS_TRY(scan("token_embedding", v * d));
  TS_TRY(each_layer("rms_att_weight", d));
  TS_TRY(each_layer("wq", d * d));
  TS_TRY(each_layer("wk", kv * d));
  TS_TRY(each_layer("wv", kv * d));
  TS_TRY(each_layer("wo", d * d));
  TS_TRY(each_layer("rms_ffn_weight", d));
  TS_TRY(each_layer("w1", h * d));
  TS_TRY(each_layer("w2", d * h));
  TS_TRY(each_layer("w3", h * d));
  TS_TRY(scan("rms_final_weight", d));
  TS_TRY(cur.skip(static_cast<uint64_t>(c.n_ctx) * c.head_dim() * sizeof(float), "RoPE tables"));
  if (!c.tied_embeddings) TS_TRY(scan("wcls", v * d));
  return ok_status();
}

Result<TokenizerData> read_llama2c_tokenizer(const ByteSource& src) {
  const std::string& f = src.name();
  Cursor cur(src);
  Result<int32_t> max_len = cur.get<int32_t>("tokenizer max_token_length");
  if (!max_len) return max_len.error();
  if (max_len.value() <= 0 || max_len.value() > (1 << 20)) {
    return make_error(f + ": not a llama2.c tokenizer: max_token_length " +
                      std::to_string(max_len.value()));
  }
  if (src.size() > kMaxLlama2cTokenizerBytes) {
    return make_error(f + ": " + std::to_string(src.size() >> 20) +
                      " MiB is too large for a llama2.c tokenizer.bin (at most " +
                      std::to_string(kMaxLlama2cTokenizerBytes >> 20) +
                      " MiB; is it a checkpoint?)");
  }
  TokenizerData t;
  t.kind = TokenizerKind::Spm;
  t.pre = "default";
  t.space_char = " ";
  t.add_bos = true;
  t.add_space_prefix = true;
  t.unk_id = 0;
  t.bos_id = 1;
  t.eos_id = 2;
  while (cur.remaining() > 0) {
    if (t.tokens.size() >= kMaxLlama2cTokens) {
      return make_error(f + ": not a llama2.c tokenizer: more than " +
                        std::to_string(kMaxLlama2cTokens) + " tokens");
    }
    const std::string what = "token " + std::to_string(t.tokens.size());
    Result<float> score = cur.get<float>(what.c_str());
    if (!score) return score.error();
    Result<int32_t> len = cur.get<int32_t>(what.c_str());
    if (!len) return len.error();
    if (len.value() < 0 || static_cast<uint64_t>(len.value()) > cur.remaining()) {
      return cur.fail(what + " claims " + std::to_string(len.value()) + " bytes, " +
                      std::to_string(cur.remaining()) + " remain");
    }
    std::string piece(static_cast<size_t>(len.value()), '\0');
    TS_TRY(cur.read(piece.data(), piece.size(), what.c_str()));
    if (!std::isfinite(score.value())) return cur.fail(what + " has a non-finite score");
    t.tokens.push_back(std::move(piece));
    t.scores.push_back(score.value());
  }
  if (t.tokens.size() < 3) {
    return make_error(f + ": llama2.c tokenizer has " + std::to_string(t.tokens.size()) +
                      " tokens; ids 0, 1, 2 (<unk>, BOS, EOS) are required");
  }
  t.token_types.assign(t.tokens.size(), static_cast<int32_t>(TokenType::Normal));
  t.token_types[0] = static_cast<int32_t>(TokenType::Unknown);
  t.token_types[1] = static_cast<int32_t>(TokenType::Control);
  t.token_types[2] = static_cast<int32_t>(TokenType::Control);
  for (int b = 0; b < 256 && b + 3 < static_cast<int>(t.tokens.size()); ++b) {
    char want[8];
    std::snprintf(want, sizeof want, "<0x%02X>", b);
    if (t.tokens[b + 3] == want) t.token_types[b + 3] = static_cast<int32_t>(TokenType::Byte);
  }
  return t;
}

}  // namespace ts
