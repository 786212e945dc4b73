// Bench measurements: run sessions at the required record level and time or weigh them.
#include "bench/bench_measure.h"

#include <algorithm>
#include <chrono>

#include "base/rng.h"
#include "bench/bench_models.h"
#include "session/path_queries.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int best_non_eos(const Session& s, const Step& st) {
  for (const Candidate& c : st.sampling.raw) {
    if (c.id != s.tokenizer().eos_id() && c.id != s.tokenizer().bos_id()) return c.id;
  }
  return s.tokenizer().eos_id() == 3 ? 4 : 3;
}

}  // namespace

Status run_without_eos(Session& s, int until_step) {
  while (s.cursor() < until_step) {
    if (all_stopped(s)) {
      const Step* st = current_step(s, 0);
      if (!st || st->stop != StopReason::Eos) break;
      TS_TRY(s.force(best_non_eos(s, *st)));
      continue;
    }
    TS_TRY(s.step());
  }
  return ok_status();
}

MemoryResult bench_memory_default(const std::string& model_path, int n_threads) {
  MemoryResult r;
  r.name = "default model, whole context, record full";
  r.budget = size_t{32} << 20;
  if (model_path.empty()) {
    r.note = "skipped: no default model";
    return r;
  }
  Session s(SessionOptions{n_threads});
  const auto t0 = Clock::now();
  if (Status st = s.load_model(model_path); !st.ok()) {
    r.note = "skipped: " + st.error().message;
    return r;
  }
  const int n_ctx = config(s).n_ctx;
  Status st = set_record_level(s, RecordLevel::Full);
  if (st.ok()) st = s.set_prompt("Once upon a time");
  if (st.ok()) st = set_max_tokens(s, n_ctx);
  if (st.ok()) st = run_without_eos(s, n_ctx);
  if (!st.ok()) {
    r.note = "failed: " + st.error().message;
    return r;
  }
  r.seconds = seconds_since(t0);
  r.ran = true;
  r.bytes = record_bytes(s);
  r.prompt_tokens = static_cast<int>(prompt_tokens(s).size());
  r.generated = path_length(s, 0);
  r.note = model_info(s).path + ": " + std::to_string(r.prompt_tokens + r.generated) + " of " +
           std::to_string(n_ctx) + " positions";
  return r;
}

MemoryResult bench_memory_gpt2(int n_threads) {
  MemoryResult r;
  r.name = "random GPT-2 124M, 768-token prompt + 256 tokens, record full";
  r.budget = size_t{512} << 20;
  const auto t0 = Clock::now();
  Session s(SessionOptions{n_threads});
  if (Status st = s.set_model(random_model(gpt2_124m_config(), 124)); !st.ok()) {
    r.note = "failed: " + st.error().message;
    return r;
  }
  std::string prompt;
  for (int i = 0; i < 767; ++i) prompt += static_cast<char>('a' + i % 26);  // + BOS = 768
  Status st = set_record_level(s, RecordLevel::Full);
  if (st.ok()) st = s.set_prompt(prompt);
  if (st.ok()) st = set_max_tokens(s, 256);
  if (st.ok() && prompt_tokens(s).size() != 768) {
    st = make_error("prompt is " + std::to_string(prompt_tokens(s).size()) + " tokens, not 768");
  }
  if (st.ok()) st = run_without_eos(s, 1024);
  if (!st.ok()) {
    r.note = "failed: " + st.error().message;
    return r;
  }
  r.seconds = seconds_since(t0);
  r.ran = true;
  r.bytes = record_bytes(s);
  r.prompt_tokens = static_cast<int>(prompt_tokens(s).size());
  r.generated = path_length(s, 0);
  r.note = std::to_string(r.prompt_tokens + r.generated) + " of 1024 positions";
  return r;
}

SeekResult bench_seek(int steps, int n_threads, ModelConfig shape) {
  SeekResult r;
  Session s(SessionOptions{n_threads});
  shape.n_ctx = std::max(shape.n_ctx, steps + 64);
  Status st = s.set_model(random_model(shape, 7, 0.05f));
  if (st.ok()) st = set_record_level(s, RecordLevel::Summary);
  if (st.ok()) st = s.set_prompt("seek");
  if (st.ok()) st = set_max_tokens(s, steps);
  if (st.ok()) st = run_without_eos(s, steps - 1);
  if (!st.ok()) {
    r.note = "failed: " + st.error().message;
    return r;
  }
  r.steps = path_length(s, 0);
  // Seeks to scattered steps along the path.
  SplitMix rng(99);
  r.seeks = 1000;
  double total = 0;
  for (int i = 0; i < r.seeks; ++i) {
    const int target = static_cast<int>(rng.below(static_cast<uint64_t>(r.steps)));
    const auto t0 = Clock::now();
    if (!s.seek(target).ok()) {
      r.note = "seek failed: " + s.last_error();
      return r;
    }
    const double us = seconds_since(t0) * 1e6;
    total += us;
    r.seek_max_us = std::max(r.seek_max_us, us);
  }
  r.seek_mean_us = total / r.seeks;
  // Two long branches forked near the start: switching restores almost every KV row.
  const int leaf_a = timeline(s, 0).path().back();
  if (!s.seek(5).ok()) return r;
  const int other = current_step(s)->token == 300 ? 301 : 300;
  if (!s.force(other).ok() || !run_without_eos(s, r.steps - 1).ok()) {
    r.note = "branch failed: " + s.last_error();
    return r;
  }
  const int leaf_b = timeline(s, 0).path().back();
  const int n_switch = 20;
  double sw = 0;
  for (int i = 0; i < n_switch; ++i) {
    const auto t0 = Clock::now();
    if (!s.switch_branch(i % 2 ? leaf_b : leaf_a).ok()) {
      r.note = "switch failed: " + s.last_error();
      return r;
    }
    sw += seconds_since(t0) * 1e6;
  }
  r.switch_mean_us = sw / n_switch;
  r.ran = true;
  return r;
}

std::vector<SpeedResult> bench_speed(const std::string& model_path, int n_threads,
                                     std::string& note) {
  std::vector<SpeedResult> out;
  if (model_path.empty()) {
    note = "skipped: no default model";
    return out;
  }
  for (RecordLevel level : {RecordLevel::Off, RecordLevel::Summary, RecordLevel::Full}) {
    Session s(SessionOptions{n_threads});
    if (Status st = s.load_model(model_path); !st.ok()) {
      note = "skipped: " + st.error().message;
      return out;
    }
    const int n = std::min(256, config(s).n_ctx - 8);
    Status st = set_record_level(s, level);
    if (st.ok()) st = s.set_prompt("Once upon a time");
    if (st.ok()) st = set_max_tokens(s, n + 1);
    if (st.ok()) st = s.step();  // the prefill, not timed
    double secs = 0;
    int decoded = 0;
    while (st.ok() && decoded < n) {
      if (all_stopped(s)) {
        if (stop_reason(s, 0) != StopReason::Eos) break;
        st = s.force(best_non_eos(s, *current_step(s, 0)));
        continue;
      }
      const auto t0 = Clock::now();
      st = s.step();
      secs += seconds_since(t0);
      ++decoded;
    }
    if (!st.ok()) {
      note = "failed: " + st.error().message;
      return out;
    }
    out.push_back({record_level_name(level), decoded, secs > 0 ? decoded / secs : 0});
  }
  note = model_path;
  return out;
}

}  // namespace ts::bench
