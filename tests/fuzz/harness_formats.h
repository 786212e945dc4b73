// Fuzz harnesses for the model-file readers: any bytes as a GGUF file and as a llama2.c
// checkpoint / tokenizer.bin. A reader either refuses the bytes with one clean line naming the
// file, or what it returns is usable: every tensor decodes, the metadata prints on one line, a
// model and tokenizer that load run through a session (harness_session.h).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "formats/gguf.h"
#include "formats/gguf_model.h"
#include "formats/gguf_tokenizer.h"
#include "formats/llama2c.h"
#include "fuzz/harness_common.h"
#include "fuzz/harness_session.h"
#include "fuzz/seed_models.h"

namespace ts::fuzz {

// Encode, decode and show a few strings with a tokenizer a file described.
inline std::string exercise_tokenizer(const Tokenizer& tok) {
  for (const char* text : {"Once upon a time", " \xC3\xA9\xF0\x9F\x98\x80", "\xFF\xFE"}) {
    for (int id : tok.encode(text, true)) {
      if (id < 0 || id >= tok.vocab_size()) return "encode produced id " + std::to_string(id);
    }
  }
  const int n = std::min(tok.vocab_size(), 4096);
  for (int id = 0; id < n; ++id) {
    if (std::string bad = check_shown(tok.display_piece(id), "token label"); !bad.empty()) {
      return bad;
    }
  }
  return "";
}

inline std::string run_gguf(std::span<const uint8_t> in) {
  const std::string name = "fuzz.gguf", prefix = name + ": ";
  Result<GgufFile> f =
      GgufFile::read(ByteSource::from_memory(std::vector<uint8_t>(in.begin(), in.end()), name));
  if (!f.ok()) return check_error(f.error(), prefix);
  for (const GgufKv& kv : f->metadata()) {
    if (std::string bad = check_shown(kv.second.describe(), "metadata value"); !bad.empty()) {
      return bad;
    }
  }
  for (const GgufTensorInfo& t : f->tensors()) {
    Result<std::vector<float>> v = f->read_tensor_f32(t);
    if (!v.ok()) {
      if (std::string bad = check_error(v.error(), prefix); !bad.empty()) return bad;
    } else if (v->size() != t.n_elements) {
      return "tensor " + t.name + " decoded to " + std::to_string(v->size()) + " values";
    }
  }
  LoadedModel lm;
  bool have_tok = false;
  if (gguf_has_tokenizer(f.value())) {
    Result<TokenizerData> td = tokenizer_from_gguf(f.value());
    if (!td.ok()) return check_error(td.error(), prefix);
    Result<Tokenizer> tok = Tokenizer::create(td.value());
    if (!tok.ok()) return check_error(tok.error(), "");
    if (std::string bad = exercise_tokenizer(tok.value()); !bad.empty()) return bad;
    lm.tokenizer = std::move(td).value();
    have_tok = true;
  }
  Result<ModelConfig> cfg = config_from_gguf(f.value());
  if (!cfg.ok()) return check_error(cfg.error(), prefix);
  Result<Model> m = model_from_gguf(f.value());
  if (!m.ok()) return check_error(m.error(), prefix);
  if (!have_tok) return "";
  lm.model = std::move(m).value();
  return exercise_session(std::move(lm));
}

inline std::string run_llama2c(std::span<const uint8_t> in) {
  const std::string name = "fuzz.bin", prefix = name + ": ";
  const ByteSource src =
      ByteSource::from_memory(std::vector<uint8_t>(in.begin(), in.end()), name);
  // The same bytes as a tokenizer.bin.
  Result<TokenizerData> td = read_llama2c_tokenizer(src);
  if (!td.ok()) {
    if (std::string bad = check_error(td.error(), prefix); !bad.empty()) return bad;
  } else {
    Result<Tokenizer> tok = Tokenizer::create(td.value());
    if (!tok.ok()) {
      if (std::string bad = check_error(tok.error(), ""); !bad.empty()) return bad;
    } else if (std::string bad = exercise_tokenizer(tok.value()); !bad.empty()) {
      return bad;
    }
  }
  // As a checkpoint, then run with a vocabulary of its size.
  Result<Model> m = read_llama2c_model(src);
  if (!m.ok()) return check_error(m.error(), prefix);
  LoadedModel lm;
  lm.model = std::move(m).value();
  lm.tokenizer = small_spm(std::max(3, std::min(lm.model.config.vocab_size, 300)), false, " ");
  return exercise_session(std::move(lm));
}

}  // namespace ts::fuzz
