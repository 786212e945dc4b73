// Timeline bookkeeping: adding nodes, moving the current path, listing branches.
#include "session/timeline.h"

#include <algorithm>

namespace ts {

const Step* Timeline::at(int step_index) const {
  if (step_index < 0 || step_index >= path_length()) return nullptr;
  return &nodes_[path_[step_index]];
}

int Timeline::add(Step s, int parent) {
  const int id = size();
  s.parent = parent;
  s.children.clear();
  nodes_.push_back(std::move(s));
  if (parent < 0) {
    roots_.push_back(id);
  } else {
    nodes_[parent].children.push_back(id);
  }
  return id;
}

void Timeline::push(int node_id) { path_.push_back(node_id); }

void Timeline::cut_path(int n) {
  if (n < path_length()) path_.resize(std::max(n, 0));
}

int Timeline::switch_to(int node_id) {
  std::vector<int> up;
  for (int id = node_id; id >= 0; id = nodes_[id].parent) up.push_back(id);
  path_.assign(up.rbegin(), up.rend());
  const int index = path_length() - 1;
  for (int id = node_id; !nodes_[id].children.empty();) {
    id = nodes_[id].children.back();
    path_.push_back(id);
  }
  return index;
}

int Timeline::find_child(int parent, int token, const Ablation& a) const {
  for (int id : children(parent)) {
    if (nodes_[id].token == token && nodes_[id].ablation == a) return id;
  }
  return -1;
}

const std::vector<int>& Timeline::children(int parent) const {
  return parent < 0 ? roots_ : nodes_[parent].children;
}

int Timeline::common_prefix(int node_id) const {
  std::vector<int> up;
  for (int id = node_id; id >= 0; id = nodes_[id].parent) up.push_back(id);
  std::reverse(up.begin(), up.end());
  int n = 0;
  while (n < path_length() && n < static_cast<int>(up.size()) && path_[n] == up[n]) ++n;
  return n;
}

std::vector<BranchInfo> Timeline::branches() const {
  std::vector<BranchInfo> out;
  const int leaf_on_path = path_.empty() ? -1 : path_.back();
  for (int id = 0; id < size(); ++id) {
    if (!nodes_[id].children.empty()) continue;
    BranchInfo b;
    b.leaf = id;
    b.length = nodes_[id].index + 1;
    b.current = id == leaf_on_path;
    // Walk up while this node is the first child (or the first root): the branch forked where
    // a node is a later sibling.
    int fork = id;
    for (int n = id; n >= 0; n = nodes_[n].parent) {
      const int p = nodes_[n].parent;
      const std::vector<int>& sibs = p < 0 ? roots_ : nodes_[p].children;
      if (!sibs.empty() && sibs.front() != n) {
        fork = n;
        break;
      }
      fork = n;
    }
    b.fork_node = fork;
    b.fork_step = nodes_[fork].index;
    b.fork_token = nodes_[fork].token;
    b.forced = nodes_[fork].forced;
    out.push_back(b);
  }
  return out;
}

void Timeline::clear() {
  nodes_.clear();
  roots_.clear();
  path_.clear();
}

}  // namespace ts
