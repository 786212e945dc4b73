// F32 / Q8_0 / Q4_K side by side (see format_compare.h).
#include "bench/format_compare.h"

#include <algorithm>
#include <chrono>
#include <new>

#include "engine/forward.h"
#include "engine/kv_cache.h"
#include "formats/ggml_types.h"

namespace ts {

namespace {

using Clock = std::chrono::steady_clock;

// f into a QMat of type (q, g), or left fp32 when its rows do not fill whole blocks.
void quantize_in_place(Mat& f, QMat& q, QType qt, GgmlType gt) {
  if (f.size() == 0 || f.cols() % qtype_block_values(qt) != 0) return;
  Result<std::vector<uint8_t>> bytes =
      ggml_from_f32(gt, std::span<const float>(f.data(), static_cast<size_t>(f.size())));
  if (!bytes) return;
  QMat m = make_qmat(qt, static_cast<int>(f.rows()), static_cast<int>(f.cols()));
  if (bytes->size() != m.blocks.size()) return;
  m.blocks = std::move(bytes.value());
  q = std::move(m);
  f = Mat();
}

Model quantized_copy(const Model& plain, QType qt, GgmlType gt) {
  Model m = plain;
  Weights& w = m.weights;
  quantize_in_place(w.tok_embd, w.tok_embd_q, qt, gt);
  quantize_in_place(w.output, w.output_q, qt, gt);
  for (LayerWeights& l : w.layers) {
    for_each_block_matrix(l, [&](Mat& f, QMat& q) { quantize_in_place(f, q, qt, gt); });
  }
  return m;
}

// Decode tokens/s of one timed run: a 4-token prefill, then `steps` greedy steps, record off.
Result<double> time_decode(const Model& m, int threads, int steps) {
  const ModelConfig& c = m.config;
  const int prefill = std::min(4, std::max(1, c.n_ctx - steps - 1));
  if (prefill + steps > c.n_ctx) return make_error("the context is too short to time decoding");
  Forward fwd(m, threads);
  KvCache kv(c, prefill + steps);
  std::vector<int> prompt(prefill);
  for (int i = 0; i < prefill; ++i) prompt[i] = (7 * i + 1) % c.vocab_size;
  TS_TRY(fwd.run(kv, prompt, {}, nullptr));
  const auto t0 = Clock::now();
  for (int i = 0; i < steps; ++i) {
    Eigen::Index next = 0;
    fwd.logits().maxCoeff(&next);
    const int tok = static_cast<int>(next);
    TS_TRY(fwd.run(kv, std::span<const int>(&tok, 1), {}, nullptr));
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return s > 0 ? steps / s : 0.0;
}

}  // namespace

const FormatSpeed* FormatComparison::find(const std::string& type) const {
  for (const FormatSpeed& r : rows) {
    if (r.type == type) return &r;
  }
  return nullptr;
}

Result<FormatComparison> compare_formats(const Model& model, int threads, int steps, int runs) {
  FormatComparison out;
  out.threads = std::max(1, threads);
  out.steps = std::max(1, steps);
  out.runs = std::max(1, runs);
  try {
    std::vector<Model> models;
    models.push_back(model);
    dequantize_weights(models[0]);
    models.push_back(quantized_copy(models[0], QType::Q8_0, GgmlType::Q8_0));
    models.push_back(quantized_copy(models[0], QType::Q4_K, GgmlType::Q4_K));
    const char* names[] = {"F32", "Q8_0", "Q4_K"};
    for (size_t i = 0; i < models.size(); ++i) {
      const Model& m = models[i];
      FormatSpeed f;
      f.type = names[i];
      const ModelConfig& c = m.config;
      f.bytes_per_token =
          estimate_cost(c, PassShape{c.n_ctx / 2, 1, 1}, false, weight_bytes_per_value(m))
              .weight_bytes;
      f.weight_bytes = static_cast<double>(m.weight_bytes());
      out.rows.push_back(f);
    }
    for (int r = 0; r < out.runs; ++r) {  // in turn, so drift touches every format alike
      for (size_t i = 0; i < models.size(); ++i) {
        Result<double> tps = time_decode(models[i], out.threads, out.steps);
        if (!tps) return tps.error();
        out.rows[i].tokens_per_s = std::max(out.rows[i].tokens_per_s, tps.value());
      }
    }
  } catch (const std::bad_alloc&) {
    return make_error("not enough memory for three copies of the model");
  }
  return out;
}

}  // namespace ts
