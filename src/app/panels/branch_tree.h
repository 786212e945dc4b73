// Layout of the Branches panel's tree, as pure functions of the timeline's shape: one row per
// branch (a first child continues its parent's row, a later child opens a row below), x by step
// index scaled so the whole tree fits the box, and which nodes are drawn as labelled nodes
// (the root, forks, the first node of each branch, forced tokens, leaves). No ImGui here.
#pragma once
#include <vector>

namespace ts {

struct TreeNodeIn {
  int parent = -1;  // -1: a root (a prefill)
  int step = 0;     // step index (0 = prefill)
  bool forced = false;
};

struct TreeLayout {
  std::vector<int> row;             // per node
  std::vector<float> x, y;          // node centre, relative to the box's top-left corner
  std::vector<char> fork;           // two or more children
  std::vector<char> branch_start;   // a child that is not its parent's first (a new row)
  std::vector<char> leaf;           // no children
  std::vector<char> key;            // drawn as a labelled node (root/fork/start/forced/leaf)
  int n_rows = 0;
  int max_step = 0;
  float step_w = 0;  // pixels per step
  float row_h = 0;   // pixels per row
};

// Places every node inside a box w x h: x from `margin` (step 0) to w - margin - label_w (the
// deepest step; label_w is kept free on the right for the leaves' labels), rows spaced by
// min(max_row_h, what fits), never less than min_row_h (then the tree is taller than the box).
TreeLayout layout_branch_tree(const std::vector<TreeNodeIn>& nodes, float w, float h,
                              float margin, float label_w, float min_row_h, float max_row_h);
// The node whose centre is nearest to (px, py) among those within `radius`, preferring key nodes
// (a click on a crowded line still lands on a node); -1 if none is that close.
int nearest_tree_node(const TreeLayout& t, float px, float py, float radius);

}  // namespace ts
