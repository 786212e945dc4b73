// The roofline run (see bench_roofline.h): probes, then per shape a random-weight model (or the
// model file), timed prefills and decodes driving Forward directly (no session, no sampler: the
// next token is the argmax of the logits), and the agreement check against reference_forward.
#include "bench/bench_roofline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <vector>

#include "base/rng.h"
#include "bench/bench_models.h"
#include "bench/bench_receipt.h"
#include "engine/cost.h"
#include "engine/forward.h"
#include "engine/logit_lens.h"
#include "formats/model_file.h"

namespace ts::bench {

namespace {

using RoofClock = std::chrono::steady_clock;

double roof_seconds(RoofClock::time_point t0) {
  return std::chrono::duration<double>(RoofClock::now() - t0).count();
}

ModelConfig stories_shape(const char* name, int d, int ff, int layers, int heads, int vocab,
                          int ctx) {
  ModelConfig c;
  c.architecture = "llama";
  c.name = name;
  c.n_layers = layers;
  c.n_heads = heads;
  c.n_kv_heads = heads;
  c.d_model = d;
  c.d_ff = ff;
  c.vocab_size = vocab;
  c.n_ctx = ctx;
  c.tied_embeddings = true;  // as llama2.c's stories checkpoints
  return c;
}

int argmax_of(const Vec& v) {  // v: (vocab_size)
  Eigen::Index i = 0;
  v.maxCoeff(&i);
  return static_cast<int>(i);
}

// n ids in [3, vocab), fixed by seed, after BOS (1).
std::vector<int> bench_tokens(int n, int vocab, uint64_t seed) {
  SplitMix rng(seed);
  std::vector<int> ids(n);
  for (int i = 0; i < n; ++i) {
    ids[i] = i == 0 ? 1 : 3 + static_cast<int>(rng.below(static_cast<uint64_t>(vocab - 3)));
  }
  return ids;
}

// A prefill of `tokens` at record level off against the FMA peak: after one untimed warm-up
// run, up to 10 timed runs (while they take less than ~3 s in total), each right after a short
// FMA probe on as many threads, so both see the machine in the same moment (a shared host's
// speed drifts over the minutes a roofline run takes). Best tokens/s, and the best FLOP/s over
// the best probe of the same window.
struct PrefillTiming {
  double tokens_per_s = 0;
  double flops_per_s = 0;
  double compute_fraction = 0;  // best FLOP/s / best of the probes run next to the prefills
  bool probe_checked = true;
};

Result<PrefillTiming> time_prefill(Forward& fwd, std::span<const int> tokens, double flops,
                                   double probe_flops) {
  KvCache kv(fwd.model().config, fwd.model().config.n_ctx);
  const ForwardOptions off{RecordLevel::Off, 0, 0};
  TS_TRY(fwd.run(kv, tokens, off, nullptr));
  PrefillTiming t;
  double total = 0, best_peak = 0;
  for (int rep = 0; rep < 10 && (rep == 0 || total < 3.0); ++rep) {
    const FmaProbe peak = run_fma_probe(fwd.pool(), probe_flops, 1);  // same threads
    t.probe_checked = t.probe_checked && peak.checked;
    kv.truncate(0);
    const auto t0 = RoofClock::now();
    TS_TRY(fwd.run(kv, tokens, off, nullptr));
    const double secs = roof_seconds(t0);
    total += secs;
    if (secs <= 0) continue;
    t.tokens_per_s = std::max(t.tokens_per_s, static_cast<double>(tokens.size()) / secs);
    t.flops_per_s = std::max(t.flops_per_s, flops / secs);
    best_peak = std::max(best_peak, peak.flops_per_s);
  }
  // Best against best in the same window (a ratio per run would let one slow probe next to one
  // fast run overstate it).
  t.compute_fraction = best_peak > 0 ? t.flops_per_s / best_peak : 0.0;
  return t;
}

// One decode measured by time_decodes: a Forward at a record level, and its tokens/s.
struct DecodeRun {
  Forward* fwd;
  RecordLevel level;
  double* tokens_per_s;
  // Full: the mean seconds of one logit lens computed on demand (engine/logit_lens.h) from the
  // last few records, timed after the decode (a step pays it only when its lens is read).
  double* lens_seconds = nullptr;
};

// Mean seconds of the logit lens computed from each of the last (up to) 5 records.
double time_lens(Forward& fwd, const std::vector<std::unique_ptr<ForwardRecord>>& records) {
  double secs = 0;
  int n = 0;
  for (size_t i = records.size(); i-- > 0 && n < 5;) {
    const ForwardRecord& rec = *records[i];
    if (rec.lens_residuals.empty() || !rec.logit_lens.empty()) continue;
    const auto t0 = RoofClock::now();
    ensure_logit_lens(fwd.model(), rec, ForwardOptions{}.lens_top_k, fwd.pool());
    secs += roof_seconds(t0);
    ++n;
  }
  return n > 0 ? secs / n : 0.0;
}

// Decode tokens/s of each run over `steps` greedy steps after an untimed prefill of `prompt`;
// `between` (if any) runs untimed before the first step, every 50 steps and after the last.
// The runs take turns step by step, each with its own cache, timeline and next token (runs may
// share a Forward: its logits are read right after each of its passes), so a burst of load from
// elsewhere on a shared machine slows them all alike and their ratios stay meaningful. Each
// step's record is kept (as a timeline keeps it), so recording costs what it costs in a session.
Status time_decodes(std::span<const DecodeRun> runs, std::span<const int> prompt, int steps,
                    const std::function<void()>& between) {
  struct Lane {
    std::unique_ptr<KvCache> kv;
    std::vector<std::unique_ptr<ForwardRecord>> records;
    int next = 0;
    double secs = 0;
  };
  std::vector<Lane> lanes(runs.size());
  auto options = [](RecordLevel level) {
    return ForwardOptions{level, ForwardOptions{}.position_top_k, ForwardOptions{}.lens_top_k};
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    const ModelConfig& c = runs[i].fwd->model().config;
    lanes[i].kv = std::make_unique<KvCache>(c, c.n_ctx);
    lanes[i].records.reserve(steps + 1);
    lanes[i].records.push_back(std::make_unique<ForwardRecord>());
    TS_TRY(runs[i].fwd->run(*lanes[i].kv, prompt, options(runs[i].level),
                            lanes[i].records.back().get()));
    lanes[i].next = argmax_of(runs[i].fwd->logits());
  }
  constexpr int kBetweenEvery = 50;  // steps between two calls of `between` (untimed)
  for (int step = 0; step < steps; ++step) {
    if (between && step % kBetweenEvery == 0) between();
    for (size_t i = 0; i < runs.size(); ++i) {
      Forward& fwd = *runs[i].fwd;
      Lane& lane = lanes[i];
      lane.records.push_back(std::make_unique<ForwardRecord>());
      const auto t0 = RoofClock::now();
      TS_TRY(fwd.run(*lane.kv, std::span<const int>(&lane.next, 1), options(runs[i].level),
                     lane.records.back().get()));
      lane.secs += roof_seconds(t0);
      lane.next = argmax_of(fwd.logits());
    }
  }
  if (between) between();
  for (size_t i = 0; i < runs.size(); ++i) {
    *runs[i].tokens_per_s = lanes[i].secs > 0 ? steps / lanes[i].secs : 0.0;
    if (runs[i].lens_seconds) *runs[i].lens_seconds = time_lens(*runs[i].fwd, lanes[i].records);
  }
  return ok_status();
}

// Greedy ids and logits of Forward (at `level`) over check_steps steps against one
// reference_forward of the same sequence.
Status check_agreement(Forward& fwd, int check_steps, RecordLevel level,
                       RooflineShapeResult& r) {
  const Model& model = fwd.model();
  const ModelConfig& c = model.config;
  const int n_prompt = std::min(5, c.n_ctx - check_steps);
  const int steps = std::min(check_steps, c.n_ctx - n_prompt + 1);
  if (n_prompt < 1 || steps < 1) return make_error("context too short for the agreement check");
  std::vector<int> seq = bench_tokens(n_prompt, c.vocab_size, 17);
  KvCache kv(c, c.n_ctx);
  const ForwardOptions opt{level, ForwardOptions{}.position_top_k, ForwardOptions{}.lens_top_k};
  std::vector<Vec> logits;  // (steps) x (vocab_size)
  std::vector<int> ids;     // (steps) greedy picks of Forward
  for (int i = 0; i < steps; ++i) {
    ForwardRecord rec;
    const std::span<const int> in = i == 0 ? std::span<const int>(seq)
                                           : std::span<const int>(&seq.back(), 1);
    TS_TRY(fwd.run(kv, in, opt, &rec));
    logits.push_back(fwd.logits());
    ids.push_back(argmax_of(fwd.logits()));
    if (i + 1 < steps) seq.push_back(ids.back());
  }
  const Mat ref = reference_forward(model, seq);  // (seq.size(), vocab_size)
  if (ref.rows() != static_cast<Eigen::Index>(seq.size())) {
    return make_error("reference_forward refused the sequence");
  }
  for (int i = 0; i < steps; ++i) {
    const auto row = ref.row(n_prompt - 1 + i);
    const double scale = row.cwiseAbs().maxCoeff();
    const double tol = logit_tolerance(model) * std::max(1.0, scale);
    const double diff = (row.transpose() - logits[i]).cwiseAbs().maxCoeff();
    Eigen::Index best = 0;
    row.maxCoeff(&best);
    const bool same_id = best == ids[i] || row(best) - row(ids[i]) <= tol;  // near tie
    r.logit_scale = std::max(r.logit_scale, scale);
    r.max_logit_diff = std::max(r.max_logit_diff, diff);
    if (!same_id && r.agree_note.empty()) {
      r.agree_note = std::string("record ") + record_level_name(level) + ", step " +
                     std::to_string(i) + ": greedy id " + std::to_string(ids[i]) +
                     ", reference " + std::to_string(best);
    }
    if (diff > tol && r.agree_note.empty()) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "record %s, step %d: logits differ by %.3g (tolerance %.3g)",
                    record_level_name(level), i, diff, tol);
      r.agree_note = buf;
    }
  }
  r.checked_steps = steps;
  return ok_status();
}

Status measure_shape(const Model& model, const RooflineOptions& opt, const RooflineReport& rep,
                     RooflineShapeResult& r,
                     const std::function<void(const std::string&)>& progress) {
  const ModelConfig& c = model.config;
  r.config = c;
  r.params = static_cast<double>(model.parameter_count());
  r.weight_bytes_per_token =
      estimate_cost(c, PassShape{c.n_ctx / 2, 1, 1}, false, weight_bytes_per_value(model))
          .weight_bytes;
  // One multi-threaded Forward for every level: a second pool's workers, spinning after their
  // job, would take the cores from the one running.
  Forward fwd1(model, 1), fwdn(model, opt.threads);
  auto say = [&](const std::string& what) {
    if (progress) progress("roofline: " + r.name + ": " + what);
  };

  say("agreement with reference_forward");
  r.agree_note.clear();
  TS_TRY(check_agreement(fwdn, opt.check_steps, RecordLevel::Off, r));
  TS_TRY(check_agreement(fwdn, opt.check_steps, RecordLevel::Full, r));
  r.agrees = r.agree_note.empty();

  for (int len : opt.prefill_lengths) {
    PrefillResult p;
    p.tokens = std::clamp(len, 1, c.n_ctx);
    say("prefill " + std::to_string(p.tokens) + " tokens");
    const std::vector<int> prompt = bench_tokens(p.tokens, c.vocab_size, 5);
    p.flops = estimate_cost(c, PassShape{0, p.tokens, 1}, false).flops;
    // A tenth of the machine probe's FMA work per run (~15 ms here by default).
    const Result<PrefillTiming> tm = time_prefill(fwdn, prompt, p.flops, opt.probe.fma_flops / 10);
    if (!tm.ok()) return tm.error();
    if (!tm->probe_checked) return make_error("the FMA probe next to the prefill gave a wrong sum");
    p.tokens_per_s = tm->tokens_per_s;
    p.flops_per_s = tm->flops_per_s;
    p.compute_fraction = tm->compute_fraction;
    r.prefill.push_back(p);
  }

  const int n_prompt = std::min(16, std::max(1, c.n_ctx / 4));
  const std::vector<int> prompt = bench_tokens(n_prompt, c.vocab_size, 9);
  r.decode_steps = std::max(1, std::min(opt.decode_steps, c.n_ctx - n_prompt));
  say("decode " + std::to_string(r.decode_steps) + " tokens at off (1 and " +
      std::to_string(opt.threads) + " threads), summary, full");
  const DecodeRun runs[] = {{&fwd1, RecordLevel::Off, &r.decode_off_1t},
                            {&fwdn, RecordLevel::Off, &r.decode_off},
                            {&fwdn, RecordLevel::Summary, &r.decode_summary},
                            {&fwdn, RecordLevel::Full, &r.decode_full, &r.lens_seconds}};
  // The bandwidth is probed again between the decode steps (same buffer size as the machine
  // probe, on the decode's own threads), so the decode is compared with what the memory gave in
  // the same seconds.
  ReadProbe read(fwdn.pool(), opt.probe.read_bytes);
  TS_TRY(time_decodes(runs, prompt, r.decode_steps,
                      [&] { r.decode_read_bytes_per_s = std::max(r.decode_read_bytes_per_s, read.pass()); }));
  if (!read.checked()) return make_error("the bandwidth probe between the decode steps summed wrong");
  if (r.decode_read_bytes_per_s > 0) {
    r.memory_fraction = r.decode_off * r.weight_bytes_per_token / r.decode_read_bytes_per_s;
  }
  if (r.decode_summary > 0) r.summary_ratio = r.decode_off / r.decode_summary;
  if (r.decode_full > 0) r.full_ratio = r.decode_off / r.decode_full;
  r.ran = true;
  return ok_status();
}

}  // namespace

Result<ModelConfig> roofline_shape_config(const std::string& name) {
  if (name == "15M") return stories_shape("random stories15M shape", 288, 768, 6, 6, 32000, 256);
  if (name == "42M") return stories_shape("random stories42M shape", 512, 1376, 8, 8, 32000, 1024);
  if (name == "110M") {
    return stories_shape("random stories110M shape", 768, 2048, 12, 12, 32000, 1024);
  }
  if (name == "152k") {  // the 15M body with Qwen2.5's vocabulary (bench --step)
    return stories_shape("random stories15M shape, 151,936-token vocabulary", 288, 768, 6, 6,
                         151936, 256);
  }
  if (name == "0.5B") return qwen2_05b_config();
  if (name == "tiny") return stories_shape("random tiny shape", 64, 172, 2, 4, 512, 128);
  if (name.rfind("tiny-", 0) == 0) {  // the tiny shape in any family of engine/family.h
    ModelConfig c = stories_shape("random tiny shape", 64, 172, 2, 4, 512, 128);
    if (!set_family(c, name.substr(5))) {
      return make_error("unknown shape '" + name + "': after tiny- comes a family (" +
                        family_names() + ")");
    }
    c.name = "random tiny " + name.substr(5) + " shape";
    const Family& f = *family_of(c);
    if (f.qkv_bias == BiasRule::IfPresent) c.qkv_bias = true;  // the fuller block
    c.tied_embeddings = false;  // every family reads an output matrix; not all tie it
    c.n_kv_heads = f.positions == PositionKind::Rope ? 2 : 4;  // GQA where the family has RoPE
    return c;
  }
  return make_error("unknown shape '" + name + "' (15M, 42M, 110M, 152k, 0.5B, model)");
}

Result<LoadedModel> roofline_shape_model(const std::string& name, const ModelConfig& c) {
  if (name == "0.5B") return random_model_as(c, roofline_seed(c), GgmlType::Q8_0);
  return random_model(c, roofline_seed(c));
}

bool RooflineReport::all_agree() const {
  for (const RooflineShapeResult& s : shapes) {
    if (s.ran && !s.agrees) return false;
  }
  return true;
}

Result<RooflineReport> run_roofline(const RooflineOptions& opt,
                                    const std::function<void(const std::string&)>& progress) {
  for (const std::string& name : opt.shapes) {
    if (name != "model" && !roofline_shape_config(name).ok()) {
      return roofline_shape_config(name).error();
    }
  }
  RooflineReport rep;
  rep.vector_floats = probe_vector_floats();
  if (progress) progress("roofline: probes (memory read bandwidth, FMA peak) at 1 thread");
  rep.probe_1t = run_probes(1, opt.probe);
  if (progress) {
    progress("roofline: probes at " + std::to_string(opt.threads) + " threads");
  }
  rep.probe_nt = run_probes(opt.threads, opt.probe);

  for (const std::string& name : opt.shapes) {
    RooflineShapeResult r;
    r.name = name;
    const auto t0 = RoofClock::now();
    LoadedModel lm;
    if (name == "model") {
      if (opt.model_path.empty()) {
        r.note = "skipped: " + opt.model_note;
        rep.shapes.push_back(r);
        continue;
      }
      Result<LoadedModel> m = load_model_file(opt.model_path, opt.tokenizer_path);
      if (!m.ok()) {
        r.note = "skipped: " + m.error().message;
        rep.shapes.push_back(r);
        continue;
      }
      lm = std::move(m.value());
      r.note = opt.model_path;
    } else {
      const ModelConfig c = roofline_shape_config(name).value();  // checked above
      if (progress) progress("roofline: " + name + ": random weights");
      Result<LoadedModel> m = roofline_shape_model(name, c);
      if (!m.ok()) return m.error();
      lm = std::move(m.value());
      r.note = c.name;
    }
    if (Status st = measure_shape(lm.model, opt, rep, r, progress); !st.ok()) {
      r.ran = false;
      r.note = "failed: " + st.error().message;
    }
    r.seconds = roof_seconds(t0);
    rep.shapes.push_back(std::move(r));
  }
  return rep;
}

}  // namespace ts::bench
