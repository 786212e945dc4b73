// The model-file entry points: sniff the format (GGUF magic, else a llama2.c checkpoint or
// tokenizer.bin) and hand over to the reader for it. Holds no format knowledge of its own
// beyond the dispatch and the summary shown by `tokenscope info`.
#include "formats/model_file.h"

#include <cstring>

#include "formats/byte_source.h"
#include "formats/llama2c.h"

namespace ts {

namespace {

bool is_gguf(const ByteSource& src) {
  char magic[4];
  return src.size() >= 4 && src.read_at(0, magic, 4, "magic").ok() &&
         std::memcmp(magic, "GGUF", 4) == 0;
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
  const size_t n_tensors = 1 + 9 * l + 1 + (c.tied_embeddings ? 0 : 1);
  info.tensor_types = "F32 x " + std::to_string(n_tensors);
  info.metadata = {
      {"dim", std::to_string(c.d_model)},       {"hidden_dim", std::to_string(c.d_ff)},
      {"n_layers", std::to_string(c.n_layers)}, {"n_heads", std::to_string(c.n_heads)},
      {"n_kv_heads", std::to_string(c.n_kv_heads)},
      {"vocab_size", std::to_string(c.vocab_size)},
      {"seq_len", std::to_string(c.n_ctx)},
      {"shared_classifier", c.tied_embeddings ? "true" : "false"}};
  return info;
}

}  // namespace

Result<ModelFileInfo> inspect_model_file(const std::string& path) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  if (is_gguf(src.value())) return make_error(path + ": GGUF is not supported yet");
  Result<ModelConfig> cfg = read_llama2c_config(src.value());
  if (!cfg) return cfg.error();
  return llama2c_info(src.value(), cfg.value());
}

Result<LoadedModel> load_model_file(const std::string& path, const std::string& tokenizer_path) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  if (is_gguf(src.value())) return make_error(path + ": GGUF is not supported yet");
  Result<Model> model = read_llama2c_model(src.value());
  if (!model) return model.error();
  LoadedModel out;
  out.model = std::move(model.value());
  out.info = llama2c_info(src.value(), out.model.config);
  if (!tokenizer_path.empty()) {
    Result<TokenizerData> tok = load_tokenizer_file(tokenizer_path);
    if (!tok) return tok.error();
    if (static_cast<int>(tok->tokens.size()) != out.model.config.vocab_size) {
      return make_error(tokenizer_path + ": tokenizer has " + std::to_string(tok->tokens.size()) +
                        " tokens but " + path + " has vocab_size " +
                        std::to_string(out.model.config.vocab_size));
    }
    out.tokenizer = std::move(tok.value());
  }
  return out;
}

Result<TokenizerData> load_tokenizer_file(const std::string& path) {
  Result<ByteSource> src = ByteSource::open_file(path);
  if (!src) return src.error();
  if (is_gguf(src.value())) return make_error(path + ": GGUF is not supported yet");
  return read_llama2c_tokenizer(src.value());
}

Status save_gguf_model(const std::string& path, const Model& model, const TokenizerData& tok,
                       const std::map<std::string, std::string>& extra) {
  return make_error(path + ": GGUF writing is not supported yet");
}

}  // namespace ts
