// Cross-entropy of a text under the model, in windows sharing one token (text_loss.h).
#include "cli/text_loss.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/forward.h"
#include "engine/kv_cache.h"

namespace ts {

Result<TextLoss> token_cross_entropy(const Model& model, std::span<const int> tokens,
                                     int n_threads) {
  const int n = static_cast<int>(tokens.size());
  const int n_ctx = model.config.n_ctx;
  if (n < 2) return make_error("the text has fewer than 2 tokens: nothing to score");
  if (n_ctx < 2) return make_error("the model's context is shorter than 2 tokens");
  TextLoss r;
  r.tokens = n;
  r.window = n_ctx;
  r.stride = n_ctx - 1;
  Forward fwd(model, n_threads);
  KvCache kv(model.config, n_ctx);
  ForwardOptions fo;
  fo.level = RecordLevel::Off;
  fo.position_top_k = 0;
  for (int start = 0; start + 1 < n; start += r.stride) {
    const int end = std::min(n, start + n_ctx);  // window = tokens [start, end)
    kv.truncate(0);
    for (int i = start; i + 1 < end; ++i) {
      TS_TRY(fwd.run(kv, tokens.subspan(static_cast<size_t>(i), 1), fo, nullptr));
      const Vec& logits = fwd.logits();
      double max_l = -INFINITY;
      for (Eigen::Index v = 0; v < logits.size(); ++v) {
        if (std::isfinite(logits[v])) max_l = std::max(max_l, static_cast<double>(logits[v]));
      }
      double z = 0;
      for (Eigen::Index v = 0; v < logits.size(); ++v) {
        if (std::isfinite(logits[v])) z += std::exp(static_cast<double>(logits[v]) - max_l);
      }
      const int target = tokens[static_cast<size_t>(i) + 1];
      const double lt = target < logits.size() ? logits[target] : -INFINITY;
      if (!std::isfinite(lt) || !std::isfinite(max_l)) {
        return make_error("the model gives token " + std::to_string(target) +
                          " no probability at position " + std::to_string(i + 1));
      }
      r.total_nats += std::log(z) + max_l - lt;
      ++r.tokens_scored;
    }
    ++r.windows;
  }
  r.nats_per_token = r.total_nats / r.tokens_scored;
  return r;
}

Result<TextLoss> text_cross_entropy(const Model& model, const Tokenizer& tokenizer,
                                    std::string_view text, int n_threads) {
  const std::vector<int> ids = tokenizer.encode(text, tokenizer.data().add_bos);
  Result<TextLoss> r = token_cross_entropy(model, ids, n_threads);
  if (!r.ok()) return r;
  TextLoss& t = r.value();
  t.bytes_scored = text.size();
  if (!tokenizer.is_special(ids[0])) {
    const size_t first = tokenizer.decode(std::span<const int>(ids.data(), 1)).size();
    t.bytes_scored -= std::min(first, t.bytes_scored);
  }
  t.bits_per_byte = t.bytes_scored > 0 ? t.total_nats / std::log(2.0) / t.bytes_scored : 0.0;
  return r;
}

}  // namespace ts
