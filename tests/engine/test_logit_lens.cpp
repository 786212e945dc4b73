// The logit lens on demand (engine/logit_lens.h) gives exactly the lens the pass computes when
// asked to (ForwardOptions::lens_in_pass, the way every Full step computed it before): same ids,
// same logits, same probabilities, bit for bit, for a prefill and a decode, Llama/Qwen2 and GPT-2
// blocks, a Q8_0 model, an intervention and 1 or 2 threads; it is computed once and cached in the
// record, copies keep it, and a record of another shape is left alone.
#include <doctest/doctest.h>

#include <cstring>
#include <span>
#include <vector>

#include "engine/forward.h"
#include "engine/logit_lens.h"
#include "engine_test_util.h"
#include "formats/ggml_types.h"

using namespace ts;
using namespace ts::test;

namespace {

bool same_scores_bits(const std::vector<TokenScore>& a, const std::vector<TokenScore>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || std::memcmp(&a[i].logit, &b[i].logit, sizeof(float)) != 0 ||
        std::memcmp(&a[i].p, &b[i].p, sizeof(float)) != 0)
      return false;
  }
  return true;
}

// Every matrix with whole blocks per row stored as Q8_0, as a loaded Q8_0 file keeps them.
Model q8_in_memory(const Model& plain) {
  Model m = plain;
  auto q = [&](Mat& f, QMat& out) {
    if (f.size() == 0 || f.cols() % qtype_block_values(QType::Q8_0) != 0) return;
    Result<std::vector<uint8_t>> bytes = ggml_from_f32(
        GgmlType::Q8_0, std::span<const float>(f.data(), static_cast<size_t>(f.size())));
    REQUIRE(bytes.ok());
    out = make_qmat(QType::Q8_0, static_cast<int>(f.rows()), static_cast<int>(f.cols()));
    REQUIRE(bytes->size() == out.blocks.size());
    out.blocks = std::move(bytes.value());
    f = Mat();
  };
  q(m.weights.tok_embd, m.weights.tok_embd_q);
  q(m.weights.output, m.weights.output_q);
  for (LayerWeights& l : m.weights.layers) for_each_block_matrix(l, q);
  REQUIRE(m.is_quantized());
  return m;
}

// A prefill of 7 tokens and 3 decodes, once with the lens in the pass and once on demand (each
// with its own cache and forward of `threads` threads): the records agree everywhere.
void check_on_demand(const Model& model, int threads, const InterventionSet* iv) {
  const ModelConfig& c = model.config;
  const std::vector<int> tokens = random_tokens(10, c.vocab_size, 31);
  Forward eager(model, threads), lazy(model, threads);
  KvCache kv_e(c, 16), kv_l(c, 16);
  ForwardOptions in_pass{RecordLevel::Full, 5, 6};
  in_pass.interventions = iv;
  in_pass.lens_in_pass = true;
  ForwardOptions on_demand = in_pass;
  on_demand.lens_in_pass = false;
  for (int step = 0; step < 4; ++step) {
    CAPTURE(step);
    const std::span<const int> input =
        step == 0 ? std::span<const int>(tokens.data(), 7) : std::span<const int>(&tokens[6 + step], 1);
    ForwardRecord e, l;
    REQUIRE(eager.run(kv_e, input, in_pass, &e).ok());
    REQUIRE(lazy.run(kv_l, input, on_demand, &l).ok());
    REQUIRE(e.logit_lens.size() == size_t(c.n_layers));
    CHECK(l.logit_lens.empty());  // not computed until read
    REQUIRE(l.lens_residuals.size() == size_t(c.n_layers) * c.d_model);
    CHECK(l.lens_residuals == e.lens_residuals);
    CHECK(l.logits == e.logits);  // the pass's own logits do not depend on where the lens goes
    CHECK(has_logit_lens(l));
    const auto& lens = ensure_logit_lens(model, l, 6, lazy.pool());
    CHECK(&lens == &l.logit_lens);
    REQUIRE(lens.size() == e.logit_lens.size());
    for (int layer = 0; layer < c.n_layers; ++layer) {
      CAPTURE(layer);
      CHECK(lens[layer].size() == 6);
      CHECK(same_scores_bits(lens[layer], e.logit_lens[layer]));
    }
    // The last block's lens is the pass's prediction: its top 5 are the position's top 5.
    const std::vector<TokenScore>& top = e.position_top.back();
    REQUIRE(top.size() == 5);
    for (int i = 0; i < 5; ++i) {
      CHECK(lens.back()[i].id == top[i].id);
      CHECK(lens.back()[i].logit == top[i].logit);
    }
  }
}

}  // namespace

TEST_CASE("logit lens on demand equals the lens computed in the pass") {
  SUBCASE("Qwen2 block (GQA, biases), 1 and 2 threads") {
    const Model model = random_model(qwen2_config(), 41);
    check_on_demand(model, 1, nullptr);
    check_on_demand(model, 2, nullptr);
  }
  SUBCASE("GPT-2 block (LayerNorm with bias)") {
    check_on_demand(random_model(gpt2_config(), 42), 1, nullptr);
  }
  SUBCASE("StableLM block (LayerNorm, partial RoPE)") {
    check_on_demand(random_model(stablelm_config(), 44), 1, nullptr);
  }
  SUBCASE("an intervention") {
    const Model model = random_model(llama_config(4, 2), 43);
    const InterventionSet iv = parse_interventions("L0.H1,L1.mlp=0.5").value();
    check_on_demand(model, 2, &iv);
  }
  SUBCASE("Q8_0 matrices (the unembedding's activation quantized per row)") {
    ModelConfig c = llama_config(4, 2);
    c.d_model = 64;
    c.d_ff = 128;
    c.tied_embeddings = false;
    check_on_demand(q8_in_memory(random_model(c, 44)), 2, nullptr);
  }
}

TEST_CASE("logit lens on demand: computed once, copied with the record, refused for a mismatch") {
  const Model model = random_model(llama_config(4, 2), 45);
  const ModelConfig& c = model.config;
  Forward fwd(model);
  KvCache kv(c, 16);
  ForwardRecord rec;
  const std::vector<int> tokens = random_tokens(5, c.vocab_size, 32);
  REQUIRE(fwd.run(kv, tokens, {RecordLevel::Full, 3, 4}, &rec).ok());
  const auto& first = ensure_logit_lens(model, rec, 4, fwd.pool());
  REQUIRE(first.size() == size_t(c.n_layers));
  const std::vector<std::vector<TokenScore>> kept = first;
  // Asked again (even with another k) it is the cached lens.
  const auto& again = ensure_logit_lens(model, rec, 2, fwd.pool());
  CHECK(again[0].size() == 4);
  const ForwardRecord copy = rec;
  REQUIRE(copy.logit_lens.size() == kept.size());
  for (size_t l = 0; l < kept.size(); ++l) CHECK(same_scores_bits(copy.logit_lens[l], kept[l]));

  // Summary keeps no residual rows: nothing to compute.
  ForwardRecord summary;
  REQUIRE(fwd.run(kv, std::span<const int>(&tokens[0], 1), {RecordLevel::Summary, 3, 4}, &summary).ok());
  CHECK_FALSE(has_logit_lens(summary));
  CHECK(ensure_logit_lens(model, summary, 4, fwd.pool()).empty());

  // Rows of another model's shape are left alone.
  ForwardRecord odd;
  odd.lens_residuals.assign(size_t(c.d_model) * c.n_layers + 1, 0.5f);
  CHECK(ensure_logit_lens(model, odd, 4, fwd.pool()).empty());
}
