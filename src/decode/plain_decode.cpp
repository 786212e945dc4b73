// The plain decoding loop (plain_decode.h).
#include "decode/plain_decode.h"

#include <chrono>

#include "decode/log_prob.h"

namespace ts {

Result<PlainResult> plain_decode(Forward& fwd, std::span<const int> prompt,
                                 const SamplerSettings& s, const DecodeLimits& lim,
                                 const TokenText& text) {
  TS_TRY(validate(lim));
  TS_TRY(validate(s));
  const int n_prompt = static_cast<int>(prompt.size());
  TS_TRY(check_prompt(lim, n_prompt));
  const auto t0 = std::chrono::steady_clock::now();
  KvCache kv(fwd.model().config, std::min(lim.n_ctx, n_prompt + lim.max_tokens));
  const ForwardOptions fo{RecordLevel::Off, 0, 0};
  std::vector<int> history(prompt.begin(), prompt.end());
  PlainResult r;
  // A stage with state across steps (mirostat's mu) reads it from the previous step's record,
  // as in the session; other chains record nothing (no cost).
  const bool carries = find_stage<Mirostat>(s) != nullptr;
  SamplingRecord rec[2];
  SampleOptions so;
  so.record_top = 0;
  so.text = text;
  so.text.start = static_cast<size_t>(n_prompt);
  TS_TRY(fwd.run(kv, prompt, fo, nullptr));
  for (int n = 0;; ++n) {
    ++r.passes;
    const Vec& lg = fwd.logits();
    const std::span<const float> logits(lg.data(), static_cast<size_t>(lg.size()));
    so.previous = carries && n > 0 ? &rec[(n + 1) % 2] : nullptr;
    const int token =
        sample(s, logits, history, static_cast<uint64_t>(n), carries ? &rec[n % 2] : nullptr, so);
    r.tokens.push_back(token);
    r.raw_log_p.push_back(log_prob(logits, token));
    history.push_back(token);
    r.stop = decode_stop(lim, token, n + 1, n_prompt + n);
    if (r.stop != StopReason::None) break;
    TS_TRY(fwd.run(kv, std::span<const int>(&token, 1), fo, nullptr));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ts
