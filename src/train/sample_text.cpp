// Greedy / temperature sampling over model_forward_backward's forward pass.
#include "train/sample_text.h"

#include <algorithm>
#include <cmath>

#include "base/rng.h"
#include "train/model_grad.h"

namespace ts {

std::string sample_text(const ParamLayout& layout, const std::vector<float>& params,
                        const Tokenizer& tok, const std::string& prompt, int n_tokens,
                        double temperature, uint64_t seed) {
  std::vector<int> ids = tok.encode(prompt, false);
  ids.insert(ids.begin(), tok.bos_id());
  const size_t n_prompt = ids.size();
  const int n_ctx = layout.config.n_ctx;
  Workspace<float> ws;
  for (int step = 0; step < n_tokens; ++step) {
    const size_t start = ids.size() > static_cast<size_t>(n_ctx) ? ids.size() - n_ctx : 0;
    const std::vector<int> window(ids.begin() + static_cast<long>(start), ids.end());  // (n)
    const std::vector<int> targets(window.size(), -1);
    model_forward_backward<float>(layout, params.data(), nullptr, window, targets, 1,
                                  static_cast<int>(window.size()), ws);
    const auto logits = ws.logits.row(ws.logits.rows() - 1);  // (vocab_size)
    int next = 0;
    if (temperature <= 0) {
      logits.maxCoeff(&next);
    } else {
      const double mx = logits.maxCoeff();
      std::vector<double> p(static_cast<size_t>(logits.size()));
      double sum = 0;
      for (size_t i = 0; i < p.size(); ++i) sum += p[i] = std::exp((logits(static_cast<long>(i)) - mx) / temperature);
      double u = uniform01(seed, static_cast<uint64_t>(step)) * sum;
      next = static_cast<int>(p.size()) - 1;
      for (size_t i = 0; i < p.size(); ++i) {
        if ((u -= p[i]) < 0) {
          next = static_cast<int>(i);
          break;
        }
      }
    }
    if (next == tok.eos_id()) break;
    ids.push_back(next);
  }
  return tok.decode(std::span<const int>(ids).subspan(n_prompt));
}

}  // namespace ts
