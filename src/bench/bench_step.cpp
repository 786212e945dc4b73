// The end-to-end step benchmark (bench_step.h): a bare Forward and two Sessions (the chain and
// greedy) on one random-weight model, stepped in blocks of a few decode steps in turn over the
// same positions, with a pause between blocks so the previous pool's spinning workers are asleep.
#include "bench/bench_step.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "base/rng.h"
#include "bench/bench_models.h"
#include "bench/bench_roofline.h"
#include "bench/bench_roofline_report.h"
#include "engine/forward.h"
#include "sampling/reference_sampler.h"
#include "sampling/stage.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts::bench {

namespace {

using StepClock = std::chrono::steady_clock;

double step_since(StepClock::time_point t0) {
  return std::chrono::duration<double>(StepClock::now() - t0).count();
}

int step_argmax(const Vec& v) {  // v: (vocab_size)
  Eigen::Index i = 0;
  v.maxCoeff(&i);
  return static_cast<int>(i);
}

// The first raw candidate that is neither EOS nor BOS, to replace an EOS the random model drew.
int non_eos(const Session& s, const Step& st) {
  for (const Candidate& c : st.sampling.raw) {
    if (c.id != s.tokenizer().eos_id() && c.id != s.tokenizer().bos_id()) return c.id;
  }
  return 3;
}

// One timed Session step; an EOS that stopped the lane is replaced first (untimed).
Status timed_session_step(Session& s, double& secs) {
  while (all_stopped(s)) {
    const Step* st = current_step(s, 0);
    if (!st || st->stop != StopReason::Eos) return make_error("the session stopped early");
    TS_TRY(s.force(non_eos(s, *st)));
  }
  const auto t0 = StepClock::now();
  TS_TRY(s.step());
  secs += step_since(t0);
  return ok_status();
}

Status open_session(Session& s, const LoadedModel& lm, const SamplerSettings& set, int n_ctx) {
  TS_TRY(s.set_model(lm));
  TS_TRY(set_record_level(s, RecordLevel::Summary));
  TS_TRY(s.set_sampler(0, set));
  TS_TRY(set_max_tokens(s, n_ctx));
  return ok_status();
}

// One decode measured in turns: a Session (its sampler on the fast path or the reference), and
// next to it a bare Forward on the Session's own weights. Each Session holds its own copy of the
// model (set_model takes it by value), and on this project's VMs two copies of the same weights
// decoded up to 25% apart (where each landed in the host's memory), so each step is set against
// the forward on the same memory, not against one shared baseline.
struct SessionRun {
  Session* session = nullptr;
  bool fast = true;
  double* tps = nullptr;
  double* ratio = nullptr;  // median over the rounds of this round's tokens/s over its forward's
  std::unique_ptr<Forward> fwd;
  std::unique_ptr<KvCache> kv;
  int next = 0;  // the bare forward's next input (its argmax)
  double secs = 0, fwd_secs = 0;
  std::vector<double> ratios;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// The sessions timed against their own bare forwards: the chain, greedy, T only and top-p (and,
// with --reference-sampler, the chain and greedy on the reference sampler).
struct StepRuns {
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<SessionRun> runs;  // each points at its session above
};

Status open_step_runs(const LoadedModel& lm, const StepOptions& opt, StepShapeResult& r,
                      StepRuns& out) {
  const ModelConfig& c = lm.model.config;
  SamplerSettings greedy;
  stage<Temperature>(greedy).t = 0;
  greedy.label = "greedy";
  auto add = [&](const SamplerSettings& set, bool fast, double* tps, double* ratio) -> Status {
    out.sessions.push_back(std::make_unique<Session>(SessionOptions{opt.threads}));
    TS_TRY(open_session(*out.sessions.back(), lm, set, c.n_ctx));
    SessionRun run;
    run.session = out.sessions.back().get();
    run.fast = fast;
    run.tps = tps;
    run.ratio = ratio;
    run.fwd = std::make_unique<Forward>(model(*run.session), opt.threads);
    run.kv = std::make_unique<KvCache>(c, c.n_ctx);
    out.runs.push_back(std::move(run));
    return ok_status();
  };
  TS_TRY(add(step_bench_chain(), true, &r.chain_tps, &r.chain_ratio));
  TS_TRY(add(greedy, true, &r.greedy_tps, &r.greedy_ratio));
  TS_TRY(add(step_bench_temperature_chain(), true, &r.temp_tps, &r.temp_ratio));
  TS_TRY(add(step_bench_top_p_chain(), true, &r.top_p_tps, &r.top_p_ratio));
  if (opt.reference) {
    TS_TRY(add(step_bench_chain(), false, &r.chain_ref_tps, &r.chain_ref_ratio));
    TS_TRY(add(greedy, false, &r.greedy_ref_tps, &r.greedy_ref_ratio));
  }
  return ok_status();
}

constexpr const char* kStepPrompt = "Once upon a time";

// One round: every run's prefill (untimed), then its decode steps in blocks, every bare forward
// and every session in turn, in an order shuffled per block (seeded: the same in every run), so
// no run always follows the same one (a cache, a pool or a frequency left by it).
Status step_round(std::vector<SessionRun>& runs, const std::vector<int>& tokens, int round,
                  StepShapeResult& r) {
  constexpr int kBlock = 8;  // steps per turn
  const ForwardOptions off{RecordLevel::Off, 0, 0};
  for (SessionRun& run : runs) {  // a fresh timeline and its prefill, and the forward's, untimed
    run.secs = run.fwd_secs = 0;
    set_sampler_fast_path(run.fast);
    TS_TRY(run.session->set_prompt(kStepPrompt));
    TS_TRY(run.session->step());
    run.kv->truncate(0);
    TS_TRY(run.fwd->run(*run.kv, tokens, off, nullptr));
    run.next = step_argmax(run.fwd->logits());
  }
  // Turn 2i: run i's forward; 2i + 1: its session.
  const int n_turns = 2 * static_cast<int>(runs.size());
  std::vector<int> order(static_cast<size_t>(n_turns));
  SplitMix shuffle(static_cast<uint64_t>(round) + 1);
  Status st = ok_status();
  for (int done = 0; done < r.steps && st.ok(); done += kBlock) {
    const int n = std::min(kBlock, r.steps - done);
    for (int i = 0; i < n_turns; ++i) order[static_cast<size_t>(i)] = i;
    for (int i = n_turns - 1; i > 0; --i) {
      std::swap(order[static_cast<size_t>(i)], order[shuffle.below(static_cast<uint64_t>(i) + 1)]);
    }
    for (int turn = 0; turn < n_turns && st.ok(); ++turn) {
      const int who = order[static_cast<size_t>(turn)];
      SessionRun& run = runs[static_cast<size_t>(who / 2)];
      // Idle pools' workers spin ~2 ms after a pass: let the other runs' workers fall asleep.
      std::this_thread::sleep_for(std::chrono::milliseconds(4));
      if (who % 2 == 0) {
        for (int i = 0; i < n && st.ok(); ++i) {
          const auto t0 = StepClock::now();
          st = run.fwd->run(*run.kv, std::span<const int>(&run.next, 1), off, nullptr);
          run.next = step_argmax(run.fwd->logits());
          run.fwd_secs += step_since(t0);
        }
        continue;
      }
      set_sampler_fast_path(run.fast);
      for (int i = 0; i < n && st.ok(); ++i) st = timed_session_step(*run.session, run.secs);
    }
  }
  set_sampler_fast_path(true);
  for (SessionRun& run : runs) {
    if (run.fwd_secs > 0) r.forward_tps = std::max(r.forward_tps, r.steps / run.fwd_secs);
    if (run.secs > 0) *run.tps = std::max(*run.tps, r.steps / run.secs);
    if (run.secs > 0 && run.fwd_secs > 0) run.ratios.push_back(run.fwd_secs / run.secs);
  }
  return st;
}

// The sampler alone on the forward's last logits (the chain, record summary's 32 candidates,
// one thread): best of a few calls, fast path and reference.
void time_sampler_alone(const SessionRun& chain_run, bool reference, StepShapeResult& r) {
  const Vec& lv = chain_run.fwd->logits();
  const std::span<const float> logits(lv.data(), static_cast<size_t>(lv.size()));
  const Session& chain_session = *chain_run.session;
  std::vector<int> history = prompt_tokens(chain_session);  // prompt + the chain's tokens
  for (int k = 0; k < path_length(chain_session, 0); ++k) {
    history.push_back(timeline(chain_session, 0).at(k)->token);
  }
  SampleOptions so;
  so.record_top = 32;
  auto best_us = [&](bool fast, const SamplerSettings& chain = step_bench_chain()) {
    double best = 0;
    for (int i = 0; i < 5; ++i) {
      SamplingRecord rec;
      const auto t0 = StepClock::now();
      if (fast) {
        sample(chain, logits, history, static_cast<uint64_t>(i), &rec, so);
      } else {
        reference_sample(chain, logits, history, static_cast<uint64_t>(i), &rec, so);
      }
      const double us = step_since(t0) * 1e6;
      best = i == 0 ? us : std::min(best, us);
    }
    return best;
  };
  r.sampler_us = best_us(true);
  r.temp_sampler_us = best_us(true, step_bench_temperature_chain());
  r.top_p_sampler_us = best_us(true, step_bench_top_p_chain());
  if (reference) r.reference_sampler_us = best_us(false);
}

Status measure_step_shape(const LoadedModel& lm, const StepOptions& opt, StepShapeResult& r,
                          const std::function<void(const std::string&)>& progress) {
  const ModelConfig& c = lm.model.config;
  StepRuns sr;
  TS_TRY(open_step_runs(lm, opt, r, sr));
  std::vector<SessionRun>& runs = sr.runs;
  TS_TRY(runs[0].session->set_prompt(kStepPrompt));
  const std::vector<int> tokens = prompt_tokens(*runs[0].session);
  r.steps = std::max(1, std::min(opt.steps, c.n_ctx - static_cast<int>(tokens.size()) - 1));
  Status st = ok_status();
  for (int round = 0; round < opt.rounds && st.ok(); ++round) {
    if (progress) {
      progress("step: " + r.name + ": round " + std::to_string(round + 1) + " of " +
               std::to_string(opt.rounds) + " (" + std::to_string(r.steps) + " decode steps)");
    }
    st = step_round(runs, tokens, round, r);
  }
  set_sampler_fast_path(true);
  TS_TRY(st);
  for (SessionRun& run : runs) *run.ratio = median(run.ratios);
  time_sampler_alone(runs[0], opt.reference, r);
  r.ran = true;
  return ok_status();
}

const char* step_met(double ratio) { return ratio >= kTargetStepRatio ? "met" : "missed"; }

}  // namespace

SamplerSettings step_bench_chain() {
  SamplerSettings s;
  s.label = "chain";
  stage<Penalties>(s).repeat = 1.1f;
  stage<Penalties>(s).last_n = 64;
  stage<TopK>(s).k = 40;
  stage<TopP>(s).p = 0.95f;
  stage<MinP>(s).p = 0.05f;
  stage<Temperature>(s).t = 0.8f;
  return s;
}

SamplerSettings step_bench_temperature_chain() {
  SamplerSettings s;
  s.label = "T=0.8";
  s.chain = {Temperature{0.8f}};
  return s;
}

SamplerSettings step_bench_top_p_chain() {
  SamplerSettings s;
  s.label = stage_name(StageKind::TopP);
  s.chain = {TopP{0.95f}, Temperature{0.8f}};
  return s;
}

Result<StepReport> run_step_bench(const StepOptions& opt,
                                  const std::function<void(const std::string&)>& progress) {
  for (const std::string& name : opt.shapes) {
    if (Result<ModelConfig> c = roofline_shape_config(name); !c.ok()) return c.error();
  }
  StepReport rep;
  rep.machine = roofline_machine();
  rep.threads = opt.threads;
  rep.chain = describe(step_bench_chain());
  rep.reference = opt.reference;
  for (const std::string& name : opt.shapes) {
    StepShapeResult r;
    r.name = name;
    const ModelConfig c = roofline_shape_config(name).value();  // checked above
    r.note = c.name;
    r.vocab = c.vocab_size;
    if (progress) progress("step: " + name + ": random weights");
    Result<LoadedModel> lm = roofline_shape_model(name, c);
    Status st = lm.ok() ? measure_step_shape(lm.value(), opt, r, progress) : Status(lm.error());
    if (!st.ok()) {
      r.ran = false;
      r.note = "failed: " + st.error().message;
    }
    rep.shapes.push_back(std::move(r));
  }
  return rep;
}

std::string step_table(const StepReport& rep) {
  std::string out = "step: " + rep.machine + ", " + std::to_string(rep.threads) +
                    " threads, record summary; chain: " + rep.chain + "\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %-6s %7s %6s %9s %9s %9s %-14s %-14s %9s %9s %-12s %-12s",
                "shape", "vocab", "steps", "forward", "chain", "greedy", "chain/forward",
                "greedy/forward", "T only", stage_name(StageKind::TopP), "T/forward", "top-p/fwd");
  out += buf;
  if (rep.reference) {
    std::snprintf(buf, sizeof buf, " %9s %9s %-9s %-9s", "chain", "greedy", "chain", "greedy");
    out += buf;
  }
  out += "   sampler us (chain / T / top-p)";
  if (rep.reference) out += " (before)";
  out += "\n";
  if (rep.reference) {
    out += std::string(85, ' ') + "reference sampler (before): tokens/s, ratio\n";
  }
  for (const StepShapeResult& r : rep.shapes) {
    if (!r.ran) {
      out += "  " + r.name + ": " + r.note + "\n";
      continue;
    }
    std::snprintf(buf, sizeof buf, "  %-6s %7d %6d %9.1f %9.1f %9.1f %5.2f %-8s %5.2f %-8s",
                  r.name.c_str(), r.vocab, r.steps, r.forward_tps, r.chain_tps, r.greedy_tps,
                  r.chain_ratio, step_met(r.chain_ratio), r.greedy_ratio, step_met(r.greedy_ratio));
    out += buf;
    std::snprintf(buf, sizeof buf, " %9.1f %9.1f %5.2f %-6s %5.2f %-6s", r.temp_tps, r.top_p_tps,
                  r.temp_ratio, step_met(r.temp_ratio), r.top_p_ratio, step_met(r.top_p_ratio));
    out += buf;
    if (rep.reference) {
      std::snprintf(buf, sizeof buf, " %9.1f %9.1f %-9.2f %-9.2f", r.chain_ref_tps,
                    r.greedy_ref_tps, r.chain_ref_ratio, r.greedy_ref_ratio);
      out += buf;
    }
    std::snprintf(buf, sizeof buf, " %8.0f / %.0f / %.0f", r.sampler_us, r.temp_sampler_us,
                  r.top_p_sampler_us);
    out += buf;
    if (rep.reference) {
      std::snprintf(buf, sizeof buf, " (%.0f)", r.reference_sampler_us);
      out += buf;
    }
    out += "\n";
  }
  std::snprintf(
      buf, sizeof buf,
      "  tokens/s: best of the rounds; ratios: median of each round's ratio of a Session's "
      "steps to a bare Forward (record off, argmax) on that Session's own copy of the weights; "
      "forward: the best of those; chain, greedy, T only (T=0.8), top-p (top-p=0.95 then "
      "T=0.8, no top-k): Session::step at record summary; "
      "target >= %.2f; sampler us: one sample() of the chain on the last logits, one thread, best "
      "of 5\n",
      kTargetStepRatio);
  out += buf;
  return out;
}

nlohmann::json step_json(const StepReport& rep) {
  nlohmann::json shapes = nlohmann::json::array();
  for (const StepShapeResult& r : rep.shapes) {
    shapes.push_back({{"name", r.name},
                      {"ran", r.ran},
                      {"note", r.note},
                      {"vocab_size", r.vocab},
                      {"decode_steps", r.steps},
                      {"forward_tokens_per_s", r.forward_tps},
                      {"chain_tokens_per_s", r.chain_tps},
                      {"greedy_tokens_per_s", r.greedy_tps},
                      {"chain_ratio", r.chain_ratio},
                      {"greedy_ratio", r.greedy_ratio},
                      {"chain_target_met", r.ran && r.chain_ratio >= kTargetStepRatio},
                      {"greedy_target_met", r.ran && r.greedy_ratio >= kTargetStepRatio},
                      {"temperature_tokens_per_s", r.temp_tps},
                      {"top_p_tokens_per_s", r.top_p_tps},
                      {"temperature_ratio", r.temp_ratio},
                      {"top_p_ratio", r.top_p_ratio},
                      {"temperature_target_met", r.ran && r.temp_ratio >= kTargetStepRatio},
                      {"top_p_target_met", r.ran && r.top_p_ratio >= kTargetStepRatio},
                      {"sampler_us", r.sampler_us},
                      {"temperature_sampler_us", r.temp_sampler_us},
                      {"top_p_sampler_us", r.top_p_sampler_us}});
    if (rep.reference) {
      shapes.back()["reference_chain_tokens_per_s"] = r.chain_ref_tps;
      shapes.back()["reference_greedy_tokens_per_s"] = r.greedy_ref_tps;
      shapes.back()["reference_chain_ratio"] = r.chain_ref_ratio;
      shapes.back()["reference_greedy_ratio"] = r.greedy_ref_ratio;
      shapes.back()["reference_sampler_us"] = r.reference_sampler_us;
    }
  }
  return {{"machine", rep.machine}, {"threads", rep.threads},           {"record_level", "summary"},
          {"chain", rep.chain},     {"target_ratio", kTargetStepRatio}, {"shapes", shapes}};
}

}  // namespace ts::bench
