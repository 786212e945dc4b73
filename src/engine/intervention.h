// Interventions on the decoder: one attention head, a whole attention block or an MLP switched
// off (scale 0) or scaled inside a forward pass. A head is scaled before the output projection
// (its share of Wo·att), a block or an MLP after it (bias included). Forward (ForwardOptions)
// and reference_forward both honour a set. Here: the values, their text form ("L0.H3",
// "L1.attn", "L1.mlp=0.5", comma-separated) and the factor a pass reads for each component.
// Which steps of a generation an intervention covers is the session's business, not this one.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "engine/config.h"

namespace ts {

enum class Component { Head, Attention, Mlp };

struct Intervention {
  Component what = Component::Head;
  int layer = 0;
  int head = 0;        // Head only (a query head; GQA's shared K/V are not touched)
  float scale = 0.0f;  // 0: switched off; any finite factor
  bool operator==(const Intervention&) const = default;
};

// "L0.H3", "L1.attn", "L1.mlp" (the component, without its scale).
std::string component_name(const Intervention& i);

struct InterventionSet {
  std::vector<Intervention> items;  // each component at most once (validate)

  bool empty() const { return items.empty(); }
  bool operator==(const InterventionSet&) const = default;
  // The factors a pass applies; 1 where nothing is set.
  float head_scale(int layer, int head) const;
  float attention_scale(int layer) const;
  float mlp_scale(int layer) const;
  bool touches_heads(int layer) const;  // some head of this layer has a factor other than 1
};

// "L0.H3,L1.mlp=0.5"; "none" for an empty set. parse_interventions reads it back.
std::string describe(const InterventionSet& s);
// The text form: components separated by commas, each "L<layer>.H<head>", "L<layer>.attn" or
// "L<layer>.mlp", optionally "=<factor>" (default 0: switched off); "none" or "" is the empty
// set. Checks the syntax and that no component repeats; the ranges are checked by validate.
Result<InterventionSet> parse_interventions(std::string_view text);
// Layers and heads inside the model, finite factors, no component twice; the message names the
// component ("L7.mlp: the model has 4 layers (L0..L3)").
Status validate(const InterventionSet& s, const ModelConfig& c);

}  // namespace ts
