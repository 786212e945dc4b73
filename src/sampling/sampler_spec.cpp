// Parsing of sampler specs ("temp=0.8 top-p=0.9 seed=7"): whitespace-separated key=value words.
#include "sampling/sampler_spec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "base/text_args.h"
#include "sampling/flat_settings.h"

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

}  // namespace

Result<SamplerSettings> parse_sampler_spec(std::string_view spec, const SamplerSettings& base) {
  SamplerSettings s = base;
  // The stage keys set the flat form (as they always did: their order in the spec does not
  // matter); the chain is rebuilt from it only when one of them is given.
  FlatSettings f = flatten(base.chain);
  bool stages_given = false;
  spec = trim_space(spec);
  s.label = std::string(spec);
  while (!spec.empty()) {
    const size_t sp = spec.find_first_of(" \t");
    const std::string_view word = spec.substr(0, sp);
    spec = sp == std::string_view::npos ? std::string_view{} : trim_space(spec.substr(sp));
    if (word == "greedy") {
      f.temperature = 0.0f;
      stages_given = true;
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
      f.order = v.value();
      stages_given = true;
    } else if (key == "label") {
      s.label = std::string(val);
    } else if (key == "top-k" || key == "last-n") {
      auto v = parse_integer(key, val);
      if (!v.ok()) return v.error();
      if (v.value() < -1 || v.value() > 1000000000) {
        return make_error("sampler spec: '" + std::string(key) + "' out of range: " + std::string(val));
      }
      (key == "top-k" ? f.top_k : f.penalty_last_n) = static_cast<int>(v.value());
      stages_given = true;
    } else {
      auto v = parse_number(key, val);
      if (!v.ok()) return v.error();
      const float x = static_cast<float>(v.value());
      if (key == "temp" || key == "temperature" || key == "T")
        f.temperature = x;
      else if (key == "top-p")
        f.top_p = x;
      else if (key == "min-p")
        f.min_p = x;
      else if (key == "rep" || key == "repetition")
        f.repetition_penalty = x;
      else if (key == "freq" || key == "frequency")
        f.frequency_penalty = x;
      else if (key == "presence" || key == "pres")
        f.presence_penalty = x;
      else {
        return make_error("sampler spec: unknown key '" + std::string(key) +
                          "' (known: greedy temp top-k top-p min-p rep freq presence last-n seed "
                          "order label)");
      }
      stages_given = true;
    }
  }
  if (stages_given) s.chain = chain_of(f);
  return s;
}

Result<std::vector<SamplerSettings>> parse_lane_specs(std::string_view specs,
                                                      const SamplerSettings& base) {
  std::vector<SamplerSettings> out;
  while (true) {
    const size_t semi = specs.find(';');
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
