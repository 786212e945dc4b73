// Timeline: one lane's tree of steps and the current path through it. Nodes are never removed
// while the timeline lives (a rewind only moves the cursor; a forced token adds a sibling), so
// node ids stay valid for the app. Pure bookkeeping: no forward passes, no KV cache here.
#pragma once
#include <vector>

#include "session/step.h"

namespace ts {

// One leaf-to-root branch, summarised for the branch panel.
struct BranchInfo {
  int leaf = -1;         // node id of the branch's last step
  int fork_node = -1;    // first node of this branch not shared with the branch it forked from
  int fork_step = 0;     // that node's step index (its token's position = prompt + fork_step)
  int fork_token = -1;   // the token chosen there
  bool forced = false;   // that token was forced
  int length = 0;        // steps from the root to the leaf
  bool current = false;  // the leaf is on the current path
};

class Timeline {
 public:
  int size() const { return static_cast<int>(nodes_.size()); }
  const Step& node(int id) const { return nodes_[id]; }
  Step& node(int id) { return nodes_[id]; }
  const std::vector<Step>& nodes() const { return nodes_; }

  // The current path: node ids of steps 0, 1, ..., path_length()-1.
  const std::vector<int>& path() const { return path_; }
  int path_length() const { return static_cast<int>(path_.size()); }
  const Step* at(int step_index) const;  // on the current path, nullptr outside it

  // Adds a node as the child of `parent` (-1: a new root) and returns its id. Does not touch
  // the path.
  int add(Step s, int parent);
  // Appends an existing child of the path's last node (or a root) to the path.
  void push(int node_id);
  // Keeps steps [0, n) of the path (the tree keeps the nodes).
  void cut_path(int n);
  // Makes the path root..node, then extends it down the most recently created children to a
  // leaf. Returns the step index of `node`.
  int switch_to(int node_id);
  // A child of `parent` (-1: a root) whose token is `token` and whose pass ran with `a`, or -1.
  int find_child(int parent, int token, const Ablation& a = {}) const;
  // The children of `parent` (-1: the roots), in creation order.
  const std::vector<int>& children(int parent) const;
  // First step index where the current path and root..node differ (their common prefix).
  int common_prefix(int node_id) const;
  // Every leaf's branch, in creation order of the leaves.
  std::vector<BranchInfo> branches() const;
  void clear();

 private:
  std::vector<Step> nodes_;
  std::vector<int> roots_;
  std::vector<int> path_;
};

}  // namespace ts
