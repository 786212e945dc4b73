// Interventions: the text form, validation, and the agreement of the optimized Forward with
// reference_forward when the same heads (GQA included), attention blocks or MLPs are switched
// off or scaled, in every pass or in some passes only.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/forward.h"
#include "engine/intervention.h"
#include "engine_test_util.h"

using namespace ts;
using namespace ts::test;

namespace {

InterventionSet parse_ok(const std::string& text) {
  Result<InterventionSet> r = parse_interventions(text);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  return r.value();
}

const ForwardOptions kIvOff{RecordLevel::Off, 0, 0};

// A prefill over the first `n_prefill` tokens, then one decode step per remaining token; the set
// applies to the passes whose positions fall in [first, end). Returns each pass's last logits.
std::vector<Vec> run_passes(const Model& model, int threads, const std::vector<int>& tokens,
                            int n_prefill, const InterventionSet& set, int first, int end) {
  Forward fwd(model, threads);
  KvCache kv(model.config, model.config.n_ctx);
  std::vector<Vec> out;
  ForwardOptions with = kIvOff;
  with.interventions = &set;
  const auto opts = [&](int p0) { return p0 >= first && p0 < end ? with : kIvOff; };
  REQUIRE(fwd.run(kv, std::span<const int>(tokens).first(n_prefill), opts(0), nullptr).ok());
  out.push_back(fwd.logits());
  for (size_t p = n_prefill; p < tokens.size(); ++p) {
    REQUIRE(
        fwd.run(kv, std::span<const int>(&tokens[p], 1), opts(static_cast<int>(p)), nullptr).ok());
    out.push_back(fwd.logits());
  }
  return out;
}

}  // namespace

TEST_CASE("intervention text form: parse, describe, errors") {
  const InterventionSet s = parse_ok("L0.H3, L1.attn,L2.mlp=0.5");
  REQUIRE(s.items.size() == 3);
  CHECK(s.items[0] == Intervention{Component::Head, 0, 3, 0.0f});
  CHECK(s.items[1] == Intervention{Component::Attention, 1, 0, 0.0f});
  CHECK(s.items[2] == Intervention{Component::Mlp, 2, 0, 0.5f});
  CHECK(describe(s) == "L0.H3,L1.attn,L2.mlp=0.5");
  CHECK(parse_ok(describe(s)) == s);
  CHECK(parse_ok("none").empty());
  CHECK(parse_ok("").empty());
  CHECK(describe(InterventionSet{}) == "none");
  CHECK(parse_ok("L3.H1=-2").items[0].scale == -2.0f);
  const InterventionSet odd = parse_ok("L0.mlp=0.123456789,L1.H0=1e-7");
  CHECK(parse_ok(describe(odd)) == odd);  // every factor reads back as the same float
  for (const char* bad :
       {"L0", "H3", "L.H3", "Lx.mlp", "L0.H", "L0.Hx", "L0.ffn", "L0.mlp=", "L0.mlp=abc",
        "L0.mlp=inf", "L0.H1,,L0.H2", "L0.H1,L0.H1=0.5", "L-1.mlp"}) {
    CAPTURE(bad);
    const Result<InterventionSet> r = parse_interventions(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find('\n') == std::string::npos);
  }
  const ModelConfig c = llama_config(4, 2);  // 2 layers, 4 heads
  CHECK(validate(parse_ok("L1.H3,L0.mlp=2"), c).ok());
  const Status layer = validate(parse_ok("L2.mlp"), c);
  REQUIRE_FALSE(layer.ok());
  CHECK(layer.error().message == "L2.mlp: the model has 2 layers (L0..L1)");
  const Status head = validate(parse_ok("L0.H4"), c);
  REQUIRE_FALSE(head.ok());
  CHECK(head.error().message == "L0.H4: the model has 4 heads per layer (H0..H3)");
}

TEST_CASE("the factors a pass reads") {
  const InterventionSet s = parse_ok("L0.H1=0.5,L0.attn=2,L1.mlp");
  CHECK(s.head_scale(0, 1) == 0.5f);
  CHECK(s.head_scale(0, 0) == 1.0f);
  CHECK(s.head_scale(1, 1) == 1.0f);
  CHECK(s.attention_scale(0) == 2.0f);
  CHECK(s.attention_scale(1) == 1.0f);
  CHECK(s.mlp_scale(1) == 0.0f);
  CHECK(s.mlp_scale(0) == 1.0f);
  CHECK(s.touches_heads(0));
  CHECK_FALSE(s.touches_heads(1));
}

TEST_CASE("an intervened Forward agrees with reference_forward given the same set") {
  struct Case {
    const char* name;
    ModelConfig cfg;
    int threads;
  };
  const Case cases[] = {{"llama MHA", llama_config(4, 4), 1},
                        {"llama GQA", llama_config(4, 2), 1},
                        {"qwen2 GQA + biases", qwen2_config(), 1},
                        {"gpt2", gpt2_config(), 1},
                        {"stablelm partial RoPE", stablelm_config(), 1},
                        {"threaded GQA", threaded_config(), 2}};
  const char* sets[] = {"L0.H1",  "L1.H0,L1.H3=0.5", "L0.attn",      "L1.attn=0.25",
                        "L0.mlp", "L1.mlp=1.5",      "L0.H2,L1.mlp", "L0.H0=-1,L0.attn=0.5"};
  for (const Case& tc : cases) {
    const Model model = random_model(tc.cfg, 71);
    const std::vector<int> tokens = random_tokens(20, tc.cfg.vocab_size, 17);
    const std::vector<Vec> plain = run_passes(model, tc.threads, tokens, 12, {}, 0, 0);
    for (const char* text : sets) {
      CAPTURE(tc.name);
      CAPTURE(text);
      const InterventionSet set = parse_ok(text);
      REQUIRE(validate(set, tc.cfg).ok());
      // Every pass intervened: the prefill and each decode step.
      const Mat ref = reference_forward(model, tokens, set);  // (20, vocab_size)
      const std::vector<Vec> got = run_passes(model, tc.threads, tokens, 12, set, 0, 1 << 30);
      double scale = 1.0, worst = 0.0, moved = 0.0;
      for (size_t k = 0; k < got.size(); ++k) {
        const Eigen::Index row = static_cast<Eigen::Index>(11 + k);
        scale = std::max(scale, static_cast<double>(ref.row(row).cwiseAbs().maxCoeff()));
        worst = std::max(worst, max_abs_diff(got[k], ref.row(row)));
        moved = std::max(moved, max_abs_diff(got[k], plain[k]));
      }
      CHECK(worst < 1e-5 * scale);
      CHECK(moved > 1e-3);  // the intervention changed the logits: the comparison can fail
      // Only the decode passes at positions 15..17 intervened (the K/V rows they wrote carry it
      // into the later passes).
      const Mat part = reference_forward(model, tokens, set, 15, 18);
      const std::vector<Vec> some = run_passes(model, tc.threads, tokens, 12, set, 15, 18);
      worst = 0.0;
      for (size_t k = 0; k < some.size(); ++k) {
        worst = std::max(worst, max_abs_diff(some[k], part.row(static_cast<Eigen::Index>(11 + k))));
      }
      CHECK(worst < 1e-5 * scale);
      CHECK(max_abs_diff(some[0], plain[0]) == 0.0);  // the prefill ran without it
    }
  }
}

TEST_CASE("a factor of 1 changes nothing; switching a head off equals scaling it by 0") {
  const ModelConfig cfg = llama_config(4, 2);
  const Model model = random_model(cfg, 72);
  const std::vector<int> tokens = random_tokens(10, cfg.vocab_size, 18);
  const std::vector<Vec> plain = run_passes(model, 1, tokens, 6, {}, 0, 0);
  const std::vector<Vec> ones =
      run_passes(model, 1, tokens, 6, parse_ok("L0.H1=1,L1.mlp=1"), 0, 99);
  for (size_t k = 0; k < plain.size(); ++k) CHECK(plain[k] == ones[k]);
  const std::vector<Vec> off = run_passes(model, 1, tokens, 6, parse_ok("L0.H1"), 0, 99);
  const std::vector<Vec> zero = run_passes(model, 1, tokens, 6, parse_ok("L0.H1=0"), 0, 99);
  for (size_t k = 0; k < off.size(); ++k) CHECK(off[k] == zero[k]);
}
