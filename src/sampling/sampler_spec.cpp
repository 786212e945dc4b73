// Parsing of sampler specs ("temp=0.8 top-p=0.9 seed=7"): whitespace-separated key=value words.
// The stage keys are those of the stages' parameter tables (stage_param.h).
#include "sampling/sampler_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "base/text_args.h"

namespace ts {

namespace {

Result<double> parse_number(std::string_view key, std::string_view v) {
  const std::string s(v);
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || std::isnan(d)) {
    return make_error("sampler spec: '" + std::string(key) + "' needs a number, got '" + s + "'");
  }
  return d;
}

Result<long long> parse_integer(std::string_view key, std::string_view v) {
  auto d = parse_number(key, v);
  if (!d.ok()) return d.error();
  if (d.value() != std::floor(d.value()) || std::fabs(d.value()) > 9e15) {
    return make_error("sampler spec: '" + std::string(key) + "' needs a whole number, got '" +
                      std::string(v) + "'");
  }
  return static_cast<long long>(d.value());
}

Result<uint64_t> parse_seed(std::string_view v) {
  const std::string s(v);
  char* end = nullptr;
  errno = 0;
  const unsigned long long u = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || s[0] == '-' || end != s.c_str() + s.size() || errno == ERANGE) {
    return make_error("sampler spec: 'seed' needs a whole number from 0 to 2^64-1, got '" + s + "'");
  }
  return static_cast<uint64_t>(u);
}

Result<std::vector<StageKind>> parse_order(std::string_view v) {
  std::vector<StageKind> order;
  while (!v.empty()) {
    const size_t comma = v.find_first_of(",>");
    const std::string_view name = trim_space(v.substr(0, comma));
    auto k = parse_stage_kind(name);
    if (!k.ok()) return k.error();
    order.push_back(k.value());
    if (comma == std::string_view::npos) break;
    v.remove_prefix(comma + 1);
  }
  return order;
}

// The first stage of type S in the chain, inserted (off) when there is none.
template <class S>
S& stage_in(std::vector<Stage>& chain) {
  for (Stage& st : chain)
    if (S* v = std::get_if<S>(&st)) return *v;
  const auto k = static_cast<StageKind>(Stage(S{}).index());
  const size_t at = stage_insert_at(chain, k);
  chain.insert(chain.begin() + static_cast<std::ptrdiff_t>(at), S{});
  return std::get<S>(chain[at]);
}

// Sets the stage parameter whose spec key is `key` (any stage's table, stage_param.h). Returns
// false when no stage has that key.
Result<bool> set_stage_param(std::vector<Stage>& chain, std::string_view key,
                             std::string_view val) {
  Status status = ok_status();
  bool found = false;
  for_each_stage_type([&]<class S>() {
    for (const Param<S>& p : S::params()) {
      if (found || !spec_key_matches(p.spec, key)) continue;
      found = true;
      if (p.type() == ParamType::Text) {
        S copy = stage_in<S>(chain);
        status = p.set_text(copy, val);
        if (status.ok()) stage_in<S>(chain) = copy;
      } else if (p.type() == ParamType::Int) {
        auto v = parse_integer(key, val);
        if (!v.ok()) {
          status = v.error();
        } else if (v.value() < -1 || v.value() > 1000000000) {
          status = make_error("sampler spec: '" + std::string(key) + "' out of range: " +
                              std::string(val));
        } else {
          p.set(stage_in<S>(chain), static_cast<double>(v.value()));
        }
      } else {
        auto v = parse_number(key, val);
        if (!v.ok())
          status = v.error();
        else
          p.set(stage_in<S>(chain), v.value());
      }
    }
  });
  if (!status.ok()) return status.error();
  return found;
}

std::string known_keys() {
  std::string out = "greedy";
  for_each_stage_type([&]<class S>() {
    for (const Param<S>& p : S::params()) out += " " + std::string(spec_key_first(p.spec));
  });
  return out + " seed order label";
}

// The chain in the given order: the first stage of each listed kind (its values as set), or
// that kind off. Temperature 0 left out of the order was greedy all the same: then the chain
// ends with a Temperature 0 stage (as the flat form did).
std::vector<Stage> reorder(const std::vector<Stage>& chain, const std::vector<StageKind>& order) {
  std::vector<Stage> out;
  bool has_temperature = false;
  for (StageKind k : order) {
    Stage st = default_stage(k);
    for (const Stage& c : chain) {
      if (kind_of(c) == k) {
        st = c;
        break;
      }
    }
    has_temperature = has_temperature || k == StageKind::Temperature;
    out.push_back(st);
  }
  for (const Stage& c : chain) {
    if (has_temperature) break;
    if (const auto* t = std::get_if<Temperature>(&c); t && t->t == 0.0f) {
      out.push_back(*t);
      break;
    }
  }
  return out;
}

}  // namespace

Result<SamplerSettings> parse_sampler_spec(std::string_view spec, const SamplerSettings& base) {
  SamplerSettings s = base;
  // Stage keys set the first stage of their kind (inserted before the temperature when the
  // chain has none); "order=" applies last, so the order of the words does not matter.
  std::vector<Stage> chain = base.chain;
  std::optional<std::vector<StageKind>> order;
  spec = trim_space(spec);
  s.label = std::string(spec);
  while (!spec.empty()) {
    // A value in double quotes may hold spaces: one-of="once upon a time|the end".
    const size_t eq0 = spec.find('=');
    const size_t sp0 = spec.find_first_of(" \t");
    size_t sp = sp0;
    bool quoted = false;
    if (eq0 != std::string_view::npos && eq0 < sp0 && eq0 + 1 < spec.size() &&
        spec[eq0 + 1] == '"') {
      const size_t close = spec.find('"', eq0 + 2);
      if (close == std::string_view::npos)
        return make_error("sampler spec: a quoted value has no closing '\"': " + std::string(spec));
      sp = close + 1;
      quoted = true;
    }
    std::string word_text(spec.substr(0, sp));
    if (quoted) {  // key="value" -> key=value
      word_text.erase(eq0 + 1, 1);
      word_text.pop_back();
    }
    const std::string_view word = word_text;
    spec = sp >= spec.size() ? std::string_view{} : trim_space(spec.substr(sp));
    if (word == "greedy") {
      stage_in<Temperature>(chain).t = 0.0f;
      continue;
    }
    const size_t eq = word.find('=');
    if (eq == std::string_view::npos) {
      return make_error("sampler spec: expected key=value or 'greedy', got '" + std::string(word) + "'");
    }
    const std::string_view key = word.substr(0, eq);
    const std::string_view val = word.substr(eq + 1);
    if (key == "seed") {
      auto v = parse_seed(val);
      if (!v.ok()) return v.error();
      s.seed = v.value();
    } else if (key == "order") {
      auto v = parse_order(val);
      if (!v.ok()) return v.error();
      order = v.value();
    } else if (key == "label") {
      s.label = std::string(val);
    } else {
      auto found = set_stage_param(chain, key, val);
      if (!found.ok()) return found.error();
      if (!found.value()) {
        return make_error("sampler spec: unknown key '" + std::string(key) + "' (known: " +
                          known_keys() + ")");
      }
    }
  }
  s.chain = order ? reorder(chain, *order) : chain;
  return s;
}

Result<std::vector<SamplerSettings>> parse_lane_specs(std::string_view specs,
                                                      const SamplerSettings& base) {
  std::vector<SamplerSettings> out;
  while (true) {
    size_t semi = std::string_view::npos;  // the first ';' outside double quotes
    for (size_t i = 0, q = 0; i < specs.size(); ++i) {
      if (specs[i] == '"') q ^= 1;
      if (specs[i] == ';' && !q) {
        semi = i;
        break;
      }
    }
    const std::string_view part = trim_space(specs.substr(0, semi));
    if (!part.empty()) {
      auto s = parse_sampler_spec(part, base);
      if (!s.ok()) return s.error();
      out.push_back(std::move(s.value()));
    }
    if (semi == std::string_view::npos) break;
    specs.remove_prefix(semi + 1);
  }
  if (out.empty()) return make_error("sampler spec: no lanes given");
  return out;
}

}  // namespace ts
