// Direct logit attribution: a position recomputed from its pass's K/V rows gives the pass's
// logits, its parts add up to its residual stream, and a logit difference split into the parts
// adds up to the difference (1e-4 x max(1, |difference|)) on every block type, with interventions,
// and with quantized matrices (the unembedding's 8-bit rounding as its own part).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/attribution.h"
#include "engine/forward.h"
#include "engine_test_util.h"
#include "formats/ggml_types.h"

using namespace ts;
using namespace ts::test;

namespace {

const ForwardOptions kAttrOff{RecordLevel::Off, 0, 0};

// The matrices whose rows fill whole blocks, quantized in memory (as a loaded file keeps them).
Model quantized_in_memory(const Model& plain, QType qt, GgmlType gt) {
  Model m = plain;
  auto q = [&](Mat& f, QMat& out) {
    if (f.size() == 0 || f.cols() % qtype_block_values(qt) != 0) return;
    Result<std::vector<uint8_t>> bytes =
        ggml_from_f32(gt, std::span<const float>(f.data(), static_cast<size_t>(f.size())));
    REQUIRE(bytes.ok());
    out = make_qmat(qt, static_cast<int>(f.rows()), static_cast<int>(f.cols()));
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

ModelConfig quant_config() {  // rows of whole 256-value super-blocks
  ModelConfig c = llama_config(4, 2);
  c.d_model = 256;
  c.d_ff = 512;
  c.vocab_size = 90;
  c.tied_embeddings = false;
  return c;
}

// The rival: the token with the lowest logit (far outside any top-k).
int lowest_id(const Vec& logits) {
  Eigen::Index i = 0;
  logits.minCoeff(&i);
  return static_cast<int>(i);
}
int highest_id(const Vec& logits) {
  Eigen::Index i = 0;
  logits.maxCoeff(&i);
  return static_cast<int>(i);
}

// Runs a prefill of `n_prefill` tokens then decode steps up to tokens.size(), every pass with
// `set`; then recomputes the last position and checks it against the last pass. `tol`: how far
// the recomputed logits may be from the pass's, relative to max(1, |largest logit|).
void check_last_position(const Model& model, int threads, const std::vector<int>& tokens,
                         int n_prefill, const InterventionSet& set, double tol) {
  Forward fwd(model, threads);
  KvCache kv(model.config, model.config.n_ctx);
  ForwardOptions opt = kAttrOff;
  opt.interventions = &set;
  REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(n_prefill), opt, nullptr).ok());
  for (size_t p = n_prefill; p < tokens.size(); ++p) {
    REQUIRE(fwd.run(kv, std::span<const int>(&tokens[p], 1), opt, nullptr).ok());
  }
  const Vec logits = fwd.logits();
  const int pos = static_cast<int>(tokens.size()) - 1;
  ThreadPool pool(threads);
  Result<PositionPass> pass = recompute_position(model, kv, tokens.back(), pos, &set, pool);
  REQUIRE_MESSAGE(pass.ok(), (pass.ok() ? "" : pass.error().message));
  // The parts add up to the residual (the same fp32 sums).
  const Vec sum = pass->parts.colwise().sum().transpose();
  CHECK(max_abs_diff(sum, pass->residual) <
        1e-4 * std::max(1.0, double(sum.cwiseAbs().maxCoeff())));
  // The lens's last row is the pass's logits.
  const Mat lens = lens_logits(model, pass.value(), pool);
  const double scale = std::max(1.0, static_cast<double>(logits.cwiseAbs().maxCoeff()));
  CHECK(max_abs_diff(lens.row(model.config.n_layers - 1), logits) < tol * scale);
  const int a = highest_id(logits);
  for (int b : {lowest_id(logits), (a + 1) % model.config.vocab_size, a}) {
    CAPTURE(b);
    const LogitAttribution at = attribute_logit_difference(model, pass.value(), a, b);
    CHECK(std::abs(at.diff() - (double(logits[a]) - logits[b])) < tol * scale);
    CHECK(std::abs(at.sum() - at.diff()) < 1e-4 * std::max(1.0, std::abs(at.diff())));
    REQUIRE(at.values.size() == at.ids.size());
    if (b == a) CHECK(at.diff() == 0.0);
  }
  // A switched-off head or MLP contributes nothing.
  for (const Intervention& i : set.items) {
    if (i.scale != 0.0f || i.what == Component::Attention) continue;
    const PartId id = i.what == Component::Head ? PartId{PartKind::Head, i.layer, i.head}
                                                : PartId{PartKind::Mlp, i.layer, -1};
    for (size_t k = 0; k < pass->ids.size(); ++k) {
      if (pass->ids[k] == id) CHECK(pass->parts.row(static_cast<Eigen::Index>(k)).isZero(0.0));
    }
  }
}

}  // namespace

TEST_CASE("part names") {
  for (const PartId& p : {PartId{PartKind::Embedding, -1, -1}, PartId{PartKind::Position, -1, -1},
                          PartId{PartKind::Head, 3, 11}, PartId{PartKind::AttnBias, 0, -1},
                          PartId{PartKind::Mlp, 23, -1}, PartId{PartKind::FinalNormBias, -1, -1},
                          PartId{PartKind::UnembedRounding, -1, -1}}) {
    Result<PartId> back = parse_part_name(part_name(p));
    REQUIRE(back.ok());
    CHECK(back.value() == p);
  }
  CHECK(part_name({PartKind::Head, 0, 3}) == "L0.H3");
  CHECK(part_name({PartKind::Mlp, 1, -1}) == "L1.mlp");
  CHECK(part_name({PartKind::AttnBias, 2, -1}) == "L2.attn_bias");
  for (const char* bad : {"", "L0", "L0.H", "Lx.mlp", "L0.attn", "mlp", "L0.Hx"}) {
    CHECK_FALSE(parse_part_name(bad).ok());
  }
}

TEST_CASE("the parts add up to the logit difference on every block type") {
  struct Case {
    const char* name;
    ModelConfig cfg;
    int threads;
  };
  const Case cases[] = {{"llama MHA", llama_config(4, 4), 1},
                        {"llama GQA", llama_config(4, 2), 1},
                        {"qwen2 GQA + biases", qwen2_config(), 1},
                        {"gpt2 (LayerNorm, positions, biases)", gpt2_config(), 1},
                        {"stablelm (LayerNorm, partial RoPE)", stablelm_config(), 1},
                        {"threaded GQA", threaded_config(), 2}};
  for (const Case& tc : cases) {
    CAPTURE(tc.name);
    const Model model = random_model(tc.cfg, 81);
    const std::vector<int> tokens = random_tokens(16, tc.cfg.vocab_size, 19);
    check_last_position(model, tc.threads, tokens, 10, {}, 1e-4);  // a decode position
    check_last_position(model, tc.threads, std::vector<int>(tokens.begin(), tokens.begin() + 10),
                        10, {}, 1e-4);  // the last position of a prefill
    InterventionSet set = parse_interventions("L0.H1,L1.mlp=0.5,L1.H0=2").value();
    check_last_position(model, tc.threads, tokens, 10, set, 1e-4);
    set = parse_interventions("L1.attn,L0.mlp").value();
    check_last_position(model, tc.threads, tokens, 10, set, 1e-4);
  }
}

TEST_CASE("GPT-2: the embedding, the position, each attention bias and the final norm's bias") {
  const ModelConfig cfg = gpt2_config();
  const Model model = random_model(cfg, 82);
  const std::vector<int> tokens = random_tokens(6, cfg.vocab_size, 20);
  Forward fwd(model);
  KvCache kv(cfg, cfg.n_ctx);
  REQUIRE(fwd.run(kv, tokens, kAttrOff, nullptr).ok());
  ThreadPool pool(1);
  const PositionPass pass = recompute_position(model, kv, tokens.back(), 5, nullptr, pool).value();
  // embedding, position, then per layer 4 heads + attn_bias + mlp.
  REQUIRE(pass.ids.size() == 2 + 2 * (4 + 2));
  CHECK(pass.parts.row(0) == model.weights.tok_embd.row(tokens.back()));
  CHECK(pass.parts.row(1) == model.weights.pos_embd.row(5));
  CHECK(part_name(pass.ids[6]) == "L0.attn_bias");
  CHECK(pass.parts.row(6) == model.weights.layers[0].bo.transpose());
  const LogitAttribution at = attribute_logit_difference(model, pass, 3, 40);
  REQUIRE(at.ids.back() == PartId{PartKind::FinalNormBias, -1, -1});
  // The bias's share is exactly (U[3] - U[40]) · bias: it does not cancel.
  const Vec du = model.unembedding().row(3) - model.unembedding().row(40);
  CHECK(at.values.back() == doctest::Approx(du.dot(model.weights.out_norm_b)).epsilon(1e-5));
  CHECK(std::abs(at.values.back()) > 1e-3);
}

TEST_CASE("quantized matrices: the recomputation follows the pass; the parts still add up") {
  const Model plain = random_model(quant_config(), 83);
  const std::vector<int> tokens = random_tokens(12, plain.config.vocab_size, 21);
  struct Q {
    QType qt;
    GgmlType gt;
  };
  for (const Q& q : {Q{QType::Q8_0, GgmlType::Q8_0}, Q{QType::Q4_K, GgmlType::Q4_K}}) {
    const std::string qname = qtype_name(q.qt);
    CAPTURE(qname);
    const Model model = quantized_in_memory(plain, q.qt, q.gt);
    check_last_position(model, 1, tokens, 8, {}, 1e-4);  // a decode: the same kernels
    check_last_position(model, 1, tokens, 8, parse_interventions("L0.H2,L1.mlp=0.5").value(), 1e-4);
    ThreadPool pool(1);
    Forward fwd(model);
    KvCache kv(model.config, model.config.n_ctx);
    REQUIRE(fwd.run(kv, tokens, kAttrOff, nullptr).ok());
    const PositionPass pass =
        recompute_position(model, kv, tokens.back(), 11, nullptr, pool).value();
    const LogitAttribution at = attribute_logit_difference(model, pass, 1, 2);
    CHECK(at.ids.back() == PartId{PartKind::UnembedRounding, -1, -1});
    CHECK(at.values.back() != 0.0);
    CHECK(std::abs(at.sum() - at.diff()) < 1e-4 * std::max(1.0, std::abs(at.diff())));
  }
}

TEST_CASE("recompute_position refuses what it cannot compute") {
  const ModelConfig cfg = llama_config(4, 2);
  const Model model = random_model(cfg, 84);
  KvCache kv(cfg, 16);
  Forward fwd(model);
  const std::vector<int> tokens = random_tokens(4, cfg.vocab_size, 22);
  REQUIRE(fwd.run(kv, tokens, kAttrOff, nullptr).ok());
  ThreadPool pool(1);
  CHECK_FALSE(recompute_position(model, kv, -1, 3, nullptr, pool).ok());
  CHECK_FALSE(recompute_position(model, kv, cfg.vocab_size, 3, nullptr, pool).ok());
  CHECK_FALSE(recompute_position(model, kv, 1, 4, nullptr, pool).ok());  // no row 4 yet
  const InterventionSet bad = parse_interventions("L9.mlp").value();
  CHECK_FALSE(recompute_position(model, kv, 1, 3, &bad, pool).ok());
  KvCache other(gpt2_config(), 16);
  CHECK_FALSE(recompute_position(model, other, 1, 0, nullptr, pool).ok());
}
