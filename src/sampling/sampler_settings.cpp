// SamplerSettings helpers: greedy, validation of each stage of the chain, the one-line
// description shown on lanes. Stage values are in stage.cpp; no sampling maths here
// (stages.cpp) and no drawing (sampler.cpp).
#include <cstdio>
#include <string>
#include <type_traits>

#include "sampling/flat_settings.h"
#include "sampling/sampler.h"

namespace ts {

namespace {
std::string short_num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// A newer stage as its spec words ("xtc-p=0.5 xtc-threshold=0.1"): the spec parser reads it back.
std::string describe_params(const Stage& st) {
  return std::visit(
      [](const auto& v) {
        using S = std::decay_t<decltype(v)>;
        std::string out;
        for (const Param<S>& p : S::params()) {
          const std::string value = p.type() == ParamType::Text ? p.get_text(v)
                                    : p.type() == ParamType::Int ? std::to_string(v.*p.i)
                                                                 : short_num(p.get(v));
          out += (out.empty() ? "" : " ") + std::string(spec_key_first(p.spec)) + "=" + value;
        }
        return out;
      },
      st);
}

// "greedy", "T=0.8", "top-k=40", "rep=1.1 last-n=64"; "" for a stage that is off.
std::string describe_stage(const Stage& st) {
  if (const auto* t = std::get_if<Temperature>(&st))
    return t->t == 0.0f ? "greedy" : "T=" + short_num(t->t);
  if (is_off(st)) return "";
  if (const auto* k = std::get_if<TopK>(&st)) return "top-k=" + std::to_string(k->k);
  if (const auto* p = std::get_if<TopP>(&st)) return "top-p=" + short_num(p->p);
  if (const auto* m = std::get_if<MinP>(&st)) return "min-p=" + short_num(m->p);
  if (static_cast<int>(st.index()) >= kFlatStageCount) return describe_params(st);
  const Penalties& pen = std::get<Penalties>(st);
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
  if (pen.repeat != 1) add("rep=" + short_num(pen.repeat));
  if (pen.frequency != 0) add("freq=" + short_num(pen.frequency));
  if (pen.presence != 0) add("pres=" + short_num(pen.presence));
  add("last-n=" + std::to_string(pen.last_n));
  return out;
}
}  // namespace

bool greedy(const SamplerSettings& s) {
  for (const Stage& st : s.chain) {
    if (const auto* t = std::get_if<Temperature>(&st); t && t->t == 0.0f) return true;
  }
  return false;
}

Status validate(const SamplerSettings& s) {
  for (size_t i = 0; i < s.chain.size(); ++i) {
    const Status st = validate(s.chain[i]);
    if (st.ok()) continue;
    size_t same_kind = 0;
    for (const Stage& other : s.chain) same_kind += other.index() == s.chain[i].index();
    if (same_kind < 2) return st;
    return make_error(st.error().message + " (stage " + std::to_string(i + 1) + " of the chain)");
  }
  return ok_status();
}

std::string describe(const SamplerSettings& s) {
  std::string out;
  auto add = [&](const std::string& part) {
    if (!part.empty()) out += (out.empty() ? "" : " ") + part;
  };
  const bool is_greedy = greedy(s);
  if (flat_expressible(s.chain)) {  // as before stages carried their values: a fixed layout
    const FlatSettings f = flatten(s.chain);
    add(describe_stage(Temperature{f.temperature}));
    add(describe_stage(TopK{f.top_k}));
    add(describe_stage(TopP{f.top_p}));
    add(describe_stage(MinP{f.min_p}));
    add(describe_stage(Penalties{f.repetition_penalty, f.frequency_penalty, f.presence_penalty,
                                 f.penalty_last_n}));
  } else {  // a stage repeats: each in chain order
    for (const Stage& st : s.chain) add(describe_stage(st));
  }
  if (!is_greedy) add("seed=" + std::to_string(s.seed));
  if (s.chain.size() != default_chain().size() ||
      !std::equal(s.chain.begin(), s.chain.end(), default_chain().begin(),
                  [](const Stage& a, const Stage& b) { return a.index() == b.index(); })) {
    std::string order = "order=";
    for (size_t i = 0; i < s.chain.size(); ++i) {
      order += (i ? ">" : "");
      order += stage_name(kind_of(s.chain[i]));
    }
    add(order);
  }
  return out;
}

}  // namespace ts
