// SamplerSettings helpers: stage names, validation with field-naming messages, the one-line
// description shown on lanes. No sampling maths here (stages.cpp) and no drawing (sampler.cpp).
#include <cmath>
#include <cstdio>
#include <string>

#include "sampling/sampler.h"

namespace ts {

namespace {
constexpr StageKind kAllStages[] = {StageKind::Penalties, StageKind::Temperature, StageKind::TopK,
                                    StageKind::TopP, StageKind::MinP};

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

Error field_error(const char* field, const char* allowed, double got) {
  return make_error(std::string("sampler: ") + field + " must be " + allowed + ", got " + num(got));
}
}  // namespace

const char* stage_name(StageKind k) {
  switch (k) {
    case StageKind::Penalties: return "penalties";
    case StageKind::Temperature: return "temperature";
    case StageKind::TopK: return "top-k";
    case StageKind::TopP: return "top-p";
    case StageKind::MinP: return "min-p";
  }
  return "?";
}

Result<StageKind> parse_stage_kind(std::string_view name) {
  for (StageKind k : kAllStages) {
    if (name == stage_name(k)) return k;
  }
  return make_error("sampler: unknown stage '" + std::string(name) +
                    "' (allowed: penalties, temperature, top-k, top-p, min-p)");
}

Status validate(const SamplerSettings& s) {
  if (!std::isfinite(s.temperature) || s.temperature < 0)
    return field_error("temperature", "a finite number >= 0 (0 = greedy)", s.temperature);
  if (s.top_k < 0) return field_error("top_k", "an integer >= 0 (0 = off)", s.top_k);
  if (!(s.top_p > 0 && s.top_p <= 1))  // also rejects NaN
    return field_error("top_p", "in (0, 1] (1 = off)", s.top_p);
  if (!(s.min_p >= 0 && s.min_p <= 1))
    return field_error("min_p", "in [0, 1] (0 = off)", s.min_p);
  if (!std::isfinite(s.repetition_penalty) || s.repetition_penalty <= 0)
    return field_error("repetition_penalty", "a finite number > 0 (1 = off)",
                       s.repetition_penalty);
  if (!std::isfinite(s.frequency_penalty))
    return field_error("frequency_penalty", "a finite number (0 = off)", s.frequency_penalty);
  if (!std::isfinite(s.presence_penalty))
    return field_error("presence_penalty", "a finite number (0 = off)", s.presence_penalty);
  if (s.penalty_last_n < 0)
    return field_error("penalty_last_n", "an integer >= 0 (0 = off)", s.penalty_last_n);
  for (size_t i = 0; i < s.order.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (s.order[i] == s.order[j])
        return make_error(std::string("sampler: order lists stage '") + stage_name(s.order[i]) +
                          "' twice (each stage at most once)");
    }
  }
  return ok_status();
}

std::string describe(const SamplerSettings& s) {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
  if (s.greedy()) {
    add("greedy");
  } else {
    add("T=" + num(s.temperature));
  }
  if (s.top_k > 0) add("top-k=" + std::to_string(s.top_k));
  if (s.top_p < 1) add("top-p=" + num(s.top_p));
  if (s.min_p > 0) add("min-p=" + num(s.min_p));
  if (s.penalty_last_n > 0) {
    if (s.repetition_penalty != 1) add("rep=" + num(s.repetition_penalty));
    if (s.frequency_penalty != 0) add("freq=" + num(s.frequency_penalty));
    if (s.presence_penalty != 0) add("pres=" + num(s.presence_penalty));
    if (s.repetition_penalty != 1 || s.frequency_penalty != 0 || s.presence_penalty != 0)
      add("last-n=" + std::to_string(s.penalty_last_n));
  }
  if (!s.greedy()) add("seed=" + std::to_string(s.seed));
  if (s.order != SamplerSettings{}.order) {
    std::string order = "order=";
    for (size_t i = 0; i < s.order.size(); ++i) {
      order += (i ? ">" : "");
      order += stage_name(s.order[i]);
    }
    add(order);
  }
  return out;
}

}  // namespace ts
