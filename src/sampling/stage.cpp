// Stage values (stage.h): names, validation with field-naming messages, clamping, record names.
// No maths over the vocabulary here (stages.cpp).
#include "sampling/stage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace ts {

namespace {

constexpr StageKind kAllStages[] = {StageKind::Penalties, StageKind::Temperature, StageKind::TopK,
                                    StageKind::TopP, StageKind::MinP};

std::string value_text(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

Error range_error(const char* field, const char* allowed, double got) {
  return make_error(std::string("sampler: ") + field + " must be " + allowed + ", got " +
                    value_text(got));
}

// One overload per stage type, visited by the functions below.
bool stage_off(const Penalties& s) {
  return s.last_n <= 0 || (s.repeat == 1.0f && s.frequency == 0.0f && s.presence == 0.0f);
}
bool stage_off(const Temperature&) { return false; }
bool stage_off(const TopK& s) { return s.k <= 0; }
bool stage_off(const TopP& s) { return !(s.p < 1.0f); }  // NaN too (clamped to 1)
bool stage_off(const MinP& s) { return !(s.p > 0.0f); }  // NaN too (clamped to 0)

Status stage_check(const Penalties& s) {
  if (!std::isfinite(s.repeat) || s.repeat <= 0)
    return range_error("repetition_penalty", "a finite number > 0 (1 = off)", s.repeat);
  if (!std::isfinite(s.frequency))
    return range_error("frequency_penalty", "a finite number (0 = off)", s.frequency);
  if (!std::isfinite(s.presence))
    return range_error("presence_penalty", "a finite number (0 = off)", s.presence);
  if (s.last_n < 0) return range_error("penalty_last_n", "an integer >= 0 (0 = off)", s.last_n);
  return ok_status();
}
Status stage_check(const Temperature& s) {
  if (!std::isfinite(s.t) || s.t < 0)
    return range_error("temperature", "a finite number >= 0 (0 = greedy)", s.t);
  return ok_status();
}
Status stage_check(const TopK& s) {
  if (s.k < 0) return range_error("top_k", "an integer >= 0 (0 = off)", s.k);
  return ok_status();
}
Status stage_check(const TopP& s) {
  if (!(s.p > 0 && s.p <= 1)) return range_error("top_p", "in (0, 1] (1 = off)", s.p);  // and NaN
  return ok_status();
}
Status stage_check(const MinP& s) {
  if (!(s.p >= 0 && s.p <= 1)) return range_error("min_p", "in [0, 1] (0 = off)", s.p);
  return ok_status();
}

Stage stage_clamped(Penalties s) {
  if (!std::isfinite(s.repeat) || s.repeat <= 0) s.repeat = 1;
  if (!std::isfinite(s.frequency)) s.frequency = 0;
  if (!std::isfinite(s.presence)) s.presence = 0;
  s.last_n = std::max(s.last_n, 0);
  return s;
}
Stage stage_clamped(Temperature s) {
  if (std::isnan(s.t) || s.t < 0) s.t = 0;
  s.t = std::min(s.t, std::numeric_limits<float>::max());
  return s;
}
Stage stage_clamped(TopK s) {
  s.k = std::max(s.k, 0);
  return s;
}
Stage stage_clamped(TopP s) {
  if (std::isnan(s.p) || s.p > 1) s.p = 1;
  return s;
}
Stage stage_clamped(MinP s) {
  if (std::isnan(s.p) || s.p < 0) s.p = 0;
  s.p = std::min(s.p, 1.0f);
  return s;
}

std::string stage_record_name(const Penalties& s) {
  if (stage_off(s)) return "penalties off";
  return "penalties rep " + format_param(s.repeat) + " freq " + format_param(s.frequency) +
         " pres " + format_param(s.presence) + " last " + std::to_string(s.last_n);
}
std::string stage_record_name(const Temperature& s) {
  return s.t > 0 ? "temperature " + format_param(s.t) : "temperature 0 (greedy)";
}
std::string stage_record_name(const TopK& s) {
  return stage_off(s) ? "top-k off" : "top-k " + std::to_string(s.k);
}
std::string stage_record_name(const TopP& s) {
  return stage_off(s) ? "top-p off" : "top-p " + format_param(s.p);
}
std::string stage_record_name(const MinP& s) {
  return stage_off(s) ? "min-p off" : "min-p " + format_param(s.p);
}

}  // namespace

const char* stage_name(StageKind k) {
  switch (k) {
    case StageKind::Penalties:
      return "penalties";
    case StageKind::Temperature:
      return "temperature";
    case StageKind::TopK:
      return "top-k";
    case StageKind::TopP:
      return "top-p";
    case StageKind::MinP:
      return "min-p";
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

StageKind kind_of(const Stage& s) { return static_cast<StageKind>(s.index()); }

Stage default_stage(StageKind k) {
  switch (k) {
    case StageKind::Penalties:
      return Penalties{};
    case StageKind::Temperature:
      return Temperature{};
    case StageKind::TopK:
      return TopK{};
    case StageKind::TopP:
      return TopP{};
    case StageKind::MinP:
      return MinP{};
  }
  return Temperature{};
}

std::vector<Stage> default_chain() { return {Penalties{}, TopK{}, TopP{}, MinP{}, Temperature{}}; }

bool is_off(const Stage& s) {
  return std::visit([](const auto& v) { return stage_off(v); }, s);
}
Status validate(const Stage& s) {
  return std::visit([](const auto& v) { return stage_check(v); }, s);
}
Stage clamp(const Stage& s) {
  return std::visit([](const auto& v) { return stage_clamped(v); }, s);
}
std::string record_name(const Stage& s) {
  return std::visit([](const auto& v) { return stage_record_name(v); }, s);
}

std::string format_param(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  // Relative 1e-6: the settings are floats, so 0.7f (0.69999998...) still prints as "0.70".
  if (std::abs(std::strtod(buf, nullptr) - x) > 1e-6 * std::max(1.0, std::abs(x))) {
    std::snprintf(buf, sizeof buf, "%.6g", x);
  }
  return buf;
}

}  // namespace ts
