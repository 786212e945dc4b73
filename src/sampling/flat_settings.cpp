// Conversions between a stage chain and the flat form of the settings (flat_settings.h).
#include "sampling/flat_settings.h"

#include <algorithm>

namespace ts {

FlatSettings flatten(const std::vector<Stage>& chain) {
  FlatSettings f;
  f.order.clear();
  for (const Stage& st : chain) {
    const StageKind k = kind_of(st);
    if (static_cast<int>(k) >= kFlatStageCount) continue;  // a stage the flat form lacks
    if (std::find(f.order.begin(), f.order.end(), k) != f.order.end()) continue;  // a repeat
    f.order.push_back(k);
    if (const auto* v = std::get_if<Penalties>(&st)) {
      f.repetition_penalty = v->repeat;
      f.frequency_penalty = v->frequency;
      f.presence_penalty = v->presence;
      f.penalty_last_n = v->last_n;
    } else if (const auto* t = std::get_if<Temperature>(&st)) {
      f.temperature = t->t;
    } else if (const auto* tk = std::get_if<TopK>(&st)) {
      f.top_k = tk->k;
    } else if (const auto* p = std::get_if<TopP>(&st)) {
      f.top_p = p->p;
    } else if (const auto* m = std::get_if<MinP>(&st)) {
      f.min_p = m->p;
    }
  }
  return f;
}

std::vector<Stage> chain_of(const FlatSettings& f) {
  std::vector<Stage> chain;
  bool has_temperature = false;
  for (StageKind k : f.order) {
    switch (k) {
      case StageKind::Penalties:
        chain.push_back(Penalties{f.repetition_penalty, f.frequency_penalty, f.presence_penalty,
                                  f.penalty_last_n});
        break;
      case StageKind::Temperature:
        chain.push_back(Temperature{f.temperature});
        has_temperature = true;
        break;
      case StageKind::TopK:
        chain.push_back(TopK{f.top_k});
        break;
      case StageKind::TopP:
        chain.push_back(TopP{f.top_p});
        break;
      case StageKind::MinP:
        chain.push_back(MinP{f.min_p});
        break;
      default:  // the newer stages have no flat form (flatten() never lists them)
        chain.push_back(default_stage(k));
        break;
    }
  }
  if (!has_temperature && f.temperature == 0.0f) chain.push_back(Temperature{0.0f});
  return chain;
}

bool flat_expressible(const std::vector<Stage>& chain) {
  for (size_t i = 0; i < chain.size(); ++i) {
    if (static_cast<int>(chain[i].index()) >= kFlatStageCount) return false;
    for (size_t j = 0; j < i; ++j) {
      if (chain[i].index() == chain[j].index()) return false;
    }
  }
  return true;
}

}  // namespace ts
