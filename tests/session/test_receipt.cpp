// The token receipt and the decision map over real sessions: the parts add up to the logit
// difference within 1e-4 x max(1, |difference|) on both shipped models, a random GPT-2 model and
// quantized files (Q8_0, Q4_K), for rivals inside and far outside the top-k; the difference is
// the step's recorded one; each sampler stage's effect on the two tokens agrees with what the
// step recorded, and so does the draw; the decision map's last layer agrees with each step's
// own distribution.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "formats/gguf_model.h"
#include "golden.h"
#include "session/check.h"
#include "session/decision_map.h"
#include "session/lens_read.h"
#include "session/receipt.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/tiny_model.h"

using namespace ts;
using namespace ts::test;

namespace {

SamplerSettings rc_sampler(float t, int top_k, float top_p, float repeat = 1.0f) {
  SamplerSettings s;
  s.label = "lane";
  s.seed = 5;
  stage<Penalties>(s).repeat = repeat;
  stage<TopK>(s).k = top_k;
  stage<TopP>(s).p = top_p;
  stage<Temperature>(s).t = t;
  return s;
}

// softmax of the recorded logits at `id`, and its rank there.
std::pair<double, int> rc_raw(const std::vector<float>& logits, int id) {
  double max = -INFINITY, total = 0;
  for (float v : logits) max = std::max(max, double(v));
  int rank = 0;
  for (size_t i = 0; i < logits.size(); ++i) {
    total += std::exp(double(logits[i]) - max);
    if (logits[i] > logits[id] || (logits[i] == logits[id] && int(i) < id)) ++rank;
  }
  return {std::exp(double(logits[id]) - max) / total, rank};
}

int rc_lowest(const std::vector<float>& logits) {
  return static_cast<int>(std::min_element(logits.begin(), logits.end()) - logits.begin());
}

// Every check of one receipt. `tol`: how far the recomputed difference may be from the recorded
// one, relative to max(1, |largest logit|).
void check_receipt(const Session& s, int lane, int step, int rival, double tol) {
  CAPTURE(step);
  CAPTURE(rival);
  Result<TokenReceipt> r = token_receipt(s, lane, step, rival);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  const Step& st = *step_at(s, lane, step);
  const std::vector<float>& logits = st.forward->logits;
  CHECK(r->chosen.id == st.token);
  CHECK(r->vs.id == rival);
  CHECK(r->position == st.position);
  // The parts add up to the pass's difference, which is the recorded one.
  double sum = 0;
  for (const ReceiptPart& p : r->parts) sum += p.value;
  CHECK(sum == doctest::Approx(r->parts_sum).epsilon(1e-12));
  CHECK(std::abs(r->parts_sum - r->logit_diff) < 1e-4 * std::max(1.0, std::abs(r->logit_diff)));
  CHECK(r->recorded_diff == double(logits[st.token]) - double(logits[rival]));
  double scale = 1.0;
  for (float v : logits) scale = std::max(scale, double(std::abs(v)));
  CHECK(std::abs(r->logit_diff - r->recorded_diff) < tol * scale);
  if (rival == st.token) CHECK(r->logit_diff == 0.0);
  // Raw scores.
  const auto [p_c, rank_c] = rc_raw(logits, st.token);
  const auto [p_x, rank_x] = rc_raw(logits, rival);
  CHECK(r->chosen.p == doctest::Approx(p_c).epsilon(1e-9));
  CHECK(r->chosen.rank == rank_c);
  CHECK(r->vs.p == doctest::Approx(p_x).epsilon(1e-9));
  CHECK(r->vs.rank == rank_x);
  // The stages: the recorded ones; a token the record lists after a stage has the record's
  // logit and probability there.
  REQUIRE(r->stages.size() == st.sampling.stages.size());
  for (size_t i = 0; i < r->stages.size(); ++i) {
    const StageRecord& rec = st.sampling.stages[i];
    CHECK(r->stages[i].name == rec.name);
    CHECK(r->stages[i].n_kept == rec.n_kept);
    for (const Candidate& cand : rec.top) {
      for (const auto* t : {&r->chosen, &r->vs}) {
        if (cand.id != t->id) continue;
        const TokenAtStage& a = t == &r->chosen ? r->stages[i].chosen : r->stages[i].vs;
        CHECK(a.kept == cand.kept);
        CHECK(a.logit == doctest::Approx(cand.logit).epsilon(1e-5));
        if (cand.kept) CHECK(a.p == doctest::Approx(cand.p).epsilon(1e-5));
      }
    }
  }
  // The draw: the sampled token's interval is the recorded one and holds u.
  CHECK(r->draw.u == st.sampling.draw.u);
  CHECK(r->draw.greedy == st.sampling.draw.greedy);
  CHECK(r->draw.sampled == st.sampled_token);
  if (!st.forced) {
    REQUIRE(r->draw.chosen.on_strip);
    CHECK(r->draw.chosen.lo == doctest::Approx(st.sampling.draw.cum_lo).epsilon(1e-6));
    CHECK(r->draw.chosen.hi == doctest::Approx(st.sampling.draw.cum_hi).epsilon(1e-6));
    if (!r->draw.greedy) CHECK((r->draw.chosen.lo <= r->draw.u && r->draw.u < r->draw.chosen.hi));
    for (const ReceiptStage& sg : r->stages) CHECK(sg.chosen.kept);
  }
  if (r->draw.vs.on_strip) CHECK(r->stages.back().vs.kept);
}

// Receipts at the prefill and a few decode steps, against the runner-up, the lowest-logit token
// (far outside any top-k) and the chosen token itself.
void check_run(const Session& s, double tol_prefill, double tol_decode) {
  for (int k : {0, 1, path_length(s, 0) / 2, path_length(s, 0) - 1}) {
    const Step& st = *step_at(s, 0, k);
    const std::vector<float>& logits = st.forward->logits;
    int runner_up = st.token == 0 ? 1 : 0;
    for (int i = 0; i < static_cast<int>(logits.size()); ++i) {
      if (i != st.token && logits[i] > logits[runner_up]) runner_up = i;
    }
    for (int rival : {runner_up, rc_lowest(logits), st.token}) {
      check_receipt(s, 0, k, rival, k == 0 ? tol_prefill : tol_decode);
    }
  }
}

LoadedModel rc_gpt2_model() {
  LoadedModel lm = tiny_model(64, 9);
  ModelConfig c = lm.model.config;
  set_family(c, "gpt2");
  c.n_heads = 4;
  c.n_kv_heads = 4;
  c.d_model = 32;
  c.d_ff = 64;
  lm.model = allocate_model(c);
  SplitMix rng(9);
  Weights& w = lm.model.weights;
  fill_random(w.tok_embd, rng, 1.0);
  fill_random(w.pos_embd, rng, 0.3);
  fill_random(w.out_norm, rng, 0.1, 1.0);
  fill_random(w.out_norm_b, rng, 0.2);
  for (LayerWeights& l : w.layers) {
    for (Vec* v : {&l.attn_norm, &l.ffn_norm}) fill_random(*v, rng, 0.1, 1.0);
    for (Vec* v : {&l.attn_norm_b, &l.ffn_norm_b, &l.bq, &l.bk, &l.bv, &l.bo, &l.b_up, &l.b_down})
      fill_random(*v, rng, 0.2);
    for (Mat* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_up, &l.w_down}) fill_random(*m, rng, 0.25);
  }
  lm.info.config = c;
  return lm;
}

// A random Llama model with 256-wide rows, written as a quantized GGUF file.
std::string rc_quantized_file(GgmlType type, const char* name) {
  LoadedModel lm = tiny_model(64, 10);
  ModelConfig c = lm.model.config;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.d_model = 256;
  c.d_ff = 512;
  c.tied_embeddings = false;
  lm.model = allocate_model(c);
  SplitMix rng(10);
  Weights& w = lm.model.weights;
  fill_random(w.tok_embd, rng, 1.0);
  fill_random(w.output, rng, 0.08);
  fill_random(w.out_norm, rng, 0.1, 1.0);
  for (LayerWeights& l : w.layers) {
    for (Vec* v : {&l.attn_norm, &l.ffn_norm}) fill_random(*v, rng, 0.1, 1.0);
    for (Mat* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down})
      fill_random(*m, rng, 0.08);
  }
  const std::string path =
      (std::filesystem::temp_directory_path() / ("ts_test_receipt_" + std::string(name))).string();
  REQUIRE(save_gguf_model_as(path, lm.model, lm.tokenizer, type).ok());
  return path;
}

}  // namespace

TEST_CASE("receipt: the shipped models, a sampler with penalties, top-k, top-p, temperature") {
  for (const char* name : {"tales-4m.gguf", "english-4m.gguf"}) {
    CAPTURE(name);
    const std::string path = (source_dir() / "models" / name).string();
    REQUIRE(std::filesystem::exists(path));  // shipped with the source
    Session s;
    REQUIRE(s.load_model(path).ok());
    REQUIRE(s.set_prompt("Once upon a time").ok());
    REQUIRE(s.set_sampler(0, rc_sampler(0.8f, 40, 0.9f, 1.3f)).ok());
    REQUIRE(s.run_to(12).ok());
    check_run(s, 1e-4, 1e-4);
    // Greedy: u is not used; the chosen token owns the whole strip.
    REQUIRE(s.set_sampler(0, rc_sampler(0.0f, 0, 1.0f)).ok());
    Result<TokenReceipt> g = token_receipt(s, 0, 3, 100);
    REQUIRE(g.ok());
    CHECK(g->draw.greedy);
    CHECK(g->draw.chosen.lo == 0.0);
    CHECK(g->draw.chosen.hi == 1.0);
    CHECK_FALSE(g->draw.vs.on_strip);
    CHECK_FALSE(g->stages.back().vs.kept);
  }
}

TEST_CASE("receipt: a random GPT-2 model (positions, biases, LayerNorm's mean and bias)") {
  Session s;
  REQUIRE(s.set_model(rc_gpt2_model()).ok());
  REQUIRE(s.set_prompt("the lol ab").ok());
  REQUIRE(s.set_sampler(0, rc_sampler(1.0f, 20, 0.95f)).ok());
  REQUIRE(s.run_to(10).ok());
  check_run(s, 1e-4, 1e-4);
  const TokenReceipt r = token_receipt(s, 0, 4, 5).value();
  CHECK(part_name(r.parts[1].part) == "position");
  CHECK(part_name(r.parts.back().part) == "final_norm_bias");
  int biases = 0;
  for (const ReceiptPart& p : r.parts) biases += p.part.kind == PartKind::AttnBias;
  CHECK(biases == 2);
}

TEST_CASE("receipt: quantized files (Q8_0, Q4_K)") {
  for (GgmlType type : {GgmlType::Q8_0, GgmlType::Q4_K}) {
    const std::string path =
        rc_quantized_file(type, type == GgmlType::Q8_0 ? "q8.gguf" : "q4k.gguf");
    Session s;
    REQUIRE(s.load_model(path).ok());
    REQUIRE(model(s).is_quantized());
    REQUIRE(s.set_prompt("lol the ab").ok());
    REQUIRE(s.set_sampler(0, rc_sampler(1.0f, 0, 1.0f)).ok());
    REQUIRE(s.run_to(8).ok());
    // Decode steps use the decode's kernels: the recorded difference, to rounding. The prefill's
    // last row came from the prefill's kernels (where the CPU lacks VNNI: fp32 activations),
    // within the file type's tolerance of the decode's.
    check_run(s, logit_tolerance(model(s)), 1e-4);
    const TokenReceipt r = token_receipt(s, 0, 2, 7).value();
    CHECK(part_name(r.parts.back().part) == "unembed_rounding");
    std::filesystem::remove(path);
  }
}

TEST_CASE("receipt on an intervention branch: the switched-off head gives nothing") {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 5)).ok());
  REQUIRE(s.set_prompt("lol the").ok());
  REQUIRE(s.run_to(2).ok());
  REQUIRE(s.ablate(Ablation{parse_interventions("L1.H0,L0.mlp=0.5").value(), true}).ok());
  REQUIRE(s.run_to(6).ok());
  check_run(s, 1e-4, 1e-4);
  const TokenReceipt r = token_receipt(s, 0, 4, 3).value();
  for (const ReceiptPart& p : r.parts) {
    if (p.part == PartId{PartKind::Head, 1, 0}) CHECK(p.value == 0.0);
  }
}

TEST_CASE("receipt: a forced token, and what it refuses") {
  Session s;
  REQUIRE(s.set_model(tiny_model(64, 5)).ok());
  REQUIRE(s.set_prompt("lol the").ok());
  REQUIRE(s.set_sampler(0, rc_sampler(1.0f, 5, 1.0f)).ok());
  REQUIRE(s.run_to(3).ok());
  const std::vector<float>& logits = step_at(s, 0, 3)->forward->logits;
  REQUIRE(s.force(rc_lowest(logits)).ok());  // a token top-k 5 cuts
  const TokenReceipt r = token_receipt(s, 0, 3, step_at(s, 0, 3)->sampled_token).value();
  CHECK(r.forced);
  CHECK(r.parts_sum < 0);  // the forced token lost to the sampled one
  CHECK_FALSE(r.draw.chosen.on_strip);
  CHECK(r.draw.vs.on_strip);
  CHECK(r.draw.sampled == r.vs.id);
  CHECK_FALSE(token_receipt(s, 0, 3, -1).ok());
  CHECK_FALSE(token_receipt(s, 0, 3, config(s).vocab_size).ok());
  CHECK_FALSE(token_receipt(s, 0, 4, 1).ok());
  CHECK_FALSE(token_receipt(s, 1, 0, 1).ok());
  const Result<TokenReceipt> far = token_receipt(s, 0, 9, 1);
  REQUIRE_FALSE(far.ok());
  CHECK(far.error().message == "step 9 is not on lane 0's path (0..3)");
}

TEST_CASE("decision map: the last layer is each step's own distribution") {
  for (const char* name : {"tales-4m.gguf", "english-4m.gguf"}) {
    CAPTURE(name);
    Session s;
    REQUIRE(s.load_model((source_dir() / "models" / name).string()).ok());
    REQUIRE(s.set_prompt("Once upon a time").ok());
    REQUIRE(s.set_sampler(0, rc_sampler(1.0f, 0, 1.0f)).ok());
    REQUIRE(s.run_to(30).ok());
    Result<DecisionMap> m = decision_map(s, 0);
    REQUIRE_MESSAGE(m.ok(), (m.ok() ? "" : m.error().message));
    REQUIRE(m->n_steps() == 31);
    REQUIRE(m->n_layers == config(s).n_layers);
    bool some_not_top = false;
    for (int k = 0; k < m->n_steps(); ++k) {
      CAPTURE(k);
      const Step& st = *step_at(s, 0, k);
      CHECK(m->tokens[k] == st.token);
      const auto [p, rank] = rc_raw(st.forward->logits, st.token);
      const LensCell& last = m->at(k, m->n_layers - 1);
      CHECK(last.rank == rank);
      CHECK(last.p == doctest::Approx(p).epsilon(1e-4));
      if (rank == 0) {
        CHECK(m->decided_at[k] >= 0);
        for (int l = m->decided_at[k]; l < m->n_layers; ++l) CHECK(m->at(k, l).rank == 0);
        if (m->decided_at[k] > 0) CHECK(m->at(k, m->decided_at[k] - 1).rank > 0);
      } else {
        CHECK(m->decided_at[k] == -1);
        some_not_top = true;
      }
      // The record's own lens top-k (full record) names the same top token per layer.
      for (int l = 0; l < m->n_layers; ++l) {
        const std::vector<TokenScore>& top = logit_lens(s, *st.forward)[l];
        REQUIRE_FALSE(top.empty());
        if (m->at(k, l).rank == 0) CHECK(top[0].id == st.token);
      }
    }
    CHECK(some_not_top);  // temperature 1 draws below the top now and then
    // Part of the run.
    Result<DecisionMap> part = decision_map(s, 0, 4, 6);
    REQUIRE(part.ok());
    CHECK(part->n_steps() == 3);
    CHECK(part->at(0, 2).rank == m->at(4, 2).rank);
    CHECK_FALSE(decision_map(s, 0, 5, 31).ok());
    CHECK_FALSE(decision_map(s, 2).ok());
  }
}
