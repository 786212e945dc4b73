// The soak driver: picks commands with a seeded SplitMix, runs them on the session, and checks
// the invariants (KV == path, cursor in range, labels valid UTF-8, errors one line) after each;
// replays every lane's path in a second session to compare bit for bit. Model lookup for
// `bench --soak` and the printed summary are at the end.
#include "bench/soak.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "base/rng.h"
#include "base/utf8.h"
#include "session/command.h"
#include "session/default_model.h"
#include "session/path_queries.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts {

namespace {

size_t rss_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

const char* const kPrompts[] = {"Once upon a time", "", "The",
                                "\xF0\x9F\x98\x80 e\xCC\x81 caf\xC3\xA9 \xFF\xFE"};

// Sampler settings at and beyond the usual ranges (all valid: validate() accepts each).
SamplerSettings random_settings(SplitMix& rng, int vocab) {
  SamplerSettings s;
  const float temps[] = {0.0f, 0.7f, 1.0f, 1.5f, 1e6f};
  stage<Temperature>(s).t = temps[rng.below(5)];
  const int ks[] = {0, 1, 5, vocab, vocab + 1};
  stage<TopK>(s).k = ks[rng.below(5)];
  const float ps[] = {1.0f, 0.9f, 1e-6f};
  stage<TopP>(s).p = ps[rng.below(3)];
  const float mins[] = {0.0f, 0.05f, 1.0f};
  stage<MinP>(s).p = mins[rng.below(3)];
  const uint64_t seeds[] = {0, 42, UINT64_MAX};
  s.seed = seeds[rng.below(3)];
  if (rng.below(4) == 0) stage<Penalties>(s).repeat = 1.3f;
  s.label = describe(s);
  return s;
}

class Soak {
 public:
  Soak(Session& s, const SoakOptions& opt) : s_(s), opt_(opt), rng_(opt.seed) {}

  Status setup() {
    if (!has_model(s_)) return make_error("soak: the session has no model");
    while (lane_count(s_) > 1) TS_TRY(s_.remove_lane(lane_count(s_) - 1));
    SamplerSettings greedy;
    stage<Temperature>(greedy).t = 0;
    greedy.label = "greedy";
    TS_TRY(s_.set_sampler(0, greedy));
    SamplerSettings warm;
    stage<Temperature>(warm).t = 0.8f;
    stage<TopK>(warm).k = 40;
    warm.label = "T=0.8 top-k=40";
    if (Result<int> r = s_.add_lane(warm); !r.ok()) return r.error();
    SamplerSettings nucleus;
    stage<TopP>(nucleus).p = 0.9f;
    nucleus.seed = 7;
    nucleus.label = "top-p=0.9";
    if (Result<int> r = s_.add_lane(nucleus); !r.ok()) return r.error();
    TS_TRY(set_record_level(s_, RecordLevel::Full));
    TS_TRY(set_max_tokens(s_, opt_.max_tokens));
    TS_TRY(set_stop_strings(s_, {}));
    TS_TRY(s_.set_prompt(kPrompts[0]));
    return ok_status();
  }

  SoakReport run() {
    const auto t0 = std::chrono::steady_clock::now();
    r_.rss_start = r_.rss_peak = rss_bytes();
    for (int i = 0; i < opt_.iterations && r_.ok(); ++i) {
      one_command();
      ++r_.iterations;
      check_invariants();
      if (i % 50 == 49) sample_memory();
      if (opt_.replay_every > 0 && i % opt_.replay_every == opt_.replay_every - 1) replay_all();
      if (opt_.progress && opt_.progress_every > 0 && i % opt_.progress_every == 0 && i > 0) {
        opt_.progress(r_);
      }
    }
    if (r_.ok()) replay_all();
    sample_memory();
    r_.rss_end = rss_bytes();
    r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r_;
  }

 private:
  void fail(const std::string& what) {
    if (r_.failures.size() < 10) {
      r_.failures.push_back("command " + std::to_string(r_.iterations) + " (" + last_ + "): " +
                            what);
    }
  }

  // Runs a command; an error is allowed but must be one non-empty line of valid UTF-8.
  void run(const std::string& what, const Status& st) {
    last_ = what;
    if (st.ok()) return;
    ++r_.refused;
    const std::string& m = st.error().message;
    if (m.empty() || m.find('\n') != std::string::npos || !utf8_valid(m)) {
      fail("bad error message: '" + utf8_sanitize(m) + "'");
    }
  }

  // The same, for a command of the session's vocabulary (command.h), as every front end sends.
  void run(const std::string& what, const SessionCommand& c) { run(what, apply_command(s_, c)); }

  int pick(int n) { return n > 0 ? static_cast<int>(rng_.below(static_cast<uint64_t>(n))) : 0; }

  void one_command() {
    const int r = pick(100);
    const int lanes = lane_count(s_);
    lane_ = std::min(lane_, lanes - 1);
    if (r < 35) {
      ++r_.ops[int(SoakOp::Step)];
      if (pick(5) == 0) {
        const int to = s_.cursor() + 1 + pick(5);
        run("run-to " + std::to_string(to), cmd::RunTo{to});
      } else {
        run("step", cmd::Step{});
      }
    } else if (r < 55) {
      ++r_.ops[int(SoakOp::Rewind)];
      const int c = pick(10);
      if (c < 4) {
        run("back", cmd::Back{});
      } else if (c < 8) {
        const int to = pick(max_path_length(s_) + 1) - 1;
        run("seek " + std::to_string(to), cmd::Seek{to});
      } else {
        if (c == 8) {
          run("first", cmd::First{});
        } else {
          run("last", cmd::Last{});
        }
      }
    } else if (r < 70) {
      ++r_.ops[int(SoakOp::Force)];
      int token = pick(config(s_).vocab_size);
      if (const Step* cur = current_step(s_, lane_); cur && pick(5) < 3) {
        const auto& dist = cur->sampling.final_dist;
        if (!dist.empty()) token = dist[pick(static_cast<int>(dist.size()))].id;
      }
      run("force " + std::to_string(token) + " lane " + std::to_string(lane_),
          cmd::Force{token, lane_});
    } else if (r < 83) {
      ++r_.ops[int(SoakOp::Lane)];
      lane_command();
    } else if (r < 99) {
      ++r_.ops[int(SoakOp::Branch)];
      const std::vector<BranchInfo> bs = branches(s_, lane_);
      int node = pick(std::max(1, timeline(s_, lane_).size()));
      if (!bs.empty() && pick(5) > 0) {
        const BranchInfo& b = bs[pick(static_cast<int>(bs.size()))];
        node = pick(2) ? b.leaf : b.fork_node;
      }
      run("switch-branch " + std::to_string(node) + " lane " + std::to_string(lane_),
          cmd::SwitchBranch{node, lane_});
    } else {
      reset("prompt");
    }
  }

  void lane_command() {
    const int c = pick(20);
    if (c < 10) {
      lane_ = pick(lane_count(s_));
      last_ = "select lane " + std::to_string(lane_);
    } else if (c < 14 && lane_count(s_) < kMaxLanes) {
      const SamplerSettings set = random_settings(rng_, config(s_).vocab_size);
      run("add-lane " + set.label, cmd::AddLane{set});
    } else if (c < 17 && lane_count(s_) > 1) {
      const int victim = pick(lane_count(s_));
      run("remove-lane " + std::to_string(victim), cmd::RemoveLane{victim});
      lane_ = 0;
    } else {
      const SamplerSettings set = random_settings(rng_, config(s_).vocab_size);
      run("set-sampler " + std::to_string(lane_) + " " + set.label,
          cmd::SetSampler{lane_, set});
    }
  }

  void reset(const char* why) {
    ++r_.ops[int(SoakOp::Reset)];
    const char* p = kPrompts[pick(4)];
    const std::string text = p == kPrompts[3] ? std::string(p) + std::string(1, '\0') : p;
    run(std::string("reset (") + why + ")", cmd::SetPrompt{text});
    r_.rss_after_reset.push_back(rss_bytes());
    const size_t first = r_.rss_after_reset.front(), now = r_.rss_after_reset.back();
    if (opt_.max_rss_growth > 0 && now > first + opt_.max_rss_growth) {
      fail("RSS after a reset grew from " + std::to_string(first >> 20) + " MiB to " +
           std::to_string(now >> 20) + " MiB");
    }
  }

  void sample_memory() {
    const size_t rss = rss_bytes();
    r_.rss_peak = std::max(r_.rss_peak, rss);
    const size_t rec = record_bytes(s_);
    r_.record_bytes_peak = std::max(r_.record_bytes_peak, rec);
    int nodes = 0;
    for (int l = 0; l < lane_count(s_); ++l) nodes += timeline(s_, l).size();
    r_.max_nodes = std::max(r_.max_nodes, nodes);
    if (rec > opt_.record_budget) reset("record budget");
  }

  void check_invariants() {
    const int cursor = s_.cursor();
    if (cursor < -1 || cursor > std::max(-1, max_path_length(s_) - 1)) {
      return fail("cursor " + std::to_string(cursor) + " outside the timeline");
    }
    const int n_prompt = static_cast<int>(prompt_tokens(s_).size());
    for (int lane = 0; lane < lane_count(s_); ++lane) {
      const Step* cur = current_step(s_, lane);
      const int want = cur ? n_prompt + cur->index : 0;
      if (kv_length(s_, lane) != want) {
        return fail("lane " + std::to_string(lane) + ": KV length " +
                    std::to_string(kv_length(s_, lane)) + " != position " + std::to_string(want));
      }
      if (cur && cur->index != std::min(cursor, path_length(s_, lane) - 1)) {
        return fail("lane " + std::to_string(lane) + ": current step is not at the cursor");
      }
      const KvCache& kv = s_.lanes()[lane].kv;
      for (int p = 0; p < kv.length(); ++p) {
        const Step* st = step_at(s_, lane, p < n_prompt ? 0 : p - n_prompt + 1);
        if (!st || !st->kv_rows) return fail("no step wrote KV row " + std::to_string(p));
        const KvRows& rows = *st->kv_rows;
        for (int l = 0; l < kv.n_layers(); ++l) {
          if (kv.keys(l).row(p) != rows.k[l].row(p - rows.first_pos) ||
              kv.values(l).row(p) != rows.v[l].row(p - rows.first_pos)) {
            return fail("lane " + std::to_string(lane) + ": KV row " + std::to_string(p) +
                        " of layer " + std::to_string(l) + " differs from its step's rows");
          }
        }
      }
      if (cur && !utf8_valid(cur->display)) return fail("a token label is not valid UTF-8");
    }
  }

  // Each lane's whole current path, recomputed from scratch with the same forced tokens.
  void replay_all() {
    if (prompt_tokens(s_).empty()) return;
    Session r(s_.options());
    Status st = r.set_model(*s_.loaded());
    if (st.ok()) st = set_record_level(r, record_level(s_));
    if (st.ok()) st = set_max_tokens(r, max_tokens(s_));
    if (st.ok()) st = set_stop_strings(r, stop_strings(s_));
    if (st.ok()) st = r.set_prompt(prompt_text(s_));
    if (!st.ok()) return fail("replay setup: " + st.error().message);
    for (int lane = 0; lane < lane_count(s_) && r_.ok(); ++lane) {
      if (Status c = first(r); !c.ok()) return fail("replay first: " + c.error().message);
      if (Status c = r.set_sampler(0, settings(s_, lane)); !c.ok()) {
        return fail("replay sampler: " + c.error().message);
      }
      for (int k = 0; k < path_length(s_, lane); ++k) {
        const Step& a = *step_at(s_, lane, k);
        Status c = r.step();
        if (c.ok() && a.forced) c = r.force(a.token);
        if (!c.ok()) return fail("replay step " + std::to_string(k) + ": " + c.error().message);
        const Step* b = step_at(r, 0, k);
        const std::string diff = b ? step_difference(a, *b) : "missing";
        if (!diff.empty()) {
          return fail("lane " + std::to_string(lane) + " step " + std::to_string(k) +
                      ": the replay differs from the original (" + diff + ")");
        }
        ++r_.replayed_steps;
      }
      ++r_.replays;
    }
  }

  // "" when b reproduces a bit for bit, else the first field that differs.
  static std::string step_difference(const Step& a, const Step& b) {
    auto num = [](double x) { return std::to_string(x); };
    if (a.token != b.token) return "token " + num(a.token) + " vs " + num(b.token);
    if (a.sampled_token != b.sampled_token) {
      return "sampled token " + num(a.sampled_token) + " vs " + num(b.sampled_token);
    }
    if (a.forced != b.forced) return "forced flag";
    if (a.position != b.position) return "position";
    if (a.stop != b.stop) {
      return std::string("stop ") + stop_reason_name(a.stop) + " vs " + stop_reason_name(b.stop);
    }
    if (a.piece != b.piece) return "piece";
    if (std::memcmp(&a.chosen_p, &b.chosen_p, sizeof(float)) != 0) {
      return "chosen p " + num(a.chosen_p) + " vs " + num(b.chosen_p);
    }
    if (a.sampling.draw.u != b.sampling.draw.u) return "u";
    const auto& la = a.forward->logits;
    const auto& lb = b.forward->logits;
    if (la.size() != lb.size() ||
        (!la.empty() && std::memcmp(la.data(), lb.data(), la.size() * sizeof(float)) != 0)) {
      return "logits";
    }
    return "";
  }

  Session& s_;
  const SoakOptions& opt_;
  SplitMix rng_;
  SoakReport r_;
  int lane_ = 0;
  std::string last_ = "start";
};

std::string mib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

const char* soak_op_name(SoakOp op) {
  switch (op) {
    case SoakOp::Step: return "step";
    case SoakOp::Rewind: return "rewind";
    case SoakOp::Force: return "force";
    case SoakOp::Lane: return "lane";
    case SoakOp::Branch: return "branch";
    case SoakOp::Reset: return "reset";
  }
  return "?";
}

Result<SoakReport> run_soak(Session& s, const SoakOptions& opt) {
  Soak soak(s, opt);
  TS_TRY(soak.setup());
  SoakReport r = soak.run();
  r.model = model_info(s).path;
  return r;
}

Result<SoakModel> find_soak_model(const std::string& model_path,
                                  const std::string& tokenizer_path,
                                  const std::string& source_dir) {
  namespace fs = std::filesystem;
  if (!model_path.empty()) return SoakModel{model_path, tokenizer_path, ""};
  Result<std::string> def = find_default_model(source_dir, "");
  if (def.ok()) return SoakModel{def.value(), "", ""};
  // Each candidate is <root>/models/tales-4m.gguf; the golden data sits at <root>/../shared.
  std::error_code ec;
  for (const std::string& cand : default_model_candidates(source_dir, "")) {
    const fs::path root = fs::path(cand).parent_path().parent_path();
    const fs::path dir = root.parent_path() / "shared" / "golden" / "llama2c";
    if (fs::is_regular_file(dir / "aidreams260K.bin", ec) &&
        fs::is_regular_file(dir / "tok512.bin", ec)) {
      return SoakModel{(dir / "aidreams260K.bin").string(), (dir / "tok512.bin").string(),
                       std::string("the default model ") + kDefaultModelName +
                           " is absent; soaking the llama2.c model aidreams260K.bin instead"};
    }
  }
  return make_error("soak: " + def.error().message);
}

Result<SoakReport> run_soak_bench(int iterations, const std::string& model_path,
                                  const std::string& tokenizer_path,
                                  const std::function<void(const std::string&)>& log,
                                  const std::string& source_dir) {
  Result<SoakModel> m = find_soak_model(model_path, tokenizer_path, source_dir);
  if (!m.ok()) return m.error();
  if (log && !m->note.empty()) log("soak: " + m->note);
  Session s;
  TS_TRY(s.load_model(m->model, m->tokenizer));
  if (log) log("soak: " + std::to_string(iterations) + " commands on " + m->model);
  SoakOptions opt;
  opt.iterations = iterations;
  opt.max_rss_growth = 64u << 20;
  opt.progress = [&log](const SoakReport& r) {
    if (log) {
      log("soak: " + std::to_string(r.iterations) + " commands, RSS " + mib(rss_bytes()) +
          ", largest tree " + std::to_string(r.max_nodes) + " nodes");
    }
  };
  return run_soak(s, opt);
}

std::string soak_summary(const SoakReport& r) {
  std::string out = "soak: " + std::to_string(r.iterations) + " commands";
  if (!r.model.empty()) out += " on " + r.model;
  char buf[64];
  std::snprintf(buf, sizeof buf, " in %.1f s\n", r.seconds);
  out += buf;
  out += "  commands:";
  for (int i = 0; i < kSoakOpCount; ++i) {
    out += std::string(i ? ", " : " ") + soak_op_name(static_cast<SoakOp>(i)) + " " +
           std::to_string(r.ops[i]);
  }
  out += " (" + std::to_string(r.refused) + " refused with a clean error)\n";
  out += "  replays: " + std::to_string(r.replays) + " lane paths, " +
         std::to_string(r.replayed_steps) + " steps, bit-identical\n";
  out += "  memory: RSS start " + mib(r.rss_start) + ", peak " + mib(r.rss_peak) + ", end " +
         mib(r.rss_end) + "; records peak " + mib(r.record_bytes_peak) + ", largest tree " +
         std::to_string(r.max_nodes) + " nodes\n";
  if (!r.rss_after_reset.empty()) {
    out += "  RSS after resets: first " + mib(r.rss_after_reset.front()) + ", last " +
           mib(r.rss_after_reset.back()) + " (" + std::to_string(r.rss_after_reset.size()) +
           " resets)\n";
  }
  if (r.ok()) {
    out += "  invariants: every one held (KV length = position, KV rows = path, replay = "
           "original)\n";
  } else {
    for (const std::string& f : r.failures) out += "  FAILED: " + f + "\n";
  }
  return out;
}

}  // namespace ts
