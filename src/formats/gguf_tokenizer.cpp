// tokenizer.ggml.* reading and writing. Defaults follow llama.cpp when a key is absent: SPM
// ("llama") adds BOS and a space prefix, BPE ("gpt2") does neither.
#include "formats/gguf_tokenizer.h"

#include <cmath>

namespace ts {

namespace {

const std::string kPrefix = "tokenizer.ggml.";

Error key_error(const GgufFile& f, const std::string& key, const std::string& why) {
  return make_error(f.name() + ": " + key + " " + why);
}

Result<int> special_id(const GgufFile& f, const std::string& key, size_t n_tokens) {
  const GgufValue* v = f.find(key);
  if (!v) return -1;
  const std::optional<int64_t> id = v->as_int();
  if (!id) return key_error(f, key, "must be an integer, got " + v->describe());
  if (*id < 0 || static_cast<uint64_t>(*id) >= n_tokens) {
    return key_error(
        f, key,
        std::to_string(*id) + " is outside the " + std::to_string(n_tokens) + "-token vocabulary");
  }
  return static_cast<int>(*id);
}

Result<bool> flag(const GgufFile& f, const std::string& key, bool fallback) {
  const GgufValue* v = f.find(key);
  if (!v) return fallback;
  if (!v->as_bool()) return key_error(f, key, "must be a bool, got " + v->describe());
  return *v->as_bool();
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty() || from == to) return s;
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

// A piece of a llama2.c vocabulary as GGUF stores it: U+2581 for its plain spaces, and BOS / EOS
// as SentencePiece and llama.cpp name them ("<s>", "</s>"; tokenizer.bin has "\n<s>\n" and
// "\n</s>\n", and llama.cpp warns that such an EOS is not an end-of-generation token).
std::string llama2c_piece(const std::string& p, const std::string& space_char) {
  if (p == "\n<s>\n" || p == "\n</s>\n") return p.substr(1, p.size() - 2);
  return replace_all(p, space_char, kSpmSpace);
}

// The tokenizer.ggml.pre value for `t`, as llama.cpp spells it. GPT-2's splitter is "gpt-2":
// "gpt2" is the tokenizer.ggml.model name, and llama.cpp refuses it as a pre-tokenizer ("unknown
// pre-tokenizer type"), so a BPE vocabulary with pre "gpt2" or none is written as "gpt-2".
// Other names are kept as they are; SPM vocabularies carry "default" (llama.cpp ignores it).
std::string pre_name(const TokenizerData& t) {
  if (t.kind == TokenizerKind::Spm) return t.pre.empty() ? "default" : t.pre;
  if (t.pre.empty() || t.pre == "gpt2") return "gpt-2";
  return t.pre;
}

// tokenizer.ggml.model: which algorithm (gpt2 = byte-level BPE, llama = SentencePiece).
Status read_kind(const GgufFile& f, TokenizerData& t) {
  const GgufValue* model = f.find(kPrefix + "model");
  if (!model || !model->as_string()) {
    return key_error(f, kPrefix + "model", "is missing (the file carries no tokenizer)");
  }
  if (*model->as_string() == "gpt2") {
    t.kind = TokenizerKind::Bpe;
  } else if (*model->as_string() == "llama") {
    t.kind = TokenizerKind::Spm;
    t.space_char = kSpmSpace;
  } else {
    return key_error(
        f, kPrefix + "model",
        "\"" + gguf_printable(*model->as_string()) + "\" is not supported (gpt2 and llama are)");
  }
  return ok_status();
}

// The pieces (required, non-empty), then the optional per-token arrays, each exactly n long:
// scores (finite floats) and token types (known ones).
Status read_tokens(const GgufFile& f, TokenizerData& t) {
  const GgufValue* tokens = f.find(kPrefix + "tokens");
  if (!tokens || !tokens->is_array() || tokens->elem != GgufValueType::String) {
    return key_error(f, kPrefix + "tokens", "must be an array of strings");
  }
  t.tokens = tokens->arr_s;
  const size_t n = t.tokens.size();
  if (n == 0) return key_error(f, kPrefix + "tokens", "is empty");
  if (const GgufValue* s = f.find(kPrefix + "scores")) {
    if (!s->is_array() || gguf_value_kind(s->elem) != 'f' || s->array_size() != n) {
      return key_error(f, kPrefix + "scores",
                       "must be " + std::to_string(n) + " floats, got " + s->describe(40));
    }
    // A NaN score would silently change which merges win: refused, as llama2.c's are.
    for (size_t k = 0; k < n; ++k) {
      if (!std::isfinite(s->arr_f[k]) || !std::isfinite(static_cast<float>(s->arr_f[k]))) {
        return key_error(f, kPrefix + "scores",
                         "has a non-finite value at index " + std::to_string(k) + " (token " +
                             gguf_printable(t.tokens[k], 32) + ")");
      }
    }
    t.scores.assign(s->arr_f.begin(), s->arr_f.end());
  }
  if (const GgufValue* ty = f.find(kPrefix + "token_type")) {
    if (!ty->is_array() || gguf_value_kind(ty->elem) != 'i' || ty->array_size() != n) {
      return key_error(f, kPrefix + "token_type",
                       "must be " + std::to_string(n) + " int32 values, got " + ty->describe(40));
    }
    t.token_types.reserve(n);
    for (int64_t v : ty->arr_i) {
      if (v < 0 || v > static_cast<int64_t>(TokenType::Byte)) {
        return key_error(f, kPrefix + "token_type", "holds an unknown type " + std::to_string(v));
      }
      t.token_types.push_back(static_cast<int32_t>(v));
    }
  }
  return ok_status();
}

// The merges (BPE) and the pre-tokenizer's name ("default" when absent).
Status read_merges_and_pre(const GgufFile& f, TokenizerData& t) {
  if (const GgufValue* m = f.find(kPrefix + "merges")) {
    if (!m->is_array() || (m->elem != GgufValueType::String && m->array_size() != 0)) {
      return key_error(f, kPrefix + "merges", "must be an array of strings");
    }
    t.merges = m->arr_s;
  }
  if (const GgufValue* p = f.find(kPrefix + "pre")) {
    if (!p->as_string()) return key_error(f, kPrefix + "pre", "must be a string");
    t.pre = *p->as_string();
  } else {
    t.pre = "default";
  }
  return ok_status();
}

// The special ids (each absent = -1, or an index into the pieces), the BOS and space-prefix
// flags (defaults by kind, as llama.cpp's), and the chat template.
Status read_specials(const GgufFile& f, TokenizerData& t) {
  const size_t n = t.tokens.size();
  Result<int> bos = special_id(f, kPrefix + "bos_token_id", n);
  Result<int> eos = special_id(f, kPrefix + "eos_token_id", n);
  Result<int> unk = special_id(f, kPrefix + "unknown_token_id", n);
  Result<int> pad = special_id(f, kPrefix + "padding_token_id", n);
  for (const Result<int>* r : {&bos, &eos, &unk, &pad}) {
    if (!r->ok()) return r->error();
  }
  t.bos_id = bos.value();
  t.eos_id = eos.value();
  t.unk_id = unk.value();
  t.pad_id = pad.value();
  const bool spm = t.kind == TokenizerKind::Spm;
  Result<bool> add_bos = flag(f, kPrefix + "add_bos_token", spm);
  if (!add_bos) return add_bos.error();
  Result<bool> add_space = flag(f, kPrefix + "add_space_prefix", spm);
  if (!add_space) return add_space.error();
  t.add_bos = add_bos.value();
  t.add_space_prefix = add_space.value();
  if (const GgufValue* c = f.find("tokenizer.chat_template")) {
    if (!c->as_string()) return key_error(f, "tokenizer.chat_template", "must be a string");
    t.chat_template = *c->as_string();
  }
  return ok_status();
}

}  // namespace

Result<TokenizerData> tokenizer_from_gguf(const GgufFile& f) {
  TokenizerData t;
  TS_TRY(read_kind(f, t));
  TS_TRY(read_tokens(f, t));
  TS_TRY(read_merges_and_pre(f, t));
  TS_TRY(read_specials(f, t));
  return t;
}

bool gguf_has_tokenizer(const GgufFile& f) { return f.find(kPrefix + "tokens") != nullptr; }

Status tokenizer_to_gguf(const TokenizerData& t, GgufWriter& w) {
  const size_t n = t.tokens.size();
  if (n == 0) return make_error("tokenizer: no tokens to write");
  if (!t.scores.empty() && t.scores.size() != n) {
    return make_error("tokenizer: " + std::to_string(t.scores.size()) + " scores for " +
                      std::to_string(n) + " tokens");
  }
  if (!t.token_types.empty() && t.token_types.size() != n) {
    return make_error("tokenizer: " + std::to_string(t.token_types.size()) + " token types for " +
                      std::to_string(n) + " tokens");
  }
  for (int id : {t.bos_id, t.eos_id, t.unk_id, t.pad_id}) {
    if (id >= static_cast<int>(n)) {
      return make_error("tokenizer: special id " + std::to_string(id) + " is outside the " +
                        std::to_string(n) + "-token vocabulary");
    }
  }
  const bool spm = t.kind == TokenizerKind::Spm;
  w.set(kPrefix + "model", GgufValue::str(spm ? "llama" : "gpt2"));
  w.set(kPrefix + "pre", GgufValue::str(pre_name(t)));
  if (spm && t.space_char != kSpmSpace) {
    std::vector<std::string> pieces;
    pieces.reserve(n);
    for (const std::string& p : t.tokens) pieces.push_back(llama2c_piece(p, t.space_char));
    w.set(kPrefix + "tokens", GgufValue::strings(std::move(pieces)));
  } else {
    w.set(kPrefix + "tokens", GgufValue::strings(t.tokens));
  }
  if (!t.scores.empty()) {
    w.set(kPrefix + "scores",
          GgufValue::float_array(GgufValueType::Float32,
                                 std::vector<double>(t.scores.begin(), t.scores.end())));
  }
  if (!t.token_types.empty()) {
    w.set(kPrefix + "token_type",
          GgufValue::signed_array(GgufValueType::Int32, std::vector<int64_t>(t.token_types.begin(),
                                                                             t.token_types.end())));
  }
  if (!t.merges.empty()) w.set(kPrefix + "merges", GgufValue::strings(t.merges));
  const std::pair<const char*, int> ids[] = {{"bos_token_id", t.bos_id},
                                             {"eos_token_id", t.eos_id},
                                             {"unknown_token_id", t.unk_id},
                                             {"padding_token_id", t.pad_id}};
  for (const auto& [key, id] : ids) {
    if (id >= 0) w.set(kPrefix + key, GgufValue::u32(static_cast<uint32_t>(id)));
  }
  w.set(kPrefix + "add_bos_token", GgufValue::boolean(t.add_bos));
  // Only SPM prefixes a space. A BPE vocabulary is written with false whatever the data says
  // (a checkpoint may come back with the default true): readers that honour the key for BPE,
  // like llama.cpp when it detokenizes, would otherwise drop the first token's leading space.
  w.set(kPrefix + "add_space_prefix", GgufValue::boolean(spm && t.add_space_prefix));
  if (!t.chat_template.empty()) w.set("tokenizer.chat_template", GgufValue::str(t.chat_template));
  return ok_status();
}

}  // namespace ts
