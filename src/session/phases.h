// "Step into": the phases of one iteration in the order the computation runs them: embed, for
// each layer attention then MLP, final norm, logits, each sampler stage that is on, the draw, the
// append.
// The step is already computed when its phases are shown; the phase cursor only says how much of
// it the app and the lessons reveal. This file builds the list; session.h moves the cursor.
#pragma once
#include <string>
#include <vector>

#include "sampling/sampler.h"

namespace ts {

enum class PhaseKind { Embed, Attention, Mlp, FinalNorm, Logits, SamplerStage, Draw, Append };

struct PhaseItem {
  PhaseKind kind = PhaseKind::Embed;
  int layer = -1;  // Attention / Mlp: the block index
  int stage = -1;  // SamplerStage: index into the chain (SamplingRecord::stages)
  std::string label;  // "layer 2 attention", "top-p 0.90", "draw u=0.314", "append ' the'"
};

// A stage the settings switch off ("top-k off": its record's name ends in " off").
bool stage_is_off(const StageRecord& r);
// The phases of one iteration of a model with n_layers blocks and the given sampler chain;
// stages that are off are skipped (every press of "step into" shows something new), the others
// keep their chain index in PhaseItem::stage.
std::vector<PhaseItem> build_phases(int n_layers, const std::vector<StageRecord>& stages,
                                    const std::string& draw_label,
                                    const std::string& append_label);

}  // namespace ts
