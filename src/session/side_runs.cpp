// Beam search and speculative decoding beside the lanes (side_runs.h).
#include "session/side_runs.h"

#include <algorithm>
#include <filesystem>

#include "decode/plain_decode.h"
#include "sampling/chain_constraints.h"
#include "session/session.h"
#include "session/session_access.h"

namespace ts {

namespace {

DecodeLimits limits_for(const Session& s, int max_tokens) {
  DecodeLimits lim;
  lim.max_tokens = max_tokens > 0 ? max_tokens : s.generation().max_tokens;
  lim.eos_id = s.tokenizer().eos_id();
  lim.bos_id = s.tokenizer().bos_id();
  lim.n_ctx = config(s).n_ctx;
  return lim;
}

Status needs_model_and_prompt(const Session& s) {
  if (!s.loaded()) return make_error("no model loaded");
  if (prompt_tokens(s).empty()) return make_error("no prompt");
  return ok_status();
}

// A draft path as given when it exists, else its file name beside the target's file (a lesson
// says models/tales-draft.gguf, and the app may run from another folder than the project's).
std::string resolve_draft(const Session& s, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec) || fs::path(path).is_absolute()) return path;
  const fs::path beside = fs::path(s.loaded()->info.path).parent_path() / fs::path(path).filename();
  return fs::exists(beside, ec) ? beside.string() : path;
}

// The draft for `path`: the one kept from before when the path is the same, else loaded.
Result<std::shared_ptr<const LoadedModel>> draft_for(Session& s, const std::string& path) {
  SideRuns& side = s.side_runs();
  const std::string want = path.empty() ? side.draft_path : path;
  if (want.empty())
    return make_error("needs a draft model file, e.g. speculate models/tales-draft.gguf");
  if (side.draft && want == side.draft_path) return side.draft;
  Result<LoadedModel> lm = load_model_file(resolve_draft(s, want));
  if (!lm.ok()) return make_error("draft " + want + ": " + lm.error().message);
  if (Status t = check_same_tokenizer(s.loaded()->tokenizer, lm->tokenizer, want); !t.ok())
    return t.error();
  side.draft = std::make_shared<const LoadedModel>(std::move(lm).value());
  side.draft_path = want;
  return side.draft;
}

}  // namespace

Status run_beam(Session& s, int width, double alpha, int max_tokens) {
  if (Status st = needs_model_and_prompt(s); !st.ok()) return st;
  if (width < 1 || width > 8)
    return make_error("beam width must be 1..8, got " + std::to_string(width));
  BeamRun run;
  run.prompt = prompt_tokens(s);
  run.settings.width = width;
  run.settings.length_penalty = alpha;
  run.settings.limits = limits_for(s, max_tokens);
  if (Status v = validate(run.settings); !v.ok()) return v;
  ChainConstraints cc = chain_constraints(s.lanes()[0].settings.chain);
  run.settings.constraints = std::move(cc.automata);
  run.constraint = std::move(cc.described);
  run.settings.text.pieces = s.tokenizer().all_token_bytes();
  run.settings.text.eos_id = s.tokenizer().eos_id();
  Forward fwd(s.loaded()->model, s.options().n_threads);
  Result<BeamResult> beam = beam_search(fwd, run.prompt, run.settings);
  if (!beam.ok()) return beam.error();
  BeamSettings one = run.settings;
  one.width = 1;
  Result<BeamResult> greedy = beam_search(fwd, run.prompt, one);
  if (!greedy.ok()) return greedy.error();
  run.result = std::move(beam).value();
  run.greedy = std::move(greedy).value();
  run.settings.text = {};
  SideRuns& side = s.side_runs();
  side.beam = std::move(run);
  side.newest = 0;
  ++side.serial;
  return ok_status();
}

Status run_speculative(Session& s, const std::string& draft_path, int k, int max_tokens) {
  if (Status st = needs_model_and_prompt(s); !st.ok()) return st;
  Result<std::shared_ptr<const LoadedModel>> draft = draft_for(s, draft_path);
  if (!draft.ok()) return draft.error();
  SpecRun run;
  run.prompt = prompt_tokens(s);
  run.draft_path = s.side_runs().draft_path;
  run.draft_name = std::filesystem::path(run.draft_path).filename().string();
  run.settings.k = k;
  run.settings.sampler = s.lanes()[0].settings;
  run.settings.limits = limits_for(s, max_tokens);
  run.settings.text.pieces = s.tokenizer().all_token_bytes();
  run.settings.text.eos_id = s.tokenizer().eos_id();
  if (Status v = validate(run.settings); !v.ok()) return v;
  run.greedy = greedy(run.settings.sampler);
  Forward target(s.loaded()->model, s.options().n_threads);
  Forward fd(draft.value()->model, s.options().n_threads);
  run.plain_seconds = run.spec_seconds = 1e300;
  for (int rep = 0; rep < 2; ++rep) {  // interleaved: both see the same machine load
    Result<PlainResult> plain = plain_decode(target, run.prompt, run.settings.sampler,
                                             run.settings.limits, run.settings.text);
    if (!plain.ok()) return plain.error();
    Result<SpecResult> spec = speculative_decode(target, fd, run.prompt, run.settings);
    if (!spec.ok()) return spec.error();
    run.plain_seconds = std::min(run.plain_seconds, plain->seconds);
    run.spec_seconds = std::min(run.spec_seconds, spec->seconds);
    run.plain_tokens = std::move(plain->tokens);
    run.result = std::move(spec).value();
  }
  run.settings.text = {};  // it points into the tokenizer
  SideRuns& side = s.side_runs();
  side.spec = std::move(run);
  side.newest = 1;
  ++side.serial;
  return ok_status();
}

Status check_same_tokenizer(const TokenizerData& a, const TokenizerData& b,
                            const std::string& path) {
  if (a.tokens != b.tokens || a.merges != b.merges || a.kind != b.kind) {
    return make_error("the draft " + path +
                      " has another tokenizer than the target (its token ids would mean other "
                      "text); train it with `tokenscope train --tokenizer TARGET.gguf`");
  }
  return ok_status();
}

bool side_run_current(const Session& s, const std::vector<int>& run_prompt) {
  return s.loaded() && run_prompt == prompt_tokens(s);
}

}  // namespace ts
