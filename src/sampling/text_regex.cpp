// TextRegex (text_regex.h): a recursive-descent parser to a small syntax tree, Thompson's
// construction (one node per byte set, epsilon nodes for choices), the nodes that can reach the
// match marked once, and the epsilon closure over live nodes only; RegexDfa interns subsets.
#include "sampling/text_regex.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace ts {

namespace {

constexpr int kMaxNodes = 4096;
constexpr int kMaxRepeat = 32;

struct Ast {
  enum Kind { Set, Empty, Cat, Alt, Rep } kind = Empty;
  std::bitset<256> set;
  std::vector<Ast> kids;
  int lo = 0, hi = 0;  // Rep: hi = -1 is unbounded
};

Ast set_of(std::bitset<256> s) {
  Ast a;
  a.kind = Ast::Set;
  a.set = s;
  return a;
}
Ast byte_ast(uint8_t b) {
  std::bitset<256> s;
  s.set(b);
  return set_of(s);
}
Ast rep_of(Ast x, int lo, int hi) {
  Ast a;
  a.kind = Ast::Rep;
  a.lo = lo;
  a.hi = hi;
  a.kids.push_back(std::move(x));
  return a;
}

// \d \w \s and their negations; false when c is not a class letter.
bool class_escape(char c, std::bitset<256>& out) {
  std::bitset<256> s;
  const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (int b = 0; b < 256; ++b) {
    const bool in = lower == 'd'   ? (b >= '0' && b <= '9')
                    : lower == 'w' ? (std::isalnum(b) && b < 128) || b == '_'
                    : lower == 's' ? (b == ' ' || (b >= '\t' && b <= '\r'))
                                   : false;
    s[b] = in;
  }
  if (lower != 'd' && lower != 'w' && lower != 's') return false;
  out = std::isupper(static_cast<unsigned char>(c)) ? ~s : s;
  return true;
}

class Parser {
 public:
  explicit Parser(std::string_view p) : p_(p) {}

  Result<Ast> parse() {
    Ast a = alternation();
    if (err_.empty() && i_ < p_.size()) fail("unmatched ')'");
    if (!err_.empty()) return make_error("regex: " + err_);
    return a;
  }

 private:
  void fail(const std::string& what) {
    if (err_.empty()) err_ = what + " at byte " + std::to_string(i_ + 1);
  }
  bool more() const { return err_.empty() && i_ < p_.size(); }

  Ast alternation() {
    Ast first = concatenation();
    if (!(more() && p_[i_] == '|')) return first;
    Ast a;
    a.kind = Ast::Alt;
    a.kids.push_back(std::move(first));
    while (more() && p_[i_] == '|') {
      ++i_;
      a.kids.push_back(concatenation());
    }
    return a;
  }

  Ast concatenation() {
    Ast a;
    a.kind = Ast::Cat;
    while (more() && p_[i_] != '|' && p_[i_] != ')') a.kids.push_back(repeat());
    return a;
  }

  Ast repeat() {
    if (p_[i_] == '*' || p_[i_] == '+' || p_[i_] == '?' || p_[i_] == '{') {
      fail("nothing to repeat");
      return {};
    }
    Ast a = atom();
    while (more()) {
      const char c = p_[i_];
      if (c == '*')
        a = rep_of(std::move(a), 0, -1);
      else if (c == '+')
        a = rep_of(std::move(a), 1, -1);
      else if (c == '?')
        a = rep_of(std::move(a), 0, 1);
      else if (c == '{') {
        int lo = 0, hi = 0;
        if (!counts(lo, hi)) return {};
        a = rep_of(std::move(a), lo, hi);
        continue;  // counts() moved past '}'
      } else
        break;
      ++i_;
    }
    return a;
  }

  // {m} {m,} {m,n} at i_ (on '{'); leaves i_ after '}'.
  bool counts(int& lo, int& hi) {
    const size_t at = i_;
    ++i_;
    auto number = [&](int& v) {
      const size_t s = i_;
      v = 0;
      while (i_ < p_.size() && std::isdigit(static_cast<unsigned char>(p_[i_])) && v <= 999)
        v = v * 10 + (p_[i_++] - '0');
      return i_ > s;
    };
    bool ok = number(lo);
    hi = lo;
    if (ok && i_ < p_.size() && p_[i_] == ',') {
      ++i_;
      if (!number(hi)) hi = -1;
    }
    ok = ok && i_ < p_.size() && p_[i_] == '}';
    if (!ok) {
      i_ = at;
      fail("'{' must be {m}, {m,} or {m,n}");
      return false;
    }
    ++i_;
    if (lo > kMaxRepeat || hi > kMaxRepeat || (hi >= 0 && hi < lo)) {
      i_ = at;
      fail("repeat counts must be 0..32 with m <= n");
      return false;
    }
    return true;
  }

  Ast atom() {
    const char c = p_[i_];
    if (c == '(') {
      const size_t open = i_++;
      Ast a = alternation();
      if (!err_.empty()) return a;
      if (i_ >= p_.size() || p_[i_] != ')') {
        i_ = open;
        fail("unclosed '('");
        return a;
      }
      ++i_;
      return a;
    }
    if (c == '[') return klass();
    if (c == '.') {
      ++i_;
      std::bitset<256> s;
      s.set();
      s.reset('\n');
      return set_of(s);
    }
    if (c == '\\') {
      std::bitset<256> s;
      if (!escape(s)) return {};
      return set_of(s);
    }
    ++i_;
    return byte_ast(static_cast<uint8_t>(c));
  }

  // An escape at i_ (on '\'): a class, a control letter or a punctuation mark.
  bool escape(std::bitset<256>& out) {
    if (i_ + 1 >= p_.size()) {
      fail("'\\' at the end");
      return false;
    }
    const char e = p_[i_ + 1];
    if (class_escape(e, out)) {
      i_ += 2;
      return true;
    }
    out.reset();
    if (e == 'n')
      out.set('\n');
    else if (e == 't')
      out.set('\t');
    else if (e == 'r')
      out.set('\r');
    else if (std::ispunct(static_cast<unsigned char>(e)) || e == ' ')
      out.set(static_cast<uint8_t>(e));
    else {
      fail(std::string("unknown escape '\\") + e + "'");
      return false;
    }
    i_ += 2;
    return true;
  }

  Ast klass() {
    const size_t open = i_++;
    bool negate = false;
    if (i_ < p_.size() && p_[i_] == '^') negate = true, ++i_;
    std::bitset<256> s;
    bool first = true;
    while (err_.empty() && i_ < p_.size() && (p_[i_] != ']' || first)) {
      first = false;
      std::bitset<256> one;
      int lo = -1;
      if (p_[i_] == '\\') {
        if (!escape(one)) return {};
        if (one.count() == 1) lo = static_cast<int>(first_bit(one));
      } else {
        lo = static_cast<uint8_t>(p_[i_++]);
        one.set(static_cast<size_t>(lo));
      }
      if (lo >= 0 && i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
        ++i_;
        int hi = static_cast<uint8_t>(p_[i_]);
        if (p_[i_] == '\\') {
          std::bitset<256> h;
          if (!escape(h)) return {};
          if (h.count() != 1) {
            fail("a range must end in one byte");
            return {};
          }
          hi = static_cast<int>(first_bit(h));
        } else {
          ++i_;
        }
        if (hi < lo) {
          fail("a range must go up (a-z, not z-a)");
          return {};
        }
        for (int b = lo; b <= hi; ++b) one.set(static_cast<size_t>(b));
      }
      s |= one;
    }
    if (!err_.empty()) return {};
    if (i_ >= p_.size()) {
      i_ = open;
      fail("unclosed '['");
      return {};
    }
    ++i_;  // ']'
    return set_of(negate ? ~s : s);
  }

  static size_t first_bit(const std::bitset<256>& s) {
    for (size_t b = 0; b < 256; ++b)
      if (s[b]) return b;
    return 0;
  }

  std::string_view p_;
  size_t i_ = 0;
  std::string err_;
};

}  // namespace

// Thompson's construction on the tree; outs are the (node, edge) pairs still to be joined.
struct RegexBuilder {
  struct Frag {
    int start = -1;
    std::vector<std::pair<int, int>> outs;  // edge 0 = out, 1 = out2
  };
  TextRegex& re;
  bool too_big = false;

  int add(TextRegex::Node n) {
    if (static_cast<int>(re.nodes_.size()) >= kMaxNodes) {
      too_big = true;
      return 0;
    }
    re.nodes_.push_back(n);
    return static_cast<int>(re.nodes_.size()) - 1;
  }
  void patch(const std::vector<std::pair<int, int>>& outs, int to) {
    for (const auto& [n, e] : outs) (e == 0 ? re.nodes_[n].out : re.nodes_[n].out2) = to;
  }
  Frag epsilon() {
    const int n = add({});
    return {n, {{n, 0}}};
  }
  Frag cat(Frag a, Frag b) {
    if (too_big) return a;
    patch(a.outs, b.start);
    return {a.start, std::move(b.outs)};
  }
  Frag optional(Frag a) {
    const int s = add({});
    if (too_big) return a;
    re.nodes_[s].out = a.start;
    a.outs.push_back({s, 1});
    return {s, std::move(a.outs)};
  }
  Frag star(Frag a) {
    const int s = add({});
    if (too_big) return a;
    re.nodes_[s].out = a.start;
    patch(a.outs, s);
    return {s, {{s, 1}}};
  }
  Frag emit(const Ast& a) {
    if (too_big) return {0, {}};
    switch (a.kind) {
      case Ast::Set: {
        TextRegex::Node n;
        n.reads = true;
        n.set = a.set;
        const int id = add(n);
        return {id, {{id, 0}}};
      }
      case Ast::Empty:
        return epsilon();
      case Ast::Cat: {
        Frag f = epsilon();
        for (const Ast& k : a.kids) f = cat(std::move(f), emit(k));
        return f;
      }
      case Ast::Alt: {
        Frag f = emit(a.kids[0]);
        for (size_t k = 1; k < a.kids.size() && !too_big; ++k) {
          Frag g = emit(a.kids[k]);
          const int s = add({});
          if (too_big) break;
          re.nodes_[s].out = f.start;
          re.nodes_[s].out2 = g.start;
          f.outs.insert(f.outs.end(), g.outs.begin(), g.outs.end());
          f = {s, std::move(f.outs)};
        }
        return f;
      }
      case Ast::Rep: {
        Frag f = epsilon();
        for (int k = 0; k < a.lo && !too_big; ++k) f = cat(std::move(f), emit(a.kids[0]));
        if (a.hi < 0) return cat(std::move(f), star(emit(a.kids[0])));
        for (int k = a.lo; k < a.hi && !too_big; ++k)
          f = cat(std::move(f), optional(emit(a.kids[0])));
        return f;
      }
    }
    return epsilon();
  }
  Status finish(const Ast& a) {
    Frag f = emit(a);
    TextRegex::Node m;
    m.match = true;
    const int id = add(m);
    if (too_big) return make_error("regex: too large (over 4096 states)");
    patch(f.outs, id);
    re.start_ = f.start;
    re.prune();
    return ok_status();
  }
};

Result<TextRegex> TextRegex::compile(std::string_view pattern) {
  Result<Ast> ast = Parser(pattern).parse();
  if (!ast.ok()) return ast.error();
  TextRegex re;
  RegexBuilder b{re};
  if (Status st = b.finish(ast.value()); !st.ok()) return st.error();
  return re;
}

TextRegex TextRegex::one_of(std::span<const std::string> phrases) {
  Ast alt;
  alt.kind = Ast::Alt;
  for (const std::string& p : phrases) {
    Ast cat;
    cat.kind = Ast::Cat;
    for (char c : p) cat.kids.push_back(byte_ast(static_cast<uint8_t>(c)));
    alt.kids.push_back(std::move(cat));
  }
  if (alt.kids.empty()) alt.kids.push_back(set_of({}));  // no phrase: nothing matches
  TextRegex re;
  RegexBuilder b{re};
  if (!b.finish(alt).ok()) {  // over 4096 bytes of phrases: matches nothing rather than crash
    re = TextRegex{};
    RegexBuilder empty{re};
    (void)empty.finish(set_of({}));
  }
  return re;
}

void TextRegex::prune() {
  const size_t n = nodes_.size();
  std::vector<std::vector<int>> into(n);  // reverse edges
  for (size_t i = 0; i < n; ++i) {
    const Node& x = nodes_[i];
    if (x.reads && x.set.none()) continue;  // reads nothing: a dead end
    for (int o : {x.out, x.out2})
      if (o >= 0) into[static_cast<size_t>(o)].push_back(static_cast<int>(i));
  }
  live_.assign(n, 0);
  std::vector<int> todo;
  for (size_t i = 0; i < n; ++i)
    if (nodes_[i].match) live_[i] = 1, todo.push_back(static_cast<int>(i));
  while (!todo.empty()) {
    const int v = todo.back();
    todo.pop_back();
    for (int u : into[static_cast<size_t>(v)])
      if (!live_[static_cast<size_t>(u)]) live_[static_cast<size_t>(u)] = 1, todo.push_back(u);
  }
}

void TextRegex::closure(int node, std::vector<uint8_t>& seen, States& out) const {
  std::vector<int> todo = {node};
  while (!todo.empty()) {
    const int v = todo.back();
    todo.pop_back();
    if (v < 0 || seen[static_cast<size_t>(v)] || !live_[static_cast<size_t>(v)]) continue;
    seen[static_cast<size_t>(v)] = 1;
    const Node& x = nodes_[static_cast<size_t>(v)];
    if (x.reads || x.match) {
      out.push_back(v);
    } else {
      todo.push_back(x.out2);
      todo.push_back(x.out);
    }
  }
}

TextRegex::States TextRegex::start() const {
  States s;
  if (start_ < 0) return s;
  std::vector<uint8_t> seen(nodes_.size(), 0);
  closure(start_, seen, s);
  std::sort(s.begin(), s.end());
  return s;
}

TextRegex::States TextRegex::step(const States& s, uint8_t byte) const {
  States out;
  std::vector<uint8_t> seen(nodes_.size(), 0);
  for (int v : s) {
    const Node& x = nodes_[static_cast<size_t>(v)];
    if (x.reads && x.set[byte]) closure(x.out, seen, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool TextRegex::accepts(const States& s) const {
  for (int v : s)
    if (nodes_[static_cast<size_t>(v)].match) return true;
  return false;
}

RegexDfa::RegexDfa(const TextRegex& re) : re_(re) {
  intern({});  // state 0: dead
  start_ = intern(re_.start());
}

int RegexDfa::intern(const TextRegex::States& s) {
  const auto [it, fresh] = ids_.emplace(s, static_cast<int>(sets_.size()));
  if (fresh) {
    sets_.push_back(s);
    next_.emplace_back(256, -1);
    accepts_.push_back(re_.accepts(s) ? 1 : 0);
  }
  return it->second;
}

int RegexDfa::next(int state, uint8_t byte) {
  int& to = next_[static_cast<size_t>(state)][byte];
  if (to < 0) {
    const int id = intern(re_.step(sets_[static_cast<size_t>(state)], byte));
    next_[static_cast<size_t>(state)][byte] = id;  // `to` may dangle after intern grew next_
    return id;
  }
  return to;
}

int RegexDfa::run(int state, std::string_view text) {
  for (char c : text) {
    if (state == kDead) break;
    state = next(state, static_cast<uint8_t>(c));
  }
  return state;
}

}  // namespace ts
