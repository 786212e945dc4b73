// An intervention branch beside the step it replaced (intervention_compare.h).
#include "session/intervention_compare.h"

#include <algorithm>
#include <cmath>

#include "session/session_access.h"

namespace ts {

namespace {

Ablation handed_down(const Timeline& t, int node) {
  const int parent = t.node(node).parent;
  return parent >= 0 ? inherited_ablation(t.node(parent)) : Ablation{};
}

// log-softmax of a logit vector, in double.
std::vector<double> log_softmax(const std::vector<float>& logits) {
  double max = -INFINITY;
  for (float v : logits) max = std::max(max, static_cast<double>(v));
  double total = 0;
  for (float v : logits) total += std::exp(static_cast<double>(v) - max);
  const double lse = max + std::log(total);
  std::vector<double> out(logits.size());
  for (size_t i = 0; i < logits.size(); ++i) out[i] = logits[i] - lse;
  return out;
}

// The tokens from `node` down: along the current path when it passes there, else the newest
// children (the continuation switch_branch would show).
std::vector<int> continuation(const Timeline& t, int node) {
  std::vector<int> out;
  const std::vector<int>& path = t.path();
  const auto on_path = std::find(path.begin(), path.end(), node);
  if (on_path != path.end()) {
    for (auto it = on_path; it != path.end(); ++it) out.push_back(t.node(*it).token);
    return out;
  }
  for (int id = node;;) {
    out.push_back(t.node(id).token);
    if (t.node(id).children.empty()) break;
    id = t.node(id).children.back();
  }
  return out;
}

}  // namespace

bool is_intervention_fork(const Timeline& t, int node) {
  if (node < 0 || node >= t.size()) return false;
  return !(t.node(node).ablation == handed_down(t, node));
}

Result<InterventionComparison> compare_intervention(const Session& s, int lane, int node) {
  if (lane < 0 || lane >= lane_count(s)) return make_error("no lane " + std::to_string(lane));
  const Timeline& t = timeline(s, lane);
  if (node < 0 || node >= t.size()) return make_error("no node " + std::to_string(node));
  if (!is_intervention_fork(t, node)) {
    return make_error("node " + std::to_string(node) + " does not start an intervention branch");
  }
  const Ablation without = handed_down(t, node);
  int sibling = -1;  // the first such sibling the sampler chose, else a forced one
  for (int id : t.children(t.node(node).parent)) {
    if (id == node || !(t.node(id).ablation == without)) continue;
    if (sibling < 0 || (t.node(sibling).forced && !t.node(id).forced)) sibling = id;
  }
  if (sibling < 0) {
    return make_error("step " + std::to_string(t.node(node).index) +
                      " was not computed without the intervention: nothing to compare with");
  }
  const Step& a = t.node(sibling);
  const Step& b = t.node(node);
  if (!a.forward || !b.forward || a.forward->logits.empty() ||
      a.forward->logits.size() != b.forward->logits.size()) {
    return make_error("the two steps hold no comparable logits");
  }
  InterventionComparison r;
  r.lane = lane;
  r.fork_step = b.index;
  r.parent_node = sibling;
  r.branch_node = node;
  r.ablation = b.ablation;
  const std::vector<double> lp = log_softmax(a.forward->logits);
  const std::vector<double> lq = log_softmax(b.forward->logits);
  double kl = 0;
  for (size_t i = 0; i < lp.size(); ++i) {
    const double p = std::exp(lp[i]);
    r.parent_p.push_back(static_cast<float>(p));
    r.branch_p.push_back(static_cast<float>(std::exp(lq[i])));
    if (p > 0) kl += p * (lp[i] - lq[i]);
  }
  r.kl_bits = std::max(0.0, kl / std::log(2.0));
  r.parent_tokens = continuation(t, sibling);
  r.branch_tokens = continuation(t, node);
  const size_t n = std::min(r.parent_tokens.size(), r.branch_tokens.size());
  for (size_t k = 0; k < n; ++k) {
    if (r.parent_tokens[k] != r.branch_tokens[k]) {
      r.texts_part = r.fork_step + static_cast<int>(k);
      break;
    }
  }
  return r;
}

}  // namespace ts
