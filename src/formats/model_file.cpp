// The model-file entry points: sniff the format (GGUF magic, else a llama2.c checkpoint or
// tokenizer.bin) and hand over to the reader for it. Holds no format knowledge of its own
// beyond the dispatch, the summary shown by `tokenscope info`, and the refusal of a model whose
// fp32 weights would not fit in memory (checked from the header, before any weight is read).
#include "formats/model_file.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "formats/byte_source.h"
#include "formats/gguf.h"
#include "formats/gguf_model.h"
#include "formats/gguf_tokenizer.h"
#include "formats/llama2c.h"
#include "formats/memory_budget.h"

namespace ts {

namespace {

bool is_gguf(const ByteSource& src) {
  char magic[4];
  return src.size() >= 4 && src.read_at(0, magic, 4, "magic").ok() &&
         std::memcmp(magic, "GGUF", 4) == 0;
}

// Neither GGUF nor a llama2.c header: name what the file is not, with its first bytes.
Error unknown_format(const ByteSource& src) {
  if (src.size() == 0) return make_error(src.name() + ": empty file (0 bytes), not a model file");
  uint8_t head[4] = {};
  const size_t n = static_cast<size_t>(std::min<uint64_t>(4, src.size()));
  (void)src.read_at(0, head, n, "magic");
  std::string hex;
  for (size_t k = 0; k < n; ++k) {
    char b[4];
    std::snprintf(b, sizeof b, "%02X", head[k]);
    hex += (k ? " " : "") + std::string(b);
  }
  return make_error(src.name() + ": not a model file: no GGUF magic (it starts with " + hex +
                    ") and no llama2.c checkpoint header");
}

// A matrix the loader keeps in its blocks (engine/quant/qmat.h): one of the types the engine
// computes from, and not one it splits or reads as fp32 (a fused gpt2 qkv, the position table).
bool kept_quantized(const GgufTensorInfo& t) {
  const auto type = static_cast<GgmlType>(t.type);
  const bool computed = type == GgmlType::Q8_0 || type == GgmlType::Q4_0 ||
                        type == GgmlType::Q4_K || type == GgmlType::Q5_K || type == GgmlType::Q6_K;
  return computed && t.ne.size() >= 2 && t.ne[1] > 1 &&
         t.name.find("position_embd") == std::string::npos &&
         t.name.find("attn_qkv") == std::string::npos;
}

uint64_t kv_bytes_one_lane(const ModelConfig& c) {
  return uint64_t{2} * static_cast<uint64_t>(c.n_layers) * static_cast<uint64_t>(c.kv_dim()) *
         sizeof(float) * static_cast<uint64_t>(c.n_ctx);
}

// Loading holds the weights read so far plus one tensor's raw bytes, its fp32 decoding and the
// copy into the model (a fused gpt2 qkv is split once more), then a lane's KV cache. A matrix
// kept quantized holds its raw bytes and one decoded row.
uint64_t gguf_peak(const GgufFile& f, uint64_t memory_bytes) {
  uint64_t worst = 0;
  for (const GgufTensorInfo& t : f.tensors()) {
    // Kept quantized: its bytes and one decoded row (the NaN check); else bytes + 2 fp32 copies.
    const uint64_t holds = kept_quantized(t) ? t.n_bytes + sizeof(float) * t.ne[0]
                                             : t.n_bytes + 2 * sizeof(float) * t.n_elements;
    worst = std::max<uint64_t>(worst, holds);
  }
  uint64_t peak = memory_bytes + worst;
  if (Result<ModelConfig> c = config_from_gguf(f); c.ok()) peak += kv_bytes_one_lane(c.value());
  return peak;
}

ModelFileInfo llama2c_info(const ByteSource& src, const ModelConfig& c) {
  ModelFileInfo info;
  info.path = src.name();
  info.format = "llama2c";
  info.config = c;
  info.has_weights = true;
  const size_t d = c.d_model, l = c.n_layers, kv = c.kv_dim(), h = c.d_ff, v = c.vocab_size;
  info.n_params = v * d + l * (2 * d + 2 * d * d + 2 * kv * d + 3 * h * d) + d +
                  (c.tied_embeddings ? 0 : v * d);
  info.file_bytes = src.size();
  info.memory_bytes = info.n_params * sizeof(float);
  info.peak_bytes = info.memory_bytes + kv_bytes_one_lane(c);
  const size_t n_tensors = 1 + 9 * l + 1 + (c.tied_embeddings ? 0 : 1);
  info.tensor_types = std::to_string(n_tensors) + " F32";
  info.metadata = {{"dim", std::to_string(c.d_model)},
                   {"hidden_dim", std::to_string(c.d_ff)},
                   {"n_layers", std::to_string(c.n_layers)},
                   {"n_heads", std::to_string(c.n_heads)},
                   {"n_kv_heads", std::to_string(c.n_kv_heads)},
                   {"vocab_size", std::to_string(c.vocab_size)},
                   {"seq_len", std::to_string(c.n_ctx)},
                   {"shared_classifier", c.tied_embeddings ? "true" : "false"}};
  return info;
}

ModelFileInfo gguf_info(const GgufFile& f) {
  ModelFileInfo info;
  info.path = f.name();
  info.format = "gguf";
  info.has_weights = !f.tensors().empty();
  info.file_bytes = f.file_size();
  std::map<uint32_t, size_t> per_type;  // ggml type id -> tensor count
  constexpr size_t kMax = SIZE_MAX / sizeof(float);  // saturate: a hostile header may overflow
  for (const GgufTensorInfo& t : f.tensors()) {
    if (__builtin_add_overflow(info.n_params, t.n_elements, &info.n_params)) info.n_params = kMax;
    ++per_type[t.type];
  }
  // Kept quantized: the large matrices of the types the engine computes from (their bytes);
  // everything else is decoded to fp32.
  uint64_t resident = 0;
  for (const GgufTensorInfo& t : f.tensors()) {
    const uint64_t b =
        kept_quantized(t) ? t.n_bytes : std::min<uint64_t>(t.n_elements, kMax) * sizeof(float);
    if (__builtin_add_overflow(resident, b, &resident)) resident = UINT64_MAX / 2;
  }
  info.memory_bytes = resident;
  info.peak_bytes = gguf_peak(f, info.memory_bytes);
  // "57 Q4_K, 12 F32": most frequent type first, then by type id.
  std::vector<std::pair<size_t, uint32_t>> counts;
  for (const auto& [type, n] : per_type) counts.emplace_back(n, type);
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [n, type] : counts) {
    if (!info.tensor_types.empty()) info.tensor_types += ", ";
    info.tensor_types += std::to_string(n) + " " + ggml_type_name(type);
  }
  for (const GgufKv& kv : f.metadata()) info.metadata.emplace_back(kv.first, kv.second.describe());
  return info;
}

// The model's vocabulary must cover every token id the tokenizer can produce.
Status check_vocab(const TokenizerData& tok, const ModelConfig& c, const std::string& where) {
  if (static_cast<int>(tok.tokens.size()) > c.vocab_size) {
    return make_error(where + ": tokenizer has " + std::to_string(tok.tokens.size()) +
                      " tokens but the model's vocab_size is " + std::to_string(c.vocab_size));
  }
  return ok_status();
}

Result<LoadedModel> load_gguf(const ByteSource& src, const std::string& tokenizer_path,
                              const LoadProgressFn& progress) {
  Result<GgufFile> f = GgufFile::read(src);
  if (!f) return f.error();
  TS_TRY(check_memory_fits(src.name(), gguf_info(f.value()).peak_bytes,
                           available_memory_bytes()));
  Result<Model> model = model_from_gguf(f.value(), progress);
  if (!model) return model.error();
  LoadedModel out;
  out.model = std::move(model.value());
  out.info = gguf_info(f.value());
  out.info.config = out.model.config;
  if (tokenizer_path.empty() && gguf_has_tokenizer(f.value())) {
    Result<TokenizerData> tok = tokenizer_from_gguf(f.value());
    if (!tok) return tok.error();
    out.tokenizer = std::move(tok.value());
    TS_TRY(check_vocab(out.tokenizer, out.model.config, src.name()));
  }
  return out;
}

}  // namespace

Result<ModelFileInfo> inspect_model_file(const std::string& path) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  if (is_gguf(src.value())) {
    Result<GgufFile> f = GgufFile::read(src.value());
    if (!f) return f.error();
    ModelFileInfo info = gguf_info(f.value());
    Result<ModelConfig> cfg = config_from_gguf(f.value());
    if (cfg) {
      info.config = cfg.value();
    } else if (info.has_weights) {
      return cfg.error();  // a vocabulary-only file may describe a model we cannot run
    } else if (const GgufValue* a = f->find("general.architecture"); a && a->as_string()) {
      info.config.architecture = *a->as_string();
    }
    return info;
  }
  if (!looks_like_llama2c_checkpoint(src.value())) return unknown_format(src.value());
  Result<ModelConfig> cfg = read_llama2c_config(src.value());
  if (!cfg) return cfg.error();
  return llama2c_info(src.value(), cfg.value());
}

Result<LoadedModel> load_model_file(const std::string& path, const std::string& tokenizer_path,
                                    const LoadProgressFn& progress) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  LoadedModel out;
  if (is_gguf(src.value())) {
    Result<LoadedModel> g = load_gguf(src.value(), tokenizer_path, progress);
    if (!g) return g.error();
    out = std::move(g.value());
  } else {
    if (!looks_like_llama2c_checkpoint(src.value())) return unknown_format(src.value());
    Result<ModelConfig> cfg = read_llama2c_config(src.value());
    if (!cfg) return cfg.error();
    TS_TRY(check_memory_fits(src->name(), llama2c_info(src.value(), cfg.value()).peak_bytes,
                             available_memory_bytes()));
    Result<Model> model = read_llama2c_model(src.value());
    if (!model) return model.error();
    out.model = std::move(model.value());
    out.info = llama2c_info(src.value(), out.model.config);
    if (progress && !progress(1, 1)) return make_error(src->name() + ": loading cancelled");
  }
  if (!tokenizer_path.empty()) {  // a separate tokenizer replaces any the file carries
    Result<TokenizerData> tok = load_tokenizer_file(tokenizer_path);
    if (!tok) return tok.error();
    TS_TRY(check_vocab(tok.value(), out.model.config, tokenizer_path));
    out.tokenizer = std::move(tok.value());
  }
  return out;
}

Result<TokenizerData> load_tokenizer_file(const std::string& path) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  if (is_gguf(src.value())) {
    Result<GgufFile> f = GgufFile::read(src.value());
    if (!f) return f.error();
    return tokenizer_from_gguf(f.value());
  }
  if (src->size() == 0) return unknown_format(src.value());
  return read_llama2c_tokenizer(src.value());
}

Status verify_model_file(const std::string& path, const std::string& tokenizer_path,
                         TokenizerData& tok, bool scan_weights) {
  tok = TokenizerData{};
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  ModelConfig config;
  if (is_gguf(src.value())) {
    Result<GgufFile> f = GgufFile::read(src.value());
    if (!f) return f.error();
    TS_TRY(check_memory_fits(src->name(), gguf_info(f.value()).peak_bytes,
                             available_memory_bytes()));
    TS_TRY(check_gguf_model(f.value(), scan_weights));
    Result<ModelConfig> cfg = config_from_gguf(f.value());
    if (!cfg) return cfg.error();
    config = cfg.value();
    if (tokenizer_path.empty() && gguf_has_tokenizer(f.value())) {
      Result<TokenizerData> t = tokenizer_from_gguf(f.value());
      if (!t) return t.error();
      TS_TRY(check_vocab(t.value(), config, src->name()));
      tok = std::move(t.value());
    }
  } else {
    if (!looks_like_llama2c_checkpoint(src.value())) return unknown_format(src.value());
    Result<ModelConfig> cfg = read_llama2c_config(src.value());
    if (!cfg) return cfg.error();
    config = cfg.value();
    TS_TRY(check_memory_fits(src->name(), llama2c_info(src.value(), config).peak_bytes,
                             available_memory_bytes()));
    if (scan_weights) TS_TRY(check_llama2c_weights(src.value()));
  }
  if (!tokenizer_path.empty()) {
    Result<TokenizerData> t = load_tokenizer_file(tokenizer_path);
    if (!t) return t.error();
    TS_TRY(check_vocab(t.value(), config, tokenizer_path));
    tok = std::move(t.value());
  }
  return ok_status();
}

Status save_gguf_model(const std::string& path, const Model& model, const TokenizerData& tok,
                       const std::map<std::string, std::string>& extra) {
  return save_gguf_model_as(path, model, tok, GgmlType::F32, extra);
}

}  // namespace ts
