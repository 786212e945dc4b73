// Tokenizer encode / decode / display. Special-token convention: the exact text of a control or
// user-defined piece (e.g. "<|endoftext|>", "<s>") inside the input becomes that single id, as
// llama.cpp does with parse_special and Hugging Face does by default; no other text ever
// produces a control id. Control tokens decode to no bytes (display_piece shows their text).
#include <unordered_map>

#include "base/utf8.h"
#include "tokenizer/byte_unicode.h"
#include "tokenizer/pretokenize.h"
#include "tokenizer/spm_model.h"
#include "tokenizer/tokenizer_impl.h"

namespace ts {
namespace {

// Calls on_text(fragment) for each stretch of ordinary text (never empty) and on_special(id)
// for each special token, in order.
template <class OnText, class OnSpecial>
void split_specials(const SpecialMatcher& sm, std::string_view text, OnText on_text,
                    OnSpecial on_special) {
  size_t pos = 0;
  while (pos < text.size()) {
    const auto m = sm.next(text, pos);
    const size_t end = m.id < 0 ? text.size() : m.pos;
    if (end > pos) on_text(text.substr(pos, end - pos));
    if (m.id < 0) break;
    on_special(m.id);
    pos = m.pos + m.len;
  }
}

// Long inputs (a training corpus) repeat the same words many times: within one encode() call of
// at least kCacheFrom bytes, the ids of short words are remembered.
constexpr size_t kCacheFrom = 1 << 16, kMaxCachedWord = 32;
struct WordCache {
  std::unordered_map<std::string_view, std::pair<uint32_t, uint32_t>> span;  // word -> ids range
  std::vector<int> ids;
};

struct BpeText {
  const BpeModel& bpe;
  PreTokenizer pre;
  const PieceMap* whole_words;  // non-null: a pre-token that is a piece skips merging
};

// BPE over one stretch of ordinary text (no special tokens inside).
void encode_bpe_text(const BpeText& b, std::string_view text, WordCache* cache,
                     std::vector<int>& out) {
  const BpeModel& bpe = b.bpe;
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = pretoken_end(b.pre, text, pos);
    const std::string_view word = text.substr(pos, end - pos);
    pos = end;
    if (b.whole_words && word.size() > 1) {
      const int id = piece_id(*b.whole_words, gpt2_bytes_to_piece(word));
      if (id >= 0) {
        out.push_back(id);
        continue;
      }
    }
    if (!cache || word.size() > kMaxCachedWord || cache->ids.size() > 0x7FFFFFFF) {
      bpe.encode_word(word, out);
      continue;
    }
    auto it = cache->span.find(word);
    if (it == cache->span.end()) {
      const auto begin = static_cast<uint32_t>(cache->ids.size());
      bpe.encode_word(word, cache->ids);
      const auto stop = static_cast<uint32_t>(cache->ids.size());
      it = cache->span.emplace(word, std::make_pair(begin, stop)).first;
    }
    out.insert(out.end(), cache->ids.begin() + it->second.first,
               cache->ids.begin() + it->second.second);
  }
}

std::string escape_spaces(std::string_view text, std::string_view space_char, bool prefix) {
  std::string s;
  s.reserve(text.size() + 8);
  if (prefix) s += space_char;
  for (char c : text) {
    if (c == ' ') {
      s += space_char;
    } else {
      s += c;
    }
  }
  return s;
}

void append_hex(std::string& out, uint8_t b) {
  static const char* hex = "0123456789ABCDEF";
  out += "<0x";
  out += hex[b >> 4];
  out += hex[b & 15];
  out += '>';
}

}  // namespace

std::string visible_bytes(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_seq_len(s, i);
    const auto c = static_cast<uint8_t>(s[i]);
    if (n == 1 && c == ' ') {
      out += "\xE2\x90\xA3";  // ␣
    } else if (n == 1 && c == '\n') {
      out += "\xE2\x86\xB5";  // ↵
    } else if (n == 1 && c == '\t') {
      out += "\xE2\x87\xA5";  // ⇥
    } else if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7F))) {
      append_hex(out, c);
    } else {
      out.append(s.substr(i, static_cast<size_t>(n)));
      i += static_cast<size_t>(n);
      continue;
    }
    ++i;
  }
  return out;
}

namespace {

std::string trim_ascii_space(std::string_view s) {
  const auto sp = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
  size_t b = 0, e = s.size();
  while (b < e && sp(s[b])) ++b;
  while (e > b && sp(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

std::vector<int> Tokenizer::encode(std::string_view text, bool add_bos) const {
  const Impl& m = *impl_;
  std::vector<int> out;
  if (m.type.empty()) return out;
  if (add_bos && m.data.bos_id >= 0) out.push_back(m.data.bos_id);
  const auto on_special = [&](int id) { out.push_back(id); };
  if (m.data.kind == TokenizerKind::Bpe) {
    const BpeText b{m.bpe, m.pre, m.ignore_merges ? &m.pieces : nullptr};
    WordCache cache;
    WordCache* use_cache = text.size() >= kCacheFrom ? &cache : nullptr;
    if (use_cache) out.reserve(text.size() / 3);
    split_specials(
        m.specials, text, [&](std::string_view t) { encode_bpe_text(b, t, use_cache, out); },
        on_special);
    return out;
  }
  // SPM (llama.cpp): a space is prefixed to the text at the start and after each special token.
  const SpmVocab v{m.pieces, m.data.scores, m.mergeable, m.byte_ids};
  bool after_special = true;
  split_specials(
      m.specials, text,
      [&](std::string_view t) {
        spm_encode(escape_spaces(t, m.data.space_char, m.data.add_space_prefix && after_special),
                   v, out);
        after_special = false;
      },
      [&](int id) {
        out.push_back(id);
        after_special = true;
      });
  return out;
}

const std::vector<std::string>& Tokenizer::all_token_bytes() const { return impl_->bytes; }

std::string Tokenizer::token_bytes(int id, int prev) const {
  const Impl& m = *impl_;
  if (!m.valid(id)) return {};
  const std::string& b = m.bytes[id];
  // SPM: the space that encode() prefixed after a special token (BOS) is not part of the text.
  if (m.data.kind == TokenizerKind::Spm && m.data.add_space_prefix && m.is_control(prev) &&
      m.type[id] != TokenType::Byte && !b.empty() && b[0] == ' ') {
    return b.substr(1);
  }
  return b;
}

std::string Tokenizer::decode(std::span<const int> ids) const {
  const Impl& m = *impl_;
  std::string out;
  const bool spm_prefix = m.data.kind == TokenizerKind::Spm && m.data.add_space_prefix;
  for (size_t i = 0; i < ids.size(); ++i) {
    const int id = ids[i];
    if (i == 0 && spm_prefix && m.valid(id) && m.type[id] != TokenType::Byte &&
        !m.bytes[id].empty() && m.bytes[id][0] == ' ') {
      out.append(m.bytes[id], 1);  // the space prefix of text that starts the sequence
    } else {
      out += token_bytes(id, i == 0 ? -1 : ids[i - 1]);
    }
  }
  return out;
}

std::string Tokenizer::display_piece(int id) const {
  const Impl& m = *impl_;
  if (!m.valid(id)) return "<invalid id " + std::to_string(id) + ">";
  const std::string& stored = m.data.tokens[id];
  switch (m.type[id]) {
    case TokenType::Control:
    case TokenType::Unknown: {
      const std::string t = trim_ascii_space(stored);  // llama2.c stores BOS as "\n<s>\n"
      return visible_bytes(t.empty() ? stored : t);
    }
    case TokenType::Byte:
      if (m.data.kind == TokenizerKind::Spm) return visible_bytes(stored);
      break;
    default:
      break;
  }
  const std::string& b = m.bytes[id];
  if (b.size() == 1 && static_cast<uint8_t>(b[0]) >= 0x80) {
    std::string out;
    append_hex(out, static_cast<uint8_t>(b[0]));
    return out;
  }
  return visible_bytes(b);
}

int Tokenizer::vocab_size() const { return static_cast<int>(impl_->type.size()); }

bool Tokenizer::is_special(int id) const {
  const Impl& m = *impl_;
  return m.valid(id) && (m.type[id] == TokenType::Control || m.type[id] == TokenType::Unknown);
}

bool Tokenizer::is_byte(int id) const {
  const Impl& m = *impl_;
  if (!m.valid(id)) return false;
  if (m.data.kind == TokenizerKind::Spm) return m.type[id] == TokenType::Byte;
  const std::string& b = m.bytes[id];
  return m.type[id] != TokenType::Control && b.size() == 1 && static_cast<uint8_t>(b[0]) >= 0x80;
}

const TokenizerData& Tokenizer::data() const { return impl_->data; }

int Tokenizer::find(std::string_view piece) const { return piece_id(impl_->pieces, piece); }

int Tokenizer::find_text(std::string_view text) const {
  if (text.empty()) return -1;
  const int exact = find(text);
  if (exact >= 0 && !is_special(exact) && token_bytes(exact) == text) return exact;
  for (int id = 0; id < vocab_size(); ++id)
    if (!is_special(id) && token_bytes(id) == text) return id;
  if (exact >= 0) return exact;  // a special token by its own text ("<|endoftext|>")
  std::string spelled;
  for (char c : text) spelled += c == ' ' ? data().space_char : std::string(1, c);
  if (const int id = find(spelled); id >= 0) return id;
  for (int id = 0; id < vocab_size(); ++id)
    if (display_piece(id) == text) return id;
  return -1;
}

}  // namespace ts
