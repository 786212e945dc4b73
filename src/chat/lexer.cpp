// Template text -> tokens (see lexer.h). The white-space rules are Jinja2's:
//  - `{%-` / `{{-` / `{#-` remove all white space before the tag, `-%}` / `-}}` / `-#}` all after;
//  - trim_blocks: one newline right after `%}` or `#}` is removed (`+%}` keeps it);
//  - lstrip_blocks: spaces and tabs from the start of a line up to `{%` or `{#` are removed when
//    nothing else stands between them (`{%+` keeps them).
// Inside a tag, its end is recognised only where the brackets opened in it are closed.
#include "chat/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/utf8.h"
#include "chat/pystr.h"
#include "chat/value.h"

namespace ts::chat {

namespace {

// Line ends normalised to \n, one final \n dropped.
std::string normalise_newlines(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '\r') {
      out += '\n';
      if (k + 1 < s.size() && s[k + 1] == '\n') ++k;
    } else {
      out += s[k];
    }
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Length in bytes of the Python white space starting at s[pos].
size_t space_len_at(std::string_view s, size_t pos) {
  const int n = utf8_seq_len(s, pos);
  if (n <= 0) return 0;
  return py_isspace(utf8_decode_at(s, pos)) ? static_cast<size_t>(n) : 0;
}

size_t skip_spaces(std::string_view s, size_t pos) {
  while (pos < s.size()) {
    const size_t n = space_len_at(s, pos);
    if (n == 0) break;
    pos += n;
  }
  return pos;
}

std::string rstrip_spaces(std::string_view s) {
  const std::vector<uint32_t> cps = to_code_points(s);
  size_t e = cps.size();
  while (e > 0 && py_isspace(cps[e - 1])) --e;
  return from_code_points(cps, 0, e);
}

bool all_spaces(std::string_view s) {
  if (s.empty()) return false;
  for (uint32_t cp : to_code_points(s))
    if (!py_isspace(cp)) return false;
  return true;
}

int count_newlines(std::string_view s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

bool starts(std::string_view s, size_t pos, const char* lit) {
  return s.compare(pos, std::strlen(lit), lit) == 0;
}

class Lexer {
 public:
  Lexer(std::string_view src, const LexOptions& opt) : src_(src), opt_(opt) {}

  std::vector<Token> run() {
    while (pos_ < src_.size()) {
      const size_t k = next_tag(pos_);
      if (k == std::string_view::npos) {
        emit_text(src_.substr(pos_), src_.substr(pos_));
        break;
      }
      const char kind = src_[k + 1];
      const char sign =
          (k + 2 < src_.size() && (src_[k + 2] == '-' || src_[k + 2] == '+')) ? src_[k + 2] : 0;
      const std::string_view before = src_.substr(pos_, k - pos_);
      emit_text(strip_before(before, sign, kind != '{'), before);
      pos_ = k + 2 + (sign ? 1 : 0);
      if (kind == '#') {
        comment();
      } else if (kind == '%' && raw_begin()) {
        raw_body();
      } else {
        tag(kind == '%');
      }
    }
    push(Tok::End, "");
    return std::move(out_);
  }

 private:
  size_t next_tag(size_t from) const {
    for (size_t k = src_.find('{', from); k != std::string_view::npos; k = src_.find('{', k + 1)) {
      if (k + 1 < src_.size() && (src_[k + 1] == '{' || src_[k + 1] == '%' || src_[k + 1] == '#'))
        return k;
    }
    return std::string_view::npos;
  }

  // The text before a tag, after the tag's own white-space rule.
  std::string strip_before(std::string_view text, char sign, bool block_or_comment) {
    if (sign == '-') return rstrip_spaces(text);
    if (sign != '+' && opt_.lstrip_blocks && block_or_comment) {
      const size_t nl = text.rfind('\n');
      const size_t l_pos = nl == std::string_view::npos ? 0 : nl + 1;
      if ((l_pos > 0 || line_starting_) && all_spaces(text.substr(l_pos))) {
        return std::string(text.substr(0, l_pos));
      }
    }
    return std::string(text);
  }

  // `text` is what remains of `original` after the white-space rules.
  void emit_text(std::string_view text, std::string_view original) {
    if (!text.empty()) push(Tok::Text, std::string(text));
    line_ += count_newlines(original);
  }

  void push(Tok t, std::string text) {
    Token tok;
    tok.type = t;
    tok.text = std::move(text);
    tok.line = line_;
    out_.push_back(std::move(tok));
  }

  // After a `{%`/`%}`-style end: `+END` keeps what follows, `-END` eats white space, plain END
  // eats one newline when trim_blocks applies. Returns the position after the end, or npos.
  size_t match_end(size_t p, const char* end, bool trims) const {
    const size_t n = std::strlen(end);
    if (trims && src_[p] == '+' && starts(src_, p + 1, end)) return p + 1 + n;
    if (src_[p] == '-' && starts(src_, p + 1, end)) return skip_spaces(src_, p + 1 + n);
    if (starts(src_, p, end)) {
      size_t q = p + n;
      if (trims && opt_.trim_blocks && q < src_.size() && src_[q] == '\n') ++q;
      return q;
    }
    return std::string_view::npos;
  }

  void finish_at(size_t end) {
    line_ += count_newlines(src_.substr(pos_, end - pos_));
    line_starting_ = end > 0 && src_[end - 1] == '\n';
    pos_ = end;
  }

  void comment() {
    for (size_t p = pos_; p < src_.size(); ++p) {
      const size_t e = match_end(p, "#}", true);
      if (e != std::string_view::npos) return finish_at(e);
    }
    fail("comment {# is not closed", line_);
  }

  // `{% raw %}` (the `{%` already read): true and positioned after it when this tag is one.
  bool raw_begin() {
    size_t p = skip_spaces(src_, pos_);
    if (!starts(src_, p, "raw")) return false;
    p = skip_spaces(src_, p + 3);
    size_t e = std::string_view::npos;
    if (starts(src_, p, "-%}")) e = skip_spaces(src_, p + 3);
    if (starts(src_, p, "%}")) e = p + 2;
    if (e == std::string_view::npos) return false;
    finish_at(e);
    return true;
  }

  void raw_body() {
    for (size_t k = src_.find("{%", pos_); k != std::string_view::npos;
         k = src_.find("{%", k + 1)) {
      const char sign =
          (k + 2 < src_.size() && (src_[k + 2] == '-' || src_[k + 2] == '+')) ? src_[k + 2] : 0;
      size_t p = skip_spaces(src_, k + 2 + (sign ? 1 : 0));
      if (!starts(src_, p, "endraw")) continue;
      p = skip_spaces(src_, p + 6);
      const size_t e = match_end(p, "%}", true);
      if (e == std::string_view::npos) continue;
      const std::string text = strip_before(src_.substr(pos_, k - pos_), sign, true);
      if (!text.empty()) push(Tok::Text, text);
      finish_at(e);
      return;
    }
    fail("{% raw %} is not closed by {% endraw %}", line_);
  }

  void tag(bool block) {
    push(block ? Tok::BlockBegin : Tok::VarBegin, "");
    std::string stack;  // closing brackets expected
    while (true) {
      pos_ = skip_spaces_counting(pos_);
      if (pos_ >= src_.size()) fail(block ? "tag {% is not closed" : "tag {{ is not closed", line_);
      if (stack.empty()) {
        const size_t e = match_end(pos_, block ? "%}" : "}}", block);
        if (e != std::string_view::npos) {
          push(block ? Tok::BlockEnd : Tok::VarEnd, "");
          return finish_at(e);
        }
      }
      inner_token(stack);
    }
  }

  size_t skip_spaces_counting(size_t p) {
    const size_t e = skip_spaces(src_, p);
    line_ += count_newlines(src_.substr(p, e - p));
    return e;
  }

  void inner_token(std::string& stack) {
    const char c = src_[pos_];
    if (c >= '0' && c <= '9') return number();
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
      size_t e = pos_;
      while (e < src_.size() &&
             (std::isalnum(static_cast<unsigned char>(src_[e])) || src_[e] == '_'))
        ++e;
      push(Tok::Name, std::string(src_.substr(pos_, e - pos_)));
      pos_ = e;
      return;
    }
    if (c == '\'' || c == '"') return string_literal(c);
    operator_token(stack);
  }

  void number() {
    const auto digits = [&](size_t p) {  // \d+(_\d+)*
      size_t e = p;
      while (e < src_.size() && (std::isdigit(static_cast<unsigned char>(src_[e])) ||
                                 (src_[e] == '_' && e + 1 < src_.size() &&
                                  std::isdigit(static_cast<unsigned char>(src_[e + 1])) && e > p)))
        ++e;
      return e;
    };
    size_t e = digits(pos_);
    bool is_float = false;
    if (e + 1 < src_.size() && src_[e] == '.' &&
        std::isdigit(static_cast<unsigned char>(src_[e + 1]))) {
      e = digits(e + 1);
      is_float = true;
    }
    if (e < src_.size() && (src_[e] == 'e' || src_[e] == 'E')) {
      size_t p = e + 1;
      if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
      if (p < src_.size() && std::isdigit(static_cast<unsigned char>(src_[p]))) {
        e = digits(p);
        is_float = true;
      }
    }
    std::string text(src_.substr(pos_, e - pos_));
    std::string clean;
    for (char ch : text)
      if (ch != '_') clean += ch;
    Token tok;
    tok.line = line_;
    tok.text = text;
    if (is_float) {
      tok.type = Tok::Float;
      tok.f = std::strtod(clean.c_str(), nullptr);
    } else {
      tok.type = Tok::Int;
      errno = 0;
      tok.i = std::strtoll(clean.c_str(), nullptr, 10);
      if (errno == ERANGE) fail_unsupported("integer literal " + text + " (beyond 64 bits)", line_);
    }
    out_.push_back(std::move(tok));
    pos_ = e;
  }

  void string_literal(char q) {
    size_t p = pos_ + 1;
    while (p < src_.size() && src_[p] != q) p += (src_[p] == '\\') ? 2 : 1;
    if (p >= src_.size()) fail("string literal is not closed", line_);
    const std::string_view body = src_.substr(pos_ + 1, p - pos_ - 1);
    push(Tok::String, decode_string_literal(body, line_));
    line_ += count_newlines(body);
    pos_ = p + 1;
  }

  void operator_token(std::string& stack) {
    static const char* const kOps[] = {"//", "**", "==", "!=", ">=", "<=", "+", "-", "/",
                                       "*",  "%",  "~",  "[",  "]",  "(",  ")", "{", "}",
                                       "=",  ".",  ":",  "|",  ",",  ";",  ">", "<"};
    for (const char* op : kOps) {
      if (!starts(src_, pos_, op)) continue;
      const std::string o = op;
      if (o == "(" || o == "[" || o == "{") stack += o == "(" ? ')' : o == "[" ? ']' : '}';
      if (o == ")" || o == "]" || o == "}") {
        if (stack.empty()) fail("unexpected '" + o + "'", line_);
        if (stack.back() != o[0]) {
          fail("unexpected '" + o + "', expected '" + std::string(1, stack.back()) + "'", line_);
        }
        stack.pop_back();
      }
      push(Tok::Op, o);
      pos_ += o.size();
      return;
    }
    const int n = utf8_seq_len(src_, pos_);
    fail("unexpected character '" + std::string(src_.substr(pos_, n > 0 ? n : 1)) + "' in a tag",
         line_);
  }

  std::string_view src_;
  LexOptions opt_;
  size_t pos_ = 0;
  int line_ = 1;
  bool line_starting_ = true;
  std::vector<Token> out_;
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string decode_string_literal(std::string_view s, int line) {
  std::string out;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] != '\\' || k + 1 >= s.size()) {
      out += s[k];
      continue;
    }
    const char c = s[++k];
    switch (c) {
      case '\n':
        break;  // a backslash at a line end continues the line
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        const size_t n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t d = 1; d <= n; ++d) {
          const int h = k + d < s.size() ? hex_value(s[k + d]) : -1;
          if (h < 0) fail(std::string("truncated \\") + c + " escape in a string", line);
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        if (cp > 0x10FFFF) fail("string escape beyond U+10FFFF", line);
        if (cp >= 0xD800 && cp <= 0xDFFF) fail_unsupported("a surrogate escape in a string", line);
        utf8_append(out, cp);
        k += n;
        break;
      }
      case 'N':
        fail_unsupported("\\N{...} escapes in strings", line);
      default:
        if (c >= '0' && c <= '7') {
          uint32_t cp = 0;
          size_t d = 0;
          while (d < 3 && k + d < s.size() && s[k + d] >= '0' && s[k + d] <= '7') {
            cp = cp * 8 + static_cast<uint32_t>(s[k + d] - '0');
            ++d;
          }
          utf8_append(out, cp);
          k += d - 1;
        } else {
          out += '\\';
          out += c;
        }
    }
  }
  return out;
}

std::vector<Token> lex_template(std::string_view source, const LexOptions& opt) {
  if (!utf8_valid(source)) fail("the template is not valid UTF-8");
  const std::string src = normalise_newlines(source);
  return Lexer(src, opt).run();
}

}  // namespace ts::chat
