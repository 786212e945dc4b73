// One step of one lane, the heart of the program, read top to bottom:
//   input -> forward -> last-position logits -> choose -> append (-> stop, inside choose)
// The prefill (step 0) is one pass over the whole prompt, shared by every lane: a lane whose
// prefill another lane already ran takes that pass's record and K/V rows instead of running
// it again. A decode step is one pass over the one token chosen before. A pass runs with the
// step's intervention (heads, blocks or MLPs switched off or scaled). Everything around the
// step (lock-step over the lanes, the cursor, forcing, branches, the KV cache's sync) is in
// session_loop.cpp.
#include <algorithm>
#include <cmath>

#include "decode/log_prob.h"
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

Status Session::compute_step(int lane, int k, const PlannedStep* planned) {
  Timeline& t = lanes_[lane].timeline;
  if (t.path_length() != k) return make_error("internal: step computed out of order");
  const int parent = k == 0 ? -1 : t.path()[k - 1];
  const int forced = planned ? planned->forced : -1;
  Step s;
  s.index = k;
  // The intervention of the pass: as planned (a recomputation keeps each step's), else inherited.
  if (planned) {
    s.ablation = planned->ablation;
  } else if (parent >= 0) {
    s.ablation = inherited_ablation(t.node(parent));
  }
  std::span<const float> logits;
  if (const Step* shared = shared_prefill(lane, k, s.ablation)) {
    logits = reuse_pass(lane, *shared, s);                       // the prefill another lane ran
  } else {
    const std::vector<int> input = step_input(k, parent, t);     // input
    TS_TRY(run_forward(lane, k, input, s));                      // forward
    logits = last_logits(s);                                     // last-position logits
  }
  choose(lane, s, parent, logits, forced);                       // choose (and the stop check)
  t.push(t.add(std::move(s), parent));                           // append
  return ok_status();
}

const Step* Session::shared_prefill(int lane, int k, const Ablation& a) const {
  if (k != 0) return nullptr;
  for (int j = 0; j < lane_count(*this); ++j) {
    const Step* r = lanes_[j].timeline.at(0);
    if (j != lane && r && !r->forward->logits.empty() && r->ablation == a) return r;
  }
  return nullptr;
}

std::span<const float> Session::reuse_pass(int lane, const Step& shared, Step& s) {
  Lane& L = lanes_[lane];
  const int n_prompt = static_cast<int>(prompt_.tokens.size());
  s.forward = shared.forward;
  s.kv_rows = shared.kv_rows;
  L.kv.truncate(0);
  for (int p = 0; p < n_prompt; ++p) s.kv_rows->restore_row(L.kv, p);
  L.kv.advance(n_prompt);
  L.kv_valid = n_prompt;
  return s.forward->logits;
}

std::vector<int> Session::step_input(int k, int parent, const Timeline& t) const {
  if (k == 0) return prompt_.tokens;  // the prefill: the whole prompt
  return {t.node(parent).token};      // a decode step: the token chosen before
}

Status Session::run_forward(int lane, int k, const std::vector<int>& input, Step& s) {
  Lane& L = lanes_[lane];
  ForwardOptions fo;
  fo.level = gen_.record_level;
  fo.position_top_k = opt_.position_top_k;
  fo.lens_top_k = opt_.lens_top_k;
  fo.interventions = &s.ablation.set;
  sync_kv(lane, kv_pos(k - 1));
  const int first = L.kv.length();
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
  return ok_status();
}

std::span<const float> Session::last_logits(const Step& s) const {
  if (!s.forward->logits.empty()) return s.forward->logits;  // recorded (summary, full)
  const Vec& v = forward_->logits();  // record level off: the forward's own buffer
  return std::span<const float>(v.data(), static_cast<size_t>(v.size()));
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
  // The parent step's record (the state stages carry across steps: mirostat's mu) and the
  // vocabulary's text (the constraint stages).
  SampleOptions so = sample_options(*this, lane, parent);
  so.record_top = record_top_for(gen_.record_level);
  // The sampler's passes over the vocabulary run on the forward's threads (idle between passes).
  so.pool = forward_ ? &forward_->pool() : nullptr;
  s.sampled_token = sample(set, logits, hist, static_cast<uint64_t>(s.index), &s.sampling, so);
  // Forcing the token the sampler picks anyway is no replacement (as in force()).
  if (forced >= 0 && forced != s.sampled_token) {
    s.token = forced;
    s.forced = true;
    const std::vector<float> dense =
        final_distribution(set, logits, hist, static_cast<uint64_t>(s.index), so);
    s.chosen_p = forced < static_cast<int>(dense.size()) ? dense[forced] : 0.0f;
    after_taking(set, s.sampling, s.chosen_p);  // mirostat's mu follows the token taken
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
  s.raw_log_p = log_prob(logits, s.token);
  const int prev = parent >= 0 ? lanes_[lane].timeline.node(parent).token
                               : (prompt_.tokens.empty() ? -1 : prompt_.tokens.back());
  s.position = kv_pos(s.index);
  s.piece = piece_bytes(*this, s.token, prev);
  s.display = piece_display(*this, s.token);
  s.stop = stop_after(lane, parent, s);
}

}  // namespace ts
