// The token receipt (receipt.h): the pass's logit difference split into parts, the sampler
// chain replayed on the step's logits for the two tokens, and the draw on the strip.
#include "session/receipt.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <system_error>

#include "sampling/stages.h"
#include "sampling/strip.h"
#include "session/pass_replay.h"
#include "session/path_queries.h"
#include "session/session_access.h"

namespace ts {

namespace {

// Raw logit, softmax probability and rank (0 = most probable, ties by lower id) of `id`.
ReceiptToken score(const Session& s, std::span<const float> logits, int id) {
  ReceiptToken t;
  t.id = id;
  t.piece = s.tokenizer().token_bytes(id);
  t.logit = logits[id];
  double max = -INFINITY;
  for (float v : logits) max = std::max(max, static_cast<double>(v));
  double total = 0;
  int rank = 0;
  for (size_t i = 0; i < logits.size(); ++i) {
    if (std::isfinite(logits[i])) total += std::exp(static_cast<double>(logits[i]) - max);
    if (logits[i] > logits[id] || (logits[i] == logits[id] && static_cast<int>(i) < id)) ++rank;
  }
  t.p = std::isfinite(t.logit) && total > 0 ? std::exp(t.logit - max) / total : 0.0;
  t.rank = rank;
  return t;
}

TokenAtStage at_stage(const ChainState& st, const std::vector<double>& p, int id) {
  return {st.logit[id], p[id], st.alive[id] != 0};
}

StripSpan span_of(const CumulativeStrip& strip, int id) {
  const StripPick pick = strip.find(id);
  if (pick.id != id) return {};
  return {true, pick.cum_lo, pick.cum_hi};
}

// The chain of the settings that chose the step, run again on its logits: what each stage did
// to the two tokens, with the recorded names and thresholds; then the draw.
Status replay_sampler(const Session& s, int lane, const Step& st, std::span<const float> logits,
                      TokenReceipt& r) {
  const SamplerSettings set = clamp_settings(st.sampler ? *st.sampler : settings(s, lane));
  if (set.chain.size() != st.sampling.stages.size()) {
    return make_error("step " + std::to_string(st.index) + ": the recorded sampler stages (" +
                      std::to_string(st.sampling.stages.size()) + ") are not its chain's (" +
                      std::to_string(set.chain.size()) + ")");
  }
  const std::vector<int> hist = history(s, lane, st.parent);
  ChainState chain = make_chain_state(logits);
  const int c = r.chosen.id, x = r.vs.id;
  const SampleOptions so = sample_options(s, lane, st.parent);
  for (size_t i = 0; i < set.chain.size(); ++i) {
    StageContext ctx{hist, set.seed, static_cast<uint64_t>(st.index)};
    ctx.text = so.text;
    // The same stage's record at the parent step (mirostat's mu), as sample() found it.
    if (so.previous && i < so.previous->stages.size() &&
        so.previous->stages[i].kind == kind_of(set.chain[i]))
      ctx.previous = &so.previous->stages[i];
    apply_stage(set.chain[i], ctx, chain);
    const std::vector<double> p = softmax_alive(chain);
    const StageRecord& rec = st.sampling.stages[i];
    r.stages.push_back(
        {rec.kind, rec.name, rec.n_kept, rec.cut_at, at_stage(chain, p, c), at_stage(chain, p, x)});
  }
  const std::vector<double> final_p = softmax_alive(chain);
  const CumulativeStrip strip{std::span<const double>(final_p)};
  r.draw.greedy = st.sampling.draw.greedy;
  r.draw.u = st.sampling.draw.u;
  r.draw.sampled = st.sampled_token;
  r.draw.chosen = span_of(strip, c);
  r.draw.vs = span_of(strip, x);
  return ok_status();
}

}  // namespace

Result<TokenReceipt> token_receipt(const Session& s, int lane, int step, int rival) {
  Result<StepInput> in = step_input(s, lane, step);  // checks the model, lane and step
  if (!in.ok()) return in.error();
  const int V = config(s).vocab_size;
  if (rival < 0 || rival >= V) {
    return make_error("token id " + std::to_string(rival) + " is outside the vocabulary (0.." +
                      std::to_string(V - 1) + ")");
  }
  const Step& st = *step_at(s, lane, step);
  if (!st.forward || static_cast<int>(st.forward->logits.size()) != V) {
    return make_error("step " + std::to_string(step) + " holds no logits");
  }
  const std::span<const float> logits = st.forward->logits;
  try {
    ThreadPool pool(std::max(1, s.options().n_threads));
    Result<KvCache> kv = path_kv_rows(s, lane, step);
    if (!kv.ok()) return kv.error();
    Result<PositionPass> pass = recompute_step(s, lane, step, kv.value(), pool);
    if (!pass.ok()) return pass.error();
    const LogitAttribution at = attribute_logit_difference(model(s), pass.value(), st.token, rival);
    TokenReceipt r;
    r.lane = lane;
    r.step = step;
    r.position = st.position;
    r.forced = st.forced;
    r.chosen = score(s, logits, st.token);
    r.vs = score(s, logits, rival);
    r.logit_diff = at.diff();
    r.recorded_diff = static_cast<double>(logits[st.token]) - logits[rival];
    r.parts_sum = at.sum();
    for (size_t k = 0; k < at.ids.size(); ++k) r.parts.push_back({at.ids[k], at.values[k]});
    TS_TRY(replay_sampler(s, lane, st, logits, r));
    return r;
  } catch (const std::bad_alloc&) {
    return make_error("out of memory computing the receipt of step " + std::to_string(step));
  } catch (const std::system_error& e) {  // the pool's threads could not be started
    return make_error(std::string("cannot start the receipt's threads: ") + e.what());
  }
}

}  // namespace ts
