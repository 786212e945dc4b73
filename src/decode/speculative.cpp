// Speculative decoding (speculative.h): prefill both models, then rounds of draft proposals, one
// verification pass, the accept tests, the residual or bonus draw, and the caches cut back.
#include "decode/speculative.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "base/rng.h"
#include "decode/log_prob.h"

namespace ts {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::span<const float> row_of(const Mat& m, int r) {
  return {m.row(r).data(), static_cast<size_t>(m.cols())};
}

// The n most probable entries (ties: lower id first).
std::vector<TokenProb> top_entries(const std::vector<float>& probs, int n) {
  std::vector<int> ids(probs.size());
  std::iota(ids.begin(), ids.end(), 0);
  n = std::min(n, static_cast<int>(ids.size()));
  std::partial_sort(ids.begin(), ids.begin() + n, ids.end(), [&](int a, int b) {
    return probs[a] != probs[b] ? probs[a] > probs[b] : a < b;
  });
  std::vector<TokenProb> out;
  for (int i = 0; i < n && probs[ids[i]] > 0; ++i) out.push_back({ids[i], probs[ids[i]]});
  return out;
}

struct Run {
  Forward& target;
  Forward& draft;
  const SpecSettings& s;
  int n_prompt;
  std::vector<int> seq;  // prompt + generated
  KvCache kt, kd;        // rows of seq minus its last token (kd may lag further behind)
  SpecResult r;
  SampleOptions so;  // the constraint stages' text (generated from the prompt's end on)

  Run(Forward& t, Forward& d, const SpecSettings& set, std::span<const int> prompt, int capacity)
      : target(t),
        draft(d),
        s(set),
        n_prompt(static_cast<int>(prompt.size())),
        seq(prompt.begin(), prompt.end()),
        kt(t.model().config, capacity),
        kd(d.model().config, capacity) {
    so.record_top = 0;
    so.text = set.text;
    so.text.start = static_cast<size_t>(n_prompt);
  }

  Status prefill() {
    const auto t0 = Clock::now();
    if (n_prompt > 1) {
      const std::span<const int> head(seq.data(), static_cast<size_t>(n_prompt - 1));
      const ForwardOptions fo{RecordLevel::Off, 0, 0};
      TS_TRY(target.run(kt, head, fo, nullptr));
      TS_TRY(draft.run(kd, head, fo, nullptr));
    }
    r.prefill_seconds = since(t0);
    return ok_status();
  }

  // The draft's k proposals, one pass each (the first also feeds what its cache lacks); qs gets
  // each position's dense q.
  Status propose(int k, SpecRound& round, std::vector<std::vector<float>>& qs) {
    const auto t0 = Clock::now();
    const ForwardOptions fo{RecordLevel::Off, 0, 0};
    std::vector<int> ctx = seq;
    for (int i = 0; i < k; ++i) {
      const std::span<const int> missing =
          std::span<const int>(ctx).subspan(static_cast<size_t>(kd.length()));
      TS_TRY(draft.run(kd, missing, fo, nullptr));
      ++round.draft_passes;
      const Vec& lg = draft.logits();
      qs[i] = final_distribution(s.sampler, {lg.data(), static_cast<size_t>(lg.size())}, ctx,
                                 static_cast<uint64_t>(round.first + i), so);
      SpecDraft d;
      const uint64_t n = static_cast<uint64_t>(round.first + i);
      d.u_draft = uniform01(s.sampler.seed, n, kSpecDraftStream);
      d.token = spec_draw(qs[i], d.u_draft);
      if (d.token < 0) return make_error("the draft's distribution is empty");
      d.q = qs[i][d.token];
      d.q_top = top_entries(qs[i], s.record_top);
      ctx.push_back(d.token);
      round.drafts.push_back(std::move(d));
    }
    round.draft_seconds = since(t0);
    return ok_status();
  }

  // One target pass over [last token, drafts...], the tests, the residual or bonus draw; returns
  // the tokens to append and their raw log-probabilities.
  Status verify(SpecRound& round, const std::vector<std::vector<float>>& qs, std::vector<int>& out,
                std::vector<double>& out_lp) {
    const auto t0 = Clock::now();
    const int k = static_cast<int>(round.drafts.size());
    std::vector<int> in = {seq.back()};
    for (const SpecDraft& d : round.drafts) in.push_back(d.token);
    ForwardOptions fo{RecordLevel::Off, 0, 0};
    fo.all_logits = true;
    TS_TRY(target.run(kt, in, fo, nullptr));
    ++r.target_passes;
    const Mat& rows = target.all_logits();  // (k + 1, vocab_size)
    std::vector<int> ctx = seq;
    std::vector<float> dist;
    int at = k;  // the position whose distribution gives the round's own token
    for (int i = 0; i < k; ++i) {
      SpecDraft& d = round.drafts[i];
      const std::vector<float> p = final_distribution(s.sampler, row_of(rows, i), ctx,
                                                      static_cast<uint64_t>(round.first + i), so);
      d.p = p[d.token];
      d.p_top = top_entries(p, s.record_top);
      d.tested = true;
      d.u = uniform01(s.sampler.seed, static_cast<uint64_t>(round.first + i), kSpecAcceptStream);
      d.accepted = spec_accept(d.p, d.q, d.u);
      if (!d.accepted) {
        round.residual_mass = spec_residual(p, qs[i], s.residual, dist);
        at = i;
        break;
      }
      ++round.n_accepted;
      ctx.push_back(d.token);
      out.push_back(d.token);
      out_lp.push_back(log_prob(row_of(rows, i), d.token));
    }
    if (at == k) {
      round.bonus = true;
      dist = final_distribution(s.sampler, row_of(rows, k), ctx,
                                static_cast<uint64_t>(round.first + k), so);
    }
    round.u_token =
        uniform01(s.sampler.seed, static_cast<uint64_t>(round.first + at), kSpecResidualStream);
    round.token = spec_draw(dist, round.u_token);
    if (round.token < 0) return make_error("the target's distribution is empty");
    round.token_p = dist[round.token];
    round.token_top = top_entries(dist, s.record_top);
    out.push_back(round.token);
    out_lp.push_back(log_prob(row_of(rows, at), round.token));
    round.target_seconds = since(t0);
    return ok_status();
  }

  // Appends the round's tokens up to a stop; cuts both caches back to the accepted length.
  void commit(SpecRound& round, const std::vector<int>& toks, const std::vector<double>& lps) {
    const int len = static_cast<int>(seq.size());
    for (size_t i = 0; i < toks.size() && r.stop == StopReason::None; ++i) {
      r.tokens.push_back(toks[i]);
      r.raw_log_p.push_back(lps[i]);
      seq.push_back(toks[i]);
      ++round.emitted;
      const int n = static_cast<int>(r.tokens.size());
      r.stop = decode_stop(s.limits, toks[i], n, n_prompt + n - 1);
    }
    kt.truncate(len + round.n_accepted);  // last token + accepted drafts; the new token pends
    kd.truncate(std::min(kd.length(), len + round.n_accepted));
    r.drafted += static_cast<int>(round.drafts.size());
    r.accepted += round.n_accepted;
    r.tested += round.n_accepted + (round.bonus ? 0 : 1);
    r.draft_passes += round.draft_passes;
  }

  Status round() {
    SpecRound rd;
    rd.first = static_cast<int>(r.tokens.size());
    const int len = static_cast<int>(seq.size());
    // Drafts that fit the budget (one token is the target's own) and the context.
    const int k =
        std::max(0, std::min({s.k, s.limits.max_tokens - rd.first - 1, s.limits.n_ctx - 1 - len}));
    std::vector<std::vector<float>> qs(k);
    TS_TRY(propose(k, rd, qs));
    std::vector<int> toks;
    std::vector<double> lps;
    TS_TRY(verify(rd, qs, toks, lps));
    commit(rd, toks, lps);
    r.rounds.push_back(std::move(rd));
    return ok_status();
  }
};

}  // namespace

Status validate(const SpecSettings& s) {
  if (s.k < 1 || s.k > kMaxSpeculative) {
    return make_error("speculative k must be in 1.." + std::to_string(kMaxSpeculative) + ", got " +
                      std::to_string(s.k));
  }
  if (s.record_top < 0 || s.record_top > 64) {
    return make_error("record_top must be in 0..64, got " + std::to_string(s.record_top));
  }
  TS_TRY(validate(s.sampler));
  return validate(s.limits);
}

Result<SpecResult> speculative_decode(Forward& target, Forward& draft, std::span<const int> prompt,
                                      const SpecSettings& s) {
  TS_TRY(validate(s));
  const int vt = target.model().config.vocab_size, vd = draft.model().config.vocab_size;
  if (vt != vd) {
    return make_error("the draft's vocabulary (" + std::to_string(vd) +
                      " tokens) is not the target's (" + std::to_string(vt) + ")");
  }
  const int n_prompt = static_cast<int>(prompt.size());
  TS_TRY(check_prompt(s.limits, n_prompt));
  const auto t0 = Clock::now();
  Run run(target, draft, s, prompt, std::min(s.limits.n_ctx, n_prompt + s.limits.max_tokens));
  TS_TRY(run.prefill());
  while (run.r.stop == StopReason::None) TS_TRY(run.round());
  run.r.seconds = since(t0);
  return std::move(run.r);
}

}  // namespace ts
