// The descriptor parts every sampler stage type provides: its parameters (Param: the key in a
// stage object of a file, the spec keys, the off value and the range the UI's slider covers,
// the member it lives in) and the member functions a stage type must have (StageType). The
// files, the spec parser, the CLI and the UI walk params(); the chain calls the members.
#pragma once
#include <concepts>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "base/error.h"
#include "sampling/chain_state.h"

namespace ts {

// "sampler: <field> must be <allowed>, got <got>": the message of every check().
Error stage_range_error(const char* field, const char* allowed, double got);
// "0.90" for 0.9, but "0.025" when two decimals would lose digits.
std::string format_param(double x);

enum class ParamType { Float, Int, Text };

template <class S>
struct Param {
  const char* field = "";  // key inside a stage object of a file: "k", "p", "threshold"
  const char* spec = "";   // spec keys, '|' between aliases: "temp|temperature|T"
  const char* label = "";  // the UI's slider label
  double off = 0;          // the value that leaves the stage off (or its default)
  double lo = 0, hi = 1;   // the UI slider's range (validation is the stage's check())
  float S::*f = nullptr;   // ParamType::Float
  int S::*i = nullptr;     // ParamType::Int
  std::string (*get_text)(const S&) = nullptr;              // ParamType::Text
  Status (*set_text)(S&, std::string_view) = nullptr;       // ParamType::Text
  const char* help = "";

  ParamType type() const { return f ? ParamType::Float : i ? ParamType::Int : ParamType::Text; }
  double get(const S& s) const { return f ? double(s.*f) : i ? double(s.*i) : 0.0; }
  void set(S& s, double v) const {
    if (f) s.*f = static_cast<float>(v);
    if (i) s.*i = static_cast<int>(v);
  }
};

// Everything the chain, the files and the UI need from a stage type: the compiler refuses a
// stage in the Stage variant (stage.h) that lacks one of these.
template <class S>
concept StageType = std::equality_comparable<S> && requires(const S& s, const StageContext& c,
                                                            ChainState& st) {
  { S::name() } -> std::same_as<const char*>;
  { S::params() } -> std::same_as<std::span<const Param<S>>>;
  { s.off() } -> std::same_as<bool>;         // leaves the logits as they are
  { s.check() } -> std::same_as<Status>;     // a field-naming message for a bad value
  { s.clamped() } -> std::same_as<S>;        // every parameter pulled into its range
  { s.record() } -> std::same_as<std::string>;  // the record's name: "top-p 0.90"
  { s.apply(c, st) } -> std::same_as<StageOutcome>;  // the reference maths
};

// The members a stage type declares (defined in its own .cpp).
#define TS_STAGE_DESCRIPTOR(S)                                    \
  static const char* name();                                      \
  static std::span<const Param<S>> params();                      \
  bool off() const;                                               \
  Status check() const;                                           \
  S clamped() const;                                              \
  std::string record() const;                                     \
  StageOutcome apply(const StageContext& ctx, ChainState& st) const; \
  bool operator==(const S&) const = default

// The parameters of a stage in a file's stage object (after its "kind"): numbers through
// io(key, value), text through io.bytes(key, text). S may be const (writers).
template <class Io, class S>
void stage_fields(Io& io, S& s) {
  using T = std::remove_const_t<S>;
  for (const Param<T>& p : T::params()) {
    if (p.f) {
      io(p.field, s.*p.f);
    } else if (p.i) {
      io(p.field, s.*p.i);
    } else {
      std::string text = p.get_text(s);
      io.bytes(p.field, text);
      if constexpr (!std::is_const_v<S>) {
        if (!p.set_text(s, text).ok()) s = T{};  // a damaged value: the stage's off values
      }
    }
  }
}

// True when key is one of the '|'-separated aliases in spec.
inline bool spec_key_matches(std::string_view spec, std::string_view key) {
  while (true) {
    const size_t bar = spec.find('|');
    if (spec.substr(0, bar) == key) return true;
    if (bar == std::string_view::npos) return false;
    spec.remove_prefix(bar + 1);
  }
}
// The first alias: "temp" for "temp|temperature|T".
inline std::string_view spec_key_first(std::string_view spec) { return spec.substr(0, spec.find('|')); }

}  // namespace ts
