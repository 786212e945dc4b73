// The list of phases of one iteration ("step into"), with labels for the transport bar.
#include "session/phases.h"

namespace ts {

bool stage_is_off(const StageRecord& r) {
  return r.name.size() >= 4 && r.name.compare(r.name.size() - 4, 4, " off") == 0;
}

std::vector<PhaseItem> build_phases(int n_layers, const std::vector<StageRecord>& stages,
                                    const std::string& draw_label,
                                    const std::string& append_label) {
  std::vector<PhaseItem> out;
  out.push_back({PhaseKind::Embed, -1, -1, "embed tokens"});
  for (int l = 0; l < n_layers; ++l) {
    const std::string n = std::to_string(l);
    out.push_back({PhaseKind::Attention, l, -1, "layer " + n + " attention"});
    out.push_back({PhaseKind::Mlp, l, -1, "layer " + n + " MLP"});
  }
  out.push_back({PhaseKind::FinalNorm, -1, -1, "final norm"});
  out.push_back({PhaseKind::Logits, -1, -1, "logits"});
  for (int i = 0; i < static_cast<int>(stages.size()); ++i) {
    const std::string& name = stages[i].name;
    if (stage_is_off(stages[i])) continue;  // nothing to show: the press would change nothing
    out.push_back({PhaseKind::SamplerStage, -1, i,
                   name.empty() ? std::string(stage_name(stages[i].kind)) : name});
  }
  out.push_back({PhaseKind::Draw, -1, -1, draw_label});
  out.push_back({PhaseKind::Append, -1, -1, append_label});
  return out;
}

}  // namespace ts
