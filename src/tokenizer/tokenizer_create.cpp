// Tokenizer::create: validates TokenizerData (sizes agree, ids in range, merges name known
// pieces, every byte has a token) and derives the lookup tables in Tokenizer::Impl. Also the
// special member functions. Encoding and decoding live in tokenizer.cpp.
#include <cstdio>

#include "base/utf8.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/tokenizer_impl.h"

namespace ts {
namespace {

// "<0xNN>" -> NN, else -1.
int parse_byte_piece(std::string_view p) {
  if (p.size() != 6 || p.substr(0, 3) != "<0x" || p[5] != '>') return -1;
  int v = 0;
  for (size_t i = 3; i < 5; ++i) {
    const char c = p[i];
    const int d = (c >= '0' && c <= '9')   ? c - '0'
                  : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                  : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                                           : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (!from.empty() && s.substr(i, from.size()) == from) {
      out += to;
      i += from.size();
    } else {
      out += s[i++];
    }
  }
  return out;
}

// The message may quote the file's pieces and merges: shown as valid UTF-8 on one line (an invalid
// byte as <0xNN>, a control character as \xNN).
Error bad(const std::string& what) {
  std::string shown;
  for (char ch : utf8_sanitize(what)) {
    if (static_cast<unsigned char>(ch) < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(ch));
      shown += hex;
    } else {
      shown += ch;
    }
  }
  return make_error("tokenizer: " + shown);
}

std::vector<TokenType> effective_types(const TokenizerData& d) {
  const size_t n = d.tokens.size();
  std::vector<TokenType> t(n, TokenType::Normal);
  if (!d.token_types.empty()) {
    for (size_t i = 0; i < n; ++i) {
      const int v = d.token_types[i];
      t[i] = v == 0 ? TokenType::Normal : static_cast<TokenType>(v);
    }
    return t;
  }
  // No types stored (e.g. llama2.c's tokenizer.bin): infer them from the ids and the pieces.
  if (d.kind == TokenizerKind::Spm) {
    for (size_t i = 0; i < n; ++i) {
      if (parse_byte_piece(d.tokens[i]) >= 0) t[i] = TokenType::Byte;
    }
  }
  for (int id : {d.bos_id, d.eos_id, d.pad_id}) {
    if (id >= 0) t[static_cast<size_t>(id)] = TokenType::Control;
  }
  if (d.unk_id >= 0) t[static_cast<size_t>(d.unk_id)] = TokenType::Unknown;
  return t;
}

}  // namespace

Status Tokenizer::Impl::build_bpe() {
  Impl& m = *this;
  const TokenizerData& d = m.data;
  if (!pre_tokenizer_from_name(d.pre, m.pre)) {
    return bad("pre-tokenizer '" + d.pre +
               "' is not supported (supported: gpt2, default, llama3, llama-bpe, qwen2, "
               "smollm)");
  }
  m.ignore_merges = m.pre == PreTokenizer::Llama3;  // as in LLaMA-3's tokenizer.json
  for (int b = 0; b < 256; ++b) {
    const std::string piece = gpt2_bytes_to_piece(std::string(1, static_cast<char>(b)));
    m.byte_ids[b] = piece_id(m.pieces, piece);
    if (m.byte_ids[b] < 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "BPE vocabulary has no token for byte 0x%02X", b);
      return bad(buf);
    }
  }
  m.bpe = BpeModel(m.byte_ids);
  for (size_t k = 0; k < d.merges.size(); ++k) {
    const std::string& mg = d.merges[k];
    const size_t sp = mg.find(' ', 1);
    const int l = sp == std::string::npos ? -1 : piece_id(m.pieces, std::string_view(mg).substr(0, sp));
    const int r = sp == std::string::npos ? -1 : piece_id(m.pieces, std::string_view(mg).substr(sp + 1));
    const int res = (l < 0 || r < 0) ? -1 : piece_id(m.pieces, mg.substr(0, sp) + mg.substr(sp + 1));
    if (res < 0) {
      return bad("merge #" + std::to_string(k) + " '" + mg + "' does not name known pieces");
    }
    m.bpe.add_merge(l, r, res);
  }
  std::string raw;
  for (size_t i = 0; i < d.tokens.size(); ++i) {
    switch (m.type[i]) {
      case TokenType::Control: m.bytes[i].clear(); break;
      case TokenType::Unknown: m.bytes[i] = "\xEF\xBF\xBD"; break;
      case TokenType::UserDefined: m.bytes[i] = d.tokens[i]; break;
      default: m.bytes[i] = gpt2_piece_to_bytes(d.tokens[i], raw) ? raw : d.tokens[i];
    }
  }
  return ok_status();
}

Status Tokenizer::Impl::build_spm() {
  Impl& m = *this;
  const TokenizerData& d = m.data;
  const size_t n = d.tokens.size();
  if (d.scores.size() != n) return bad("SPM vocabulary needs one score per token");
  if (d.space_char.empty()) return bad("SPM space_char is empty");
  for (int b = 0; b < 256; ++b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "<0x%02X>", b);
    m.byte_ids[b] = piece_id(m.pieces, buf);
    if (m.byte_ids[b] < 0) m.byte_ids[b] = d.unk_id;
    if (m.byte_ids[b] < 0) return bad(std::string("SPM vocabulary has neither ") + buf + " nor <unk>");
  }
  m.mergeable.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const TokenType t = m.type[i];
    m.mergeable[i] = t == TokenType::Normal || t == TokenType::UserDefined || t == TokenType::Unused;
    const int byte = parse_byte_piece(d.tokens[i]);
    if (t == TokenType::Control) {
      m.bytes[i].clear();
    } else if (t == TokenType::Unknown) {
      m.bytes[i] = "\xEF\xBF\xBD";
    } else if (t == TokenType::Byte && byte >= 0) {
      m.bytes[i] = std::string(1, static_cast<char>(byte));
    } else {
      m.bytes[i] = replace_all(d.tokens[i], d.space_char, " ");
    }
  }
  return ok_status();
}

Result<Tokenizer> Tokenizer::create(TokenizerData data) {
  const size_t n = data.tokens.size();
  if (n == 0) return bad("the vocabulary is empty");
  if (n > 0x7FFFFFFF) return bad("the vocabulary is too large");
  if (!data.scores.empty() && data.scores.size() != n) {
    return bad("scores has " + std::to_string(data.scores.size()) + " entries for " +
               std::to_string(n) + " tokens");
  }
  if (!data.token_types.empty() && data.token_types.size() != n) {
    return bad("token_type has " + std::to_string(data.token_types.size()) + " entries for " +
               std::to_string(n) + " tokens");
  }
  for (size_t i = 0; i < data.token_types.size(); ++i) {
    if (data.token_types[i] < 0 || data.token_types[i] > 6) {
      return bad("token " + std::to_string(i) + " has unknown type " +
                 std::to_string(data.token_types[i]));
    }
  }
  const std::pair<const char*, int> ids[] = {
      {"bos", data.bos_id}, {"eos", data.eos_id}, {"unk", data.unk_id}, {"pad", data.pad_id}};
  for (const auto& [name, id] : ids) {
    if (id < -1 || id >= static_cast<int>(n)) {
      return bad(std::string(name) + "_id " + std::to_string(id) + " is outside the vocabulary");
    }
  }

  Tokenizer t;
  Impl& m = *t.impl_;
  m.data = std::move(data);
  m.pieces.reserve(n);
  for (size_t i = 0; i < n; ++i) m.pieces.emplace(m.data.tokens[i], static_cast<int>(i));
  m.type = effective_types(m.data);
  m.bytes.assign(n, {});
  TS_TRY(m.data.kind == TokenizerKind::Bpe ? m.build_bpe() : m.build_spm());
  std::vector<SpecialMatcher::Entry> specials;
  for (size_t i = 0; i < n; ++i) {
    if (m.type[i] == TokenType::Control || m.type[i] == TokenType::UserDefined) {
      specials.emplace_back(m.data.tokens[i], static_cast<int>(i));
    }
  }
  m.specials = SpecialMatcher(std::move(specials));
  return t;
}

Tokenizer::Tokenizer() : impl_(std::make_unique<Impl>()) {}
Tokenizer::~Tokenizer() = default;
Tokenizer::Tokenizer(const Tokenizer& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
Tokenizer& Tokenizer::operator=(const Tokenizer& o) {
  if (this != &o) impl_ = std::make_unique<Impl>(*o.impl_);
  return *this;
}
Tokenizer::Tokenizer(Tokenizer&& o) noexcept : impl_(std::move(o.impl_)) {}
Tokenizer& Tokenizer::operator=(Tokenizer&& o) noexcept {
  impl_ = std::move(o.impl_);
  return *this;
}

}  // namespace ts
