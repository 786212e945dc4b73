// The descriptors of the five original stages (penalties, temperature, top-k, top-p, min-p:
// names, parameters, validation, clamping, record names) and the functions stage.h derives from
// the Stage variant. Their maths over the vocabulary is in stages.cpp.
#include "sampling/stage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace ts {

namespace {

std::string value_text(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// The descriptors' parameter tables (stage_param.h).
constexpr Param<Penalties> kPenaltiesParams[] = {
    {.field = "repeat", .spec = "rep|repetition", .label = "repetition", .off = 1, .lo = 0.5,
     .hi = 2, .f = &Penalties::repeat, .help = "divides a seen token's positive logit"},
    {.field = "frequency", .spec = "freq|frequency", .label = "frequency", .off = 0, .lo = -2,
     .hi = 2, .f = &Penalties::frequency, .help = "minus this per occurrence"},
    {.field = "presence", .spec = "presence|pres", .label = "presence", .off = 0, .lo = -2,
     .hi = 2, .f = &Penalties::presence, .help = "minus this once for a seen token"},
    {.field = "last_n", .spec = "last-n", .label = "last n tokens", .off = 64, .lo = 0,
     .hi = 512, .i = &Penalties::last_n, .help = "how many previous tokens are looked at"},
};
constexpr Param<Temperature> kTemperatureParams[] = {
    {.field = "t", .spec = "temp|temperature|T", .label = "temperature", .off = 1, .lo = 0,
     .hi = 2, .f = &Temperature::t, .help = "0 = greedy (always the most probable token)"},
};
constexpr Param<TopK> kTopKParams[] = {
    {.field = "k", .spec = "top-k", .label = "top-k", .off = 0, .lo = 0, .hi = 100,
     .i = &TopK::k, .help = "keep the k most probable tokens (0 = off)"},
};
constexpr Param<TopP> kTopPParams[] = {
    {.field = "p", .spec = "top-p", .label = "top-p", .off = 1, .lo = 0.01, .hi = 1,
     .f = &TopP::p, .help = "nucleus: smallest set with this probability (1 = off)"},
};
constexpr Param<MinP> kMinPParams[] = {
    {.field = "p", .spec = "min-p", .label = "min-p", .off = 0, .lo = 0, .hi = 1, .f = &MinP::p,
     .help = "drop tokens below min-p x the top probability (0 = off)"},
};

}  // namespace

Error stage_range_error(const char* field, const char* allowed, double got) {
  return make_error(std::string("sampler: ") + field + " must be " + allowed + ", got " +
                    value_text(got));
}

const char* Penalties::name() { return "penalties"; }
const char* Temperature::name() { return "temperature"; }
const char* TopK::name() { return "top-k"; }
const char* TopP::name() { return "top-p"; }
const char* MinP::name() { return "min-p"; }
std::span<const Param<Penalties>> Penalties::params() { return kPenaltiesParams; }
std::span<const Param<Temperature>> Temperature::params() { return kTemperatureParams; }
std::span<const Param<TopK>> TopK::params() { return kTopKParams; }
std::span<const Param<TopP>> TopP::params() { return kTopPParams; }
std::span<const Param<MinP>> MinP::params() { return kMinPParams; }

bool Penalties::off() const {
  return last_n <= 0 || (repeat == 1.0f && frequency == 0.0f && presence == 0.0f);
}
bool Temperature::off() const { return false; }
bool TopK::off() const { return k <= 0; }
bool TopP::off() const { return !(p < 1.0f); }  // NaN too (clamped to 1)
bool MinP::off() const { return !(p > 0.0f); }  // NaN too (clamped to 0)

Status Penalties::check() const {
  if (!std::isfinite(repeat) || repeat <= 0)
    return stage_range_error("repetition_penalty", "a finite number > 0 (1 = off)", repeat);
  if (!std::isfinite(frequency))
    return stage_range_error("frequency_penalty", "a finite number (0 = off)", frequency);
  if (!std::isfinite(presence))
    return stage_range_error("presence_penalty", "a finite number (0 = off)", presence);
  if (last_n < 0) return stage_range_error("penalty_last_n", "an integer >= 0 (0 = off)", last_n);
  return ok_status();
}
Status Temperature::check() const {
  if (!std::isfinite(t) || t < 0)
    return stage_range_error("temperature", "a finite number >= 0 (0 = greedy)", t);
  return ok_status();
}
Status TopK::check() const {
  if (k < 0) return stage_range_error("top_k", "an integer >= 0 (0 = off)", k);
  return ok_status();
}
Status TopP::check() const {
  if (!(p > 0 && p <= 1)) return stage_range_error("top_p", "in (0, 1] (1 = off)", p);  // and NaN
  return ok_status();
}
Status MinP::check() const {
  if (!(p >= 0 && p <= 1)) return stage_range_error("min_p", "in [0, 1] (0 = off)", p);
  return ok_status();
}

Penalties Penalties::clamped() const {
  Penalties s = *this;
  if (!std::isfinite(s.repeat) || s.repeat <= 0) s.repeat = 1;
  if (!std::isfinite(s.frequency)) s.frequency = 0;
  if (!std::isfinite(s.presence)) s.presence = 0;
  s.last_n = std::max(s.last_n, 0);
  return s;
}
Temperature Temperature::clamped() const {
  Temperature s = *this;
  if (std::isnan(s.t) || s.t < 0) s.t = 0;
  s.t = std::min(s.t, std::numeric_limits<float>::max());
  return s;
}
TopK TopK::clamped() const { return TopK{std::max(k, 0)}; }
TopP TopP::clamped() const { return TopP{std::isnan(p) || p > 1 ? 1.0f : p}; }
MinP MinP::clamped() const {
  MinP s = *this;
  if (std::isnan(s.p) || s.p < 0) s.p = 0;
  s.p = std::min(s.p, 1.0f);
  return s;
}

std::string Penalties::record() const {
  if (off()) return std::string(name()) + " off";
  return std::string(name()) + " rep " + format_param(repeat) + " freq " +
         format_param(frequency) + " pres " + format_param(presence) + " last " +
         std::to_string(last_n);
}
std::string Temperature::record() const {
  return std::string(name()) + (t > 0 ? " " + format_param(t) : std::string(" 0 (greedy)"));
}
std::string TopK::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + std::to_string(k));
}
std::string TopP::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + format_param(p));
}
std::string MinP::record() const {
  return std::string(name()) + (off() ? std::string(" off") : " " + format_param(p));
}

const char* stage_name(StageKind k) {
  const char* out = "?";
  int i = 0;
  for_each_stage_type([&]<class S>() {
    if (i++ == static_cast<int>(k)) out = S::name();
  });
  return out;
}

Result<StageKind> parse_stage_kind(std::string_view name) {
  std::string allowed;
  for (int i = 0; i < kStageCount; ++i) {
    const char* n = stage_name(static_cast<StageKind>(i));
    if (name == n) return static_cast<StageKind>(i);
    allowed += (i ? ", " : "") + std::string(n);
  }
  return make_error("sampler: unknown stage '" + std::string(name) + "' (allowed: " + allowed +
                    ")");
}

StageKind kind_of(const Stage& s) { return static_cast<StageKind>(s.index()); }

Stage default_stage(StageKind k) {
  Stage out = Temperature{};
  int i = 0;
  for_each_stage_type([&]<class S>() {
    if (i++ == static_cast<int>(k)) out = S{};
  });
  return out;
}

size_t stage_insert_at(const std::vector<Stage>& chain, StageKind k) {
  if (k == StageKind::Temperature) return chain.size();
  if (k == StageKind::OneOf || k == StageKind::Regex) return 0;
  for (size_t i = chain.size(); i-- > 0;)
    if (kind_of(chain[i]) == StageKind::Temperature) return i;
  return chain.size();
}

std::vector<Stage> default_chain() { return {Penalties{}, TopK{}, TopP{}, MinP{}, Temperature{}}; }

bool is_off(const Stage& s) {
  return std::visit([](const auto& v) { return v.off(); }, s);
}
Status validate(const Stage& s) {
  return std::visit([](const auto& v) { return v.check(); }, s);
}
Stage clamp(const Stage& s) {
  return std::visit([](const auto& v) { return Stage(v.clamped()); }, s);
}
std::string record_name(const Stage& s) {
  return std::visit([](const auto& v) { return v.record(); }, s);
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
