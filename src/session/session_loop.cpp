// The generation loop of a Session: computing a step (prefill shared by the lanes, decode per
// lane), the token choice and the stop check, moving the cursor (step, back, seek, run_to),
// forcing a token and switching branches, and keeping each lane's KV cache equal to its path.
#include <algorithm>
#include <cmath>

#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

namespace {

int record_top_for(RecordLevel level) {
  switch (level) {
    case RecordLevel::Off: return 8;
    case RecordLevel::Summary: return 32;
    case RecordLevel::Full: return 64;
  }
  return 32;
}

// Non-finite logits stop the step. Where they came from: the last position's residual norms
// (recorded at Summary and Full; at Off the pass is run once more with a Summary record, only
// on this error path) name the first sub-block whose output is NaN/Inf. kv is left at `first`.
Error nonfinite_logits(Forward& fwd, KvCache& kv, int first, const std::vector<int>& input,
                       ForwardOptions fo, const ForwardRecord& rec, int step) {
  std::vector<float> norms = rec.residual_norms;
  if (norms.empty()) {
    kv.truncate(first);
    fo.level = RecordLevel::Summary;
    ForwardRecord probe;
    if (fwd.run(kv, input, fo, &probe).ok()) norms = probe.residual_norms;
  }
  kv.truncate(first);
  std::string where = "in the final norm or the output projection (every block's output is finite)";
  if (norms.empty()) where = "at an unknown place (the residual stream could not be recorded)";
  for (size_t k = 0; k < norms.size(); ++k) {
    if (std::isfinite(norms[k])) continue;
    where = k == 0 ? std::string("in the token embedding")
                   : "in layer " + std::to_string((k - 1) / 2) + "'s " +
                         ((k - 1) % 2 == 0 ? "attention" : "MLP") + " block";
    break;
  }
  return make_error("step " + std::to_string(step) +
                    ": the model produced non-finite logits (NaN or Inf); they first appear " +
                    where + " (the weights or activations overflow fp32); the step is not taken");
}

}  // namespace

int Session::kv_pos(int step_index) const {
  return step_index < 0 ? 0 : static_cast<int>(prompt_.tokens.size()) + step_index;
}

bool Session::lane_done(int lane) const {
  const Timeline& t = lanes_[lane].timeline;
  return t.path_length() > 0 && t.at(t.path_length() - 1)->stop != StopReason::None;
}

StopReason Session::stop_after(int lane, int parent, const Step& s) const {
  StopInputs in;
  in.chosen_id = s.token;
  in.eos_id = tokenizer_.eos_id();
  in.n_generated = s.index + 1;
  in.max_tokens = gen_.max_tokens;
  in.position = s.position;
  in.n_ctx = config(*this).n_ctx;
  if (!gen_.stops.empty()) {
    // The generated text's tail, long enough for any stop string that ends in this piece.
    size_t longest = 0;
    for (const std::string& x : gen_.stops) longest = std::max(longest, x.size());
    const size_t want = s.piece.size() + longest;
    std::vector<const std::string*> pieces = {&s.piece};
    size_t have = s.piece.size();
    const Timeline& t = lanes_[lane].timeline;
    for (int id = parent; id >= 0 && have < want; id = t.node(id).parent) {
      pieces.push_back(&t.node(id).piece);
      have += t.node(id).piece.size();
    }
    std::string text;
    for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) text += **it;
    in.stop_string = check_stop(text, gen_.stops).matched;
  }
  // A generated BOS starts a new document (llama2.c's convention): the text has ended too.
  if (s.token >= 0 && s.token == tokenizer_.bos_id()) return StopReason::Eos;
  return ts::stop_reason(in);
}

void Session::choose(int lane, Step& s, int parent, std::span<const float> logits,
                     int forced) const {
  const SamplerSettings& set = lanes_[lane].settings;
  s.sampler = std::make_shared<const SamplerSettings>(set);
  const std::vector<int> hist = history(*this, lane, parent);
  SampleOptions so;
  so.record_top = record_top_for(gen_.record_level);
  // The sampler's passes over the vocabulary run on the forward's threads (idle between passes).
  so.pool = forward_ ? &forward_->pool() : nullptr;
  s.sampled_token = sample(set, logits, hist, static_cast<uint64_t>(s.index), &s.sampling, so);
  // Forcing the token the sampler picks anyway is no replacement (as in force()).
  if (forced >= 0 && forced != s.sampled_token) {
    s.token = forced;
    s.forced = true;
    const std::vector<float> dense = final_distribution(set, logits, hist);
    s.chosen_p = forced < static_cast<int>(dense.size()) ? dense[forced] : 0.0f;
    int rank = 0;
    for (int i = 0; i < static_cast<int>(dense.size()); ++i) {
      if (dense[i] > s.chosen_p || (dense[i] == s.chosen_p && i < forced)) ++rank;
    }
    s.chosen_rank = rank;
  } else {
    s.token = s.sampled_token;
    s.forced = false;
    s.chosen_p = s.sampling.draw.chosen_p;
    s.chosen_rank = s.sampling.draw.chosen_rank;
  }
  const int prev = parent >= 0 ? lanes_[lane].timeline.node(parent).token
                               : (prompt_.tokens.empty() ? -1 : prompt_.tokens.back());
  s.position = kv_pos(s.index);
  s.piece = piece_bytes(*this, s.token, prev);
  s.display = piece_display(*this, s.token);
  s.stop = stop_after(lane, parent, s);
}

Status Session::compute_step(int lane, int k, int forced) {
  Lane& L = lanes_[lane];
  Timeline& t = L.timeline;
  if (t.path_length() != k) return make_error("internal: step computed out of order");
  const int parent = k == 0 ? -1 : t.path()[k - 1];
  const int n_prompt = static_cast<int>(prompt_.tokens.size());
  ForwardOptions fo;
  fo.level = gen_.record_level;
  fo.position_top_k = opt_.position_top_k;
  fo.lens_top_k = opt_.lens_top_k;

  Step s;
  s.index = k;
  std::span<const float> logits;
  const Step* shared = nullptr;
  if (k == 0) {  // the prefill is shared: reuse another lane's if it has one
    for (int j = 0; j < lane_count(*this) && !shared; ++j) {
      const Step* r = lanes_[j].timeline.at(0);
      if (j != lane && r && !r->forward->logits.empty()) shared = r;
    }
  }
  if (shared) {
    s.forward = shared->forward;
    s.kv_rows = shared->kv_rows;
    L.kv.truncate(0);
    for (int p = 0; p < n_prompt; ++p) s.kv_rows->restore_row(L.kv, p);
    L.kv.advance(n_prompt);
    L.kv_valid = n_prompt;
    logits = s.forward->logits;
  } else {
    sync_kv(lane, kv_pos(k - 1));
    const int first = L.kv.length();
    std::vector<int> input;
    if (k == 0) {
      input = prompt_.tokens;
    } else {
      input = {t.node(parent).token};
    }
    auto rec = std::make_shared<ForwardRecord>();
    TS_TRY(forward_->run(L.kv, input, fo, rec.get()));
    if (!forward_->logits().allFinite()) {  // one pass over vocab_size floats: cheap
      Error e = nonfinite_logits(*forward_, L.kv, first, input, fo, *rec, k);
      L.kv_valid = L.kv.length();
      return e;
    }
    s.kv_rows = std::make_shared<const KvRows>(
        KvRows::capture(L.kv, first, static_cast<int>(input.size())));
    L.kv_valid = L.kv.length();
    s.forward = rec;
    if (!rec->logits.empty()) {
      logits = rec->logits;
    } else {
      const Vec& v = forward_->logits();
      logits = std::span<const float>(v.data(), static_cast<size_t>(v.size()));
    }
  }
  choose(lane, s, parent, logits, forced);
  const int id = t.add(std::move(s), parent);
  t.push(id);
  return ok_status();
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

Status Session::catch_up(const ForcedPlan* plan) {
  for (int i = 0; i < lane_count(*this); ++i) {
    while (lanes_[i].timeline.path_length() <= cursor_ && !lane_done(i)) {
      if (progress_->cancel.load()) {
        cursor_ = std::min(cursor_, lanes_[i].timeline.path_length() - 1);
        sync_all_kv();
        return make_error("cancelled");
      }
      const int k = lanes_[i].timeline.path_length();
      const int forced = plan && i < static_cast<int>(plan->size()) &&
                                 k < static_cast<int>((*plan)[i].size())
                             ? (*plan)[i][k]
                             : -1;
      TS_TRY(compute_step(i, k, forced));
    }
  }
  sync_all_kv();
  return ok_status();
}

Status Session::advance(const ForcedPlan* plan) {
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
    const int forced = plan && i < static_cast<int>(plan->size()) &&
                               next < static_cast<int>((*plan)[i].size())
                           ? (*plan)[i][next]
                           : -1;
    TS_TRY(compute_step(i, next, forced));
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
  if (const int existing = t.find_child(parent, token_id); existing >= 0) {
    return switch_branch(existing, lane);
  }
  Step s;
  s.index = k;
  s.forward = t.node(node_id).forward;
  s.kv_rows = t.node(node_id).kv_rows;
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
  // The first differing steps are siblings: they share their pass, so their rows are shared.
  L.kv_valid = std::min(L.kv_valid, kv_pos(common));
  progress_->cancel.store(false);
  progress_->running.store(true);
  cursor_ = index;
  phase_cursor_ = -1;
  return finish(catch_up(nullptr));
}

}  // namespace ts
