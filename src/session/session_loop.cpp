// The generation loop of a Session around the step itself (session_step.cpp): advancing the
// lanes in lock-step, moving the cursor (step, seek, run_to), forcing a token, running a step
// again with an intervention, switching branches, and keeping each lane's KV cache equal to its
// path.
#include <algorithm>

#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {


int Session::kv_pos(int step_index) const {
  return step_index < 0 ? 0 : static_cast<int>(prompt_.tokens.size()) + step_index;
}

bool Session::lane_done(int lane) const {
  const Timeline& t = lanes_[lane].timeline;
  return t.path_length() > 0 && t.at(t.path_length() - 1)->stop != StopReason::None;
}

void Session::sync_kv(int lane, int length) {
  Lane& L = lanes_[lane];
  if (L.kv.capacity() == 0) return;
  const int n_prompt = static_cast<int>(prompt_.tokens.size());
  if (length > L.kv_valid) {
    for (int p = L.kv_valid; p < length; ++p) {
      const int k = p < n_prompt ? 0 : p - n_prompt + 1;
      L.timeline.at(k)->kv_rows->restore_row(L.kv, p);
    }
    L.kv_valid = length;
  }
  if (L.kv.length() > length) {
    L.kv.truncate(length);
  } else {
    L.kv.advance(length - L.kv.length());
  }
}

void Session::sync_all_kv() {
  if (!loaded_) return;
  for (int i = 0; i < lane_count(*this); ++i) sync_kv(i, kv_pos(lane_cursor(*this, i)));
}

const Session::PlannedStep* Session::planned_at(const StepPlan* plan, int i, int k) {
  if (!plan || i >= static_cast<int>(plan->size()) || k >= static_cast<int>((*plan)[i].size())) {
    return nullptr;
  }
  return &(*plan)[i][k];
}

Status Session::catch_up(const StepPlan* plan) {
  for (int i = 0; i < lane_count(*this); ++i) {
    while (lanes_[i].timeline.path_length() <= cursor_ && !lane_done(i)) {
      if (progress_->cancel.load()) {
        cursor_ = std::min(cursor_, lanes_[i].timeline.path_length() - 1);
        sync_all_kv();
        return make_error("cancelled");
      }
      const int k = lanes_[i].timeline.path_length();
      TS_TRY(compute_step(i, k, planned_at(plan, i, k)));
    }
  }
  sync_all_kv();
  return ok_status();
}

Status Session::advance(const StepPlan* plan) {
  TS_TRY(require_ready());
  TS_TRY(catch_up(plan));
  if (all_stopped(*this)) {
    std::string msg = "nothing to step: every lane has stopped (";
    for (int i = 0; i < lane_count(*this); ++i) {
      msg += (i ? "; " : "") + lanes_[i].settings.label + ": " +
             stop_reason_name(stop_reason(*this, i));
    }
    return make_error(msg + ")");
  }
  const int next = cursor_ + 1;
  for (int i = 0; i < lane_count(*this); ++i) {
    const Timeline& t = lanes_[i].timeline;
    if (t.path_length() > next || lane_done(i)) continue;  // recorded, or stopped
    TS_TRY(compute_step(i, next, planned_at(plan, i, next)));
  }
  cursor_ = next;
  phase_cursor_ = -1;
  sync_all_kv();
  return ok_status();
}

Status Session::step() {
  progress_->cancel.store(false);
  progress_->running.store(true);
  progress_->done.store(0);
  progress_->total.store(1);
  TS_TRY(finish(advance(nullptr)));
  progress_->done.store(1);
  return finish(ok_status());
}

Status Session::seek(int step_index) {
  if (!loaded_) return finish(make_error("no model loaded"));
  const int last = max_path_length(*this) - 1;
  if (step_index < -1 || step_index > last) {
    return finish(make_error("step " + std::to_string(step_index) +
                             " is outside the timeline (-1 .. " + std::to_string(last) + ")"));
  }
  progress_->cancel.store(false);
  progress_->running.store(true);
  cursor_ = step_index;
  phase_cursor_ = -1;
  return finish(catch_up(nullptr));  // a lane forked short of the new cursor is computed
}

Status Session::run_to(int step_index) {
  if (step_index < -1) return finish(make_error("step index must be >= -1"));
  if (step_index < max_path_length(*this)) return seek(step_index);
  progress_->cancel.store(false);
  progress_->running.store(true);
  if (max_path_length(*this) > 0) TS_TRY(seek(max_path_length(*this) - 1));
  const int start = cursor_;
  progress_->done.store(0);
  progress_->total.store(step_index - start);
  while (cursor_ < step_index && !all_stopped(*this)) {
    if (progress_->cancel.load()) return finish(make_error("cancelled"));
    TS_TRY(finish(advance(nullptr)));
    progress_->done.store(cursor_ - start);
  }
  return finish(ok_status());
}

Status Session::force(int token_id, int lane) {
  if (lane < 0 || lane >= lane_count(*this)) {
    return finish(make_error("no lane " + std::to_string(lane)));
  }
  TS_TRY(finish(require_ready()));
  Lane& L = lanes_[lane];
  Timeline& t = L.timeline;
  if (cursor_ < 0) return finish(make_error("nothing to replace: step the prefill first"));
  if (t.path_length() <= cursor_) {
    return finish(make_error("lane " + L.settings.label + " has no step " +
                             std::to_string(cursor_) + " (it stopped at step " +
                             std::to_string(t.path_length() - 1) + ")"));
  }
  if (token_id < 0 || token_id >= config(*this).vocab_size) {
    return finish(make_error("token id " + std::to_string(token_id) + " is outside 0.." +
                             std::to_string(config(*this).vocab_size - 1)));
  }
  const int k = cursor_;
  const int node_id = t.path()[k];
  if (t.node(node_id).token == token_id) return finish(ok_status());
  const int parent = t.node(node_id).parent;
  const Ablation ablation = t.node(node_id).ablation;  // the pass's, which the new choice keeps
  if (const int existing = t.find_child(parent, token_id, ablation); existing >= 0) {
    return switch_branch(existing, lane);
  }
  Step s;
  s.index = k;
  s.forward = t.node(node_id).forward;
  s.kv_rows = t.node(node_id).kv_rows;
  s.ablation = ablation;
  if (s.forward->logits.empty()) {
    return finish(make_error("internal: the step's record holds no logits"));
  }
  choose(lane, s, parent, s.forward->logits, token_id);
  t.cut_path(k);
  const int id = t.add(std::move(s), parent);
  t.push(id);
  // Rows up to this step's own pass are shared with the old branch; later ones are not.
  L.kv_valid = std::min(L.kv_valid, kv_pos(k));
  phase_cursor_ = -1;
  sync_all_kv();
  return finish(ok_status());
}

Status Session::ablate(const Ablation& a, int lane) {
  if (lane < 0 || lane >= lane_count(*this)) {
    return finish(make_error("no lane " + std::to_string(lane)));
  }
  TS_TRY(finish(require_ready()));
  if (Status v = validate(a.set, config(*this)); !v.ok()) {
    return finish(make_error("ablate: " + v.error().message));
  }
  Lane& L = lanes_[lane];
  Timeline& t = L.timeline;
  if (cursor_ < 0) return finish(make_error("nothing to run again: step the prefill first"));
  if (t.path_length() <= cursor_) {
    return finish(make_error("lane " + L.settings.label + " has no step " +
                             std::to_string(cursor_) + " (it stopped at step " +
                             std::to_string(t.path_length() - 1) + ")"));
  }
  const int k = cursor_;
  const int node_id = t.path()[k];
  if (t.node(node_id).ablation == a && !t.node(node_id).forced) return finish(ok_status());
  const int parent = t.node(node_id).parent;
  for (int id : t.children(parent)) {  // this intervention's branch exists: go there
    if (t.node(id).ablation == a && !t.node(id).forced) return switch_branch(id, lane);
  }
  progress_->cancel.store(false);
  progress_->running.store(true);
  const std::vector<int> old_path = t.path();
  t.cut_path(k);
  // The pass at k runs again: rows from its first position on are not the old branch's.
  L.kv_valid = std::min(L.kv_valid, kv_pos(k - 1));
  const PlannedStep planned{-1, a};
  if (Status st = compute_step(lane, k, &planned); !st.ok()) {
    t.cut_path(0);  // the old path back, as it was
    for (int id : old_path) t.push(id);
    L.kv_valid = std::min(L.kv_valid, kv_pos(k - 1));
    sync_all_kv();
    return finish(st);
  }
  phase_cursor_ = -1;
  sync_all_kv();
  return finish(ok_status());
}

Status Session::switch_branch(int node_id, int lane) {
  if (lane < 0 || lane >= lane_count(*this)) {
    return finish(make_error("no lane " + std::to_string(lane)));
  }
  Lane& L = lanes_[lane];
  Timeline& t = L.timeline;
  if (node_id < 0 || node_id >= t.size()) {
    return finish(make_error("no node " + std::to_string(node_id) + " in lane " +
                             L.settings.label));
  }
  const std::vector<int> old_path = t.path();
  const int index = t.switch_to(node_id);
  int common = 0;
  while (common < t.path_length() && common < static_cast<int>(old_path.size()) &&
         t.path()[common] == old_path[common]) {
    ++common;
  }
  // The first differing steps are siblings: they share their pass, so their rows are shared,
  // unless an intervention gave one of them a pass of its own.
  const bool same_pass = common < t.path_length() && common < static_cast<int>(old_path.size()) &&
                         t.node(t.path()[common]).kv_rows == t.node(old_path[common]).kv_rows;
  L.kv_valid = std::min(L.kv_valid, kv_pos(same_pass ? common : common - 1));
  progress_->cancel.store(false);
  progress_->running.store(true);
  cursor_ = index;
  phase_cursor_ = -1;
  return finish(catch_up(nullptr));
}

}  // namespace ts
