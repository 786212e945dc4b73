// Branch tree layout (see branch_tree.h).
#include "app/panels/branch_tree.h"

#include <algorithm>
#include <utility>

namespace ts {

TreeLayout layout_branch_tree(const std::vector<TreeNodeIn>& nodes, float w, float h,
                              float margin, float label_w, float min_row_h, float max_row_h) {
  const int n = static_cast<int>(nodes.size());
  TreeLayout t;
  t.row.assign(n, -1);
  t.x.assign(n, 0);
  t.y.assign(n, 0);
  t.fork.assign(n, 0);
  t.branch_start.assign(n, 0);
  t.leaf.assign(n, 0);
  t.key.assign(n, 0);
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (int id = 0; id < n; ++id) {
    const int p = nodes[id].parent;
    if (p >= 0 && p < n) children[p].push_back(id);
    else roots.push_back(id);
    t.max_step = std::max(t.max_step, nodes[id].step);
  }
  // Depth-first, first child first: a first child continues its parent's row, a later one opens
  // the next free row, so branches never cross.
  std::vector<std::pair<int, int>> stack;  // (node, row or -1)
  for (int i = static_cast<int>(roots.size()) - 1; i >= 0; --i) stack.push_back({roots[i], -1});
  while (!stack.empty()) {
    const auto [id, r] = stack.back();
    stack.pop_back();
    t.row[id] = r >= 0 ? r : t.n_rows++;
    const std::vector<int>& ch = children[id];
    for (int i = static_cast<int>(ch.size()) - 1; i >= 0; --i)
      stack.push_back({ch[i], i == 0 ? t.row[id] : -1});
  }
  const float span = std::max(1.0f, w - 2 * margin - label_w);
  t.step_w = span / std::max(1, t.max_step);
  const float rows_span = std::max(0.0f, h - 2 * margin);
  t.row_h = t.n_rows > 1 ? std::clamp(rows_span / (t.n_rows - 1), min_row_h, max_row_h) : max_row_h;
  for (int id = 0; id < n; ++id) {
    t.x[id] = margin + nodes[id].step * t.step_w;
    t.y[id] = margin + t.row[id] * t.row_h;
    const std::vector<int>& ch = children[id];
    t.fork[id] = ch.size() >= 2;
    t.leaf[id] = ch.empty();
    for (size_t i = 1; i < ch.size(); ++i) t.branch_start[ch[i]] = 1;
  }
  for (int id = 0; id < n; ++id)
    t.key[id] = nodes[id].parent < 0 || t.fork[id] || t.branch_start[id] || nodes[id].forced ||
                t.leaf[id];
  return t;
}

int nearest_tree_node(const TreeLayout& t, float px, float py, float radius) {
  int best = -1;
  float best_d = 0;
  for (int id = 0; id < static_cast<int>(t.x.size()); ++id) {
    const float dx = t.x[id] - px, dy = t.y[id] - py;
    float d = dx * dx + dy * dy;
    if (d > radius * radius) continue;
    if (!t.key[id]) d += radius * radius * 0.25f;  // key nodes win a near tie
    if (best < 0 || d < best_d) best = id, best_d = d;
  }
  return best;
}

}  // namespace ts
