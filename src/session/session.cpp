// Session commands that change the model, the prompt or the settings, and the recomputation
// they trigger. The generation loop (step, seek, force, branches) is in session_loop.cpp, play
// and the phase cursor in session_play.cpp; the free queries and commands in their own files.
#include "session/session.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <system_error>
#include <utility>

#include "formats/memory_budget.h"
#include "session/path_queries.h"
#include "session/session_access.h"
#include "session/side_runs.h"

namespace ts {

namespace {

// A file states n_ctx freely, and each lane's KV cache (plus the forward scratch) is allocated
// for all of it up front: a context whose cache would pass this is refused before allocating.
constexpr double kMaxKvBytesPerLane = 1024.0 * 1024.0 * 1024.0;

uint64_t kv_bytes_per_lane(const ModelConfig& c) {
  return uint64_t{2} * static_cast<uint64_t>(c.n_layers) * static_cast<uint64_t>(c.kv_dim()) *
         sizeof(float) * static_cast<uint64_t>(c.n_ctx);
}

SamplerSettings default_lane_settings() {
  SamplerSettings s;
  s.label = "lane 1";
  return s;
}

}  // namespace

Result<Tokenizer> check_model_runnable(const ModelConfig& mc, const TokenizerData& td,
                                       const std::string& path) {
  const std::string name = path.empty() ? "model" : path;
  if (td.tokens.empty()) {
    return make_error("the model file carries no tokenizer: give its tokenizer file too");
  }
  if (mc.n_ctx < 2) {
    return make_error(name + ": context length " + std::to_string(mc.n_ctx) +
                      " is too short: a prompt token and a generated one need at least 2");
  }
  const double kv_bytes = static_cast<double>(kv_bytes_per_lane(mc));
  if (kv_bytes > kMaxKvBytesPerLane) {
    return make_error(name + ": context length " + std::to_string(mc.n_ctx) + " needs " +
                      std::to_string(static_cast<long long>(kv_bytes / 1048576.0)) +
                      " MiB of KV cache per lane (at most 1024 MiB)");
  }
  TS_TRY(check_allocation(name + ": the KV cache of one lane", kv_bytes_per_lane(mc)));
  Result<Tokenizer> tok = Tokenizer::create(td);
  if (!tok.ok()) return make_error("tokenizer: " + tok.error().message);
  if (tok->vocab_size() > mc.vocab_size) {
    return make_error("tokenizer has " + std::to_string(tok->vocab_size()) +
                      " tokens but the model only " + std::to_string(mc.vocab_size));
  }
  return tok;
}

Session::Session(SessionOptions opt)
    : opt_(opt), progress_(std::make_unique<Progress>()), side_(std::make_shared<SideRuns>()) {
  Lane lane;
  lane.settings = default_lane_settings();
  lanes_.push_back(std::move(lane));
}

Status Session::finish(Status s) {
  last_error_ = s.ok() ? std::string() : s.error().message;
  progress_->running.store(false);
  return s;
}

Status Session::require_ready() const {
  if (!loaded_) return make_error("no model loaded: open a model file first");
  if (prompt_.tokens.empty()) {
    return make_error(
        "the prompt is empty and this model's tokenizer adds no BOS token: type a prompt");
  }
  return ok_status();
}

Status Session::tokenize_prompt(const std::string& text, std::vector<int>& tokens,
                                int& cut) const {
  cut = 0;
  tokens.clear();
  if (!loaded_) return ok_status();
  const bool add_bos = tokenizer_.data().add_bos && tokenizer_.bos_id() >= 0;
  tokens = tokenizer_.encode(text, add_bos);
  if (tokens.empty()) {
    return make_error(
        "the prompt is empty and this model's tokenizer adds no BOS token: type a prompt");
  }
  for (int id : tokens) {
    if (id < 0 || id >= config(*this).vocab_size) {
      return make_error("the tokenizer produced id " + std::to_string(id) +
                        " outside the model's vocabulary of " +
                        std::to_string(config(*this).vocab_size));
    }
  }
  // Room for at least one generated token: keep the BOS (if any) and the last tokens.
  const int limit = config(*this).n_ctx - 1;
  const int n = static_cast<int>(tokens.size());
  if (n > limit) {
    const bool keep_bos = add_bos && tokens.front() == tokenizer_.bos_id() && limit >= 2;
    std::vector<int> kept;
    if (keep_bos) kept.push_back(tokens.front());
    const int tail = limit - static_cast<int>(kept.size());
    kept.insert(kept.end(), tokens.end() - tail, tokens.end());
    cut = n - limit;
    tokens = std::move(kept);
  }
  return ok_status();
}

void Session::reset_timeline() {
  for (Lane& l : lanes_) {
    l.timeline.clear();
    l.kv.truncate(0);
    l.kv_valid = 0;
  }
  cursor_ = -1;
  phase_cursor_ = -1;
  play_.playing = false;
  play_accum_ = 0.0;
}

Status Session::load_model(const std::string& path, const std::string& tokenizer_path) {
  progress_->cancel.store(false);
  progress_->running.store(true);
  progress_->done.store(0);
  progress_->total.store(1);
  // The weights arrive tensor by tensor: the worker's progress bar follows, Cancel stops it (the
  // previous model, prompt and timeline are kept).
  // Out of memory anywhere in the load (a size the checks let through, another thread's use) is
  // a refusal like any other: the previous model stays.
  try {
    Result<LoadedModel> m = load_model_file(path, tokenizer_path, [this](int done, int total) {
      progress_->total.store(total);
      progress_->done.store(done);
      return !progress_->cancel.load();
    });
    if (!m.ok()) return finish(m.error());
    return set_model(std::move(m).value());
  } catch (const std::bad_alloc&) {
    return finish(make_error(path + ": out of memory while loading (the previous model is kept)"));
  }
}

Status Session::set_model(LoadedModel m) {
  progress_->running.store(true);
  TS_TRY(finish(validate_model(m.model)));
  const ModelConfig mc = m.model.config;
  Result<Tokenizer> tok = check_model_runnable(mc, m.tokenizer, m.info.path);
  if (!tok.ok()) return finish(tok.error());
  // Every lane's cache is allocated before anything is replaced: out of memory keeps the old model.
  const std::string name = m.info.path.empty() ? "model" : m.info.path;
  if (Status st = check_allocation(
          name + ": the KV caches of " + std::to_string(lane_count(*this)) + " lanes",
          kv_bytes_per_lane(mc) * static_cast<uint64_t>(lane_count(*this)));
      !st.ok()) {
    return finish(st);
  }
  std::vector<KvCache> caches;
  std::unique_ptr<LoadedModel> nl;
  std::unique_ptr<Forward> nf;
  try {
    for (size_t i = 0; i < lanes_.size(); ++i) caches.emplace_back(mc, mc.n_ctx);
    nl = std::make_unique<LoadedModel>(std::move(m));
    nf = std::make_unique<Forward>(nl->model, std::max(1, opt_.n_threads));
  } catch (const std::bad_alloc&) {
    return finish(make_error(name + ": out of memory setting up the model (the previous model is "
                             "kept)"));
  } catch (const std::system_error& e) {  // the forward's threads could not be started
    return finish(make_error(name + ": cannot start the forward pass (" + std::string(e.what()) +
                             "); the previous model is kept"));
  }
  forward_ = std::move(nf);  // the old Forward (which refers to the old model) goes first
  loaded_ = std::move(nl);
  side_->clear();  // beam and speculative runs were of the old model
  tokenizer_ = std::move(tok).value();
  for (size_t i = 0; i < lanes_.size(); ++i) lanes_[i].kv = std::move(caches[i]);
  reset_timeline();
  // The prompt text stays; if it does not suit the new model, step() says why.
  std::vector<int> tokens;
  int cut = 0;
  const Status ts = tokenize_prompt(prompt_.text, tokens, cut);
  prompt_.tokens = ts.ok() ? tokens : std::vector<int>{};
  prompt_.cut = ts.ok() ? cut : 0;
  progress_->done.store(1);
  return finish(ok_status());
}

Status Session::set_prompt(const std::string& text) {
  std::vector<int> tokens;
  int cut = 0;
  TS_TRY(finish(tokenize_prompt(text, tokens, cut)));
  prompt_.text = text;
  prompt_.tokens = std::move(tokens);
  prompt_.cut = cut;
  reset_timeline();
  return finish(ok_status());
}

Session::StepPlan Session::step_plan() const {
  StepPlan plan(lanes_.size());
  for (size_t i = 0; i < lanes_.size(); ++i) {
    const Timeline& t = lanes_[i].timeline;
    for (int k = 0; k < t.path_length(); ++k) {
      plan[i].push_back({t.at(k)->forced ? t.at(k)->token : -1, t.at(k)->ablation});
    }
  }
  return plan;
}

Status Session::rebuild(int lane, int target) {
  const StepPlan plan = step_plan();
  for (int i = 0; i < lane_count(*this); ++i) {
    if (lane >= 0 && i != lane) continue;
    lanes_[i].timeline.clear();
    lanes_[i].kv.truncate(0);
    lanes_[i].kv_valid = 0;
  }
  phase_cursor_ = -1;
  if (!loaded_ || prompt_.tokens.empty() || target < 0) {
    cursor_ = -1;
    sync_all_kv();
    return ok_status();
  }
  if (lane >= 0) {  // only this lane: the others keep their paths; compute it up to the cursor
    cursor_ = std::min(cursor_, target);
    return catch_up(&plan);
  }
  cursor_ = -1;
  progress_->total.store(target + 1);
  while (cursor_ < target && !all_stopped(*this)) {
    if (progress_->cancel.load()) return make_error("cancelled");
    TS_TRY(advance(&plan));
    progress_->done.store(cursor_ + 1);
  }
  return ok_status();
}

Status Session::set_sampler(int lane, const SamplerSettings& s) {
  if (lane < 0 || lane >= lane_count(*this)) {
    return finish(make_error("no lane " + std::to_string(lane)));
  }
  TS_TRY(finish(validate(s)));
  progress_->cancel.store(false);
  progress_->running.store(true);
  lanes_[lane].settings = s;
  return finish(rebuild(lane, cursor_));
}

Status Session::branch_sampler(int lane, const SamplerSettings& s) {
  if (lane < 0 || lane >= lane_count(*this)) {
    return finish(make_error("no lane " + std::to_string(lane)));
  }
  TS_TRY(finish(validate(s)));
  Lane& L = lanes_[lane];
  Timeline& t = L.timeline;
  if (cursor_ < 0 || !loaded_ || t.path_length() == 0) return set_sampler(lane, s);
  L.settings = s;
  const int k = std::min(cursor_, t.path_length() - 1);  // a lane that stopped: its last step
  const int node_id = t.path()[k];
  const Step& old = t.node(node_id);
  phase_cursor_ = -1;
  if (old.forward->logits.empty()) {  // no logits to choose again from: branch at the next step
    t.cut_path(k + 1);
    L.kv_valid = std::min(L.kv_valid, kv_pos(k));
    sync_all_kv();
    return finish(ok_status());
  }
  Step n;
  n.index = k;
  n.forward = old.forward;
  n.kv_rows = old.kv_rows;
  n.ablation = old.ablation;  // the same pass
  const int parent = old.parent;
  const int forced = old.forced ? old.token : -1;
  choose(lane, n, parent, n.forward->logits, forced);
  t.cut_path(k);
  const int id = t.add(std::move(n), parent);
  t.push(id);
  // Rows up to this step's own pass are shared with the old branch; later ones are not.
  L.kv_valid = std::min(L.kv_valid, kv_pos(k));
  sync_all_kv();
  return finish(ok_status());
}

Status Session::set_generation(const GenerationSettings& g) {
  if (g.max_tokens < 1) {
    return finish(make_error("max tokens must be at least 1, got " + std::to_string(g.max_tokens)));
  }
  for (const std::string& s : g.stops) {
    if (s.empty()) return finish(make_error("a stop string must not be empty"));
  }
  if (g.record_level == gen_.record_level && g.max_tokens == gen_.max_tokens &&
      g.stops == gen_.stops) {
    return finish(ok_status());
  }
  progress_->cancel.store(false);
  progress_->running.store(true);
  gen_ = g;
  return finish(rebuild(-1, cursor_));
}

Result<int> Session::add_lane(const SamplerSettings& s) {
  if (lane_count(*this) >= kMaxLanes) {
    return finish(make_error("at most " + std::to_string(kMaxLanes) + " lanes")).error();
  }
  if (Status v = validate(s); !v.ok()) return finish(v).error();
  progress_->cancel.store(false);
  progress_->running.store(true);
  Lane lane;
  lane.settings = s;
  if (lane.settings.label.empty())
    lane.settings.label = "lane " + std::to_string(lane_count(*this) + 1);
  if (loaded_) {
    // A context the header states freely sizes this cache: checked, and out of memory refused.
    if (Status st =
            check_allocation("lane " + std::to_string(lane_count(*this) + 1) + "'s KV cache",
                             kv_bytes_per_lane(config(*this)));
        !st.ok()) {
      return finish(st).error();
    }
    try {
      lane.kv = KvCache(config(*this), config(*this).n_ctx);
    } catch (const std::bad_alloc&) {
      return finish(make_error("out of memory for lane " + std::to_string(lane_count(*this) + 1) +
                               "'s KV cache"))
          .error();
    }
  }
  lanes_.push_back(std::move(lane));
  const int index = lane_count(*this) - 1;
  if (Status c = catch_up(nullptr); !c.ok()) return finish(c).error();
  last_error_.clear();
  progress_->running.store(false);
  return index;
}

Status Session::remove_lane(int lane) {
  if (lane < 0 || lane >= lane_count(*this)) {
    return finish(make_error("no lane " + std::to_string(lane)));
  }
  if (lane_count(*this) == 1) return finish(make_error("the last lane cannot be removed"));
  lanes_.erase(lanes_.begin() + lane);
  // The cursor may now be beyond every remaining path.
  cursor_ = std::min(cursor_, max_path_length(*this) - 1);
  sync_all_kv();
  return finish(ok_status());
}

}  // namespace ts
