// Tests of the chain of stage values: a stage repeated (top-k 40 then top-k 5 is top-k 5, two
// temperatures multiply), stages in any order, validation of each value, describe() of chains
// the flat form cannot hold, the flat form's conversions, and specs that keep a base chain.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sampling/flat_settings.h"
#include "sampling/sampler.h"
#include "sampling/sampler_spec.h"
#include "sampling_test_util.h"

using namespace ts;

namespace {

std::vector<float> wavy_logits(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(std::sin(0.37f * i) * 3.0f + 0.01f * i);
  return v;
}

SamplerSettings chain(std::vector<Stage> stages) {
  SamplerSettings s;
  s.chain = std::move(stages);
  return s;
}

void check_same(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("token " << i);
    CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-5));
  }
}

}  // namespace

TEST_CASE("a repeated stage: top-k 40 then top-k 5 is top-k 5; two temperatures multiply") {
  const std::vector<float> logits = wavy_logits(200);
  check_same(final_distribution(chain({TopK{40}, TopK{5}}), logits, {}),
             final_distribution(chain({TopK{5}}), logits, {}));
  check_same(final_distribution(chain({TopK{5}, TopK{40}}), logits, {}),
             final_distribution(chain({TopK{5}}), logits, {}));
  check_same(final_distribution(chain({Temperature{0.5f}, Temperature{0.5f}}), logits, {}),
             final_distribution(chain({Temperature{0.25f}}), logits, {}));
  check_same(final_distribution(chain({Temperature{0.5f}, Temperature{2.0f}}), logits, {}),
             final_distribution(chain({}), logits, {}));

  // Each repeat is recorded as its own stage, named from its own value.
  SamplingRecord rec;
  const int id = sample(chain({TopK{40}, TopK{5}, Temperature{0.8f}}), logits, {}, 3, &rec);
  REQUIRE(rec.stages.size() == 3);
  CHECK(rec.stages[0].name == "top-k 40");
  CHECK(rec.stages[0].n_kept == 40);
  CHECK(rec.stages[1].kind == StageKind::TopK);
  CHECK(rec.stages[1].name == "top-k 5");
  CHECK(rec.stages[1].n_kept == 5);
  CHECK(rec.stages[2].name == "temperature 0.80");
  CHECK(rec.draw.chosen_id == id);
  CHECK(validate(chain({TopK{40}, TopK{5}})).ok());
}

TEST_CASE("any order: the records follow the chain, and the order changes what is kept") {
  const std::vector<float> logits = test::logits_of({0.5, 0.3, 0.2});
  SamplingRecord a, b;
  sample(chain({MinP{0.5f}, Temperature{3.0f}}), logits, {}, 0, &a);
  sample(chain({Temperature{3.0f}, MinP{0.5f}}), logits, {}, 0, &b);
  REQUIRE(a.stages.size() == 2);
  REQUIRE(b.stages.size() == 2);
  CHECK(a.stages[0].name == "min-p 0.50");
  CHECK(a.stages[1].name == "temperature 3.00");
  CHECK(b.stages[0].name == "temperature 3.00");
  // min-p 0.5 on {0.5, 0.3, 0.2} keeps 0.5 and 0.3; after T = 3 all three are within half.
  CHECK(a.stages[0].n_kept == 2);
  CHECK(b.stages[1].n_kept == 3);
  // Greedy wherever its stage stands.
  CHECK(greedy(chain({Temperature{0.0f}, TopK{2}})));
  CHECK(greedy(chain({TopK{2}, Temperature{1.0f}, Temperature{0.0f}})));
  CHECK_FALSE(greedy(chain({TopK{2}})));
  CHECK(sample(chain({Temperature{0.0f}, Temperature{2.0f}}), logits, {}, 9, nullptr) == 0);
}

TEST_CASE("validation names the field, the range and, for a repeated kind, the place") {
  struct Row {
    Stage stage;
    const char* field;
  };
  const Row rows[] = {{Temperature{-1}, "temperature"},
                      {TopK{-1}, "top_k"},
                      {TopP{0}, "top_p"},
                      {MinP{2}, "min_p"},
                      {Penalties{0, 0, 0, 64}, "repetition_penalty"},
                      {Penalties{1, 0, 0, -1}, "penalty_last_n"}};
  for (const Row& r : rows) {
    const Status st = validate(r.stage);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().message.find(r.field) != std::string::npos);
    const Stage other = kind_of(r.stage) == StageKind::TopK ? Stage{MinP{}} : Stage{TopK{3}};
    const Status one = validate(chain({other, r.stage}));
    REQUIRE_FALSE(one.ok());
    CHECK(one.error().message == st.error().message);  // the kind appears once: no place
    const Status twice = validate(chain({r.stage, default_stage(kind_of(r.stage))}));
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.error().message.find("stage 1 of the chain") != std::string::npos);
  }
  CHECK(validate(chain({})).ok());
}

TEST_CASE("describe: the flat layout when each kind appears once, else the chain in order") {
  SamplerSettings s;
  stage<Temperature>(s).t = 0.7f;
  stage<TopK>(s).k = 40;
  CHECK(describe(s) == "T=0.7 top-k=40 seed=42");
  CHECK(describe(chain({TopK{40}, TopK{5}, Temperature{0.8f}})) ==
        "top-k=40 top-k=5 T=0.8 seed=42 order=top-k>top-k>temperature");
  CHECK(describe(chain({TopP{0.9f}, Temperature{0}, TopP{0.5f}})) ==
        "top-p=0.9 greedy top-p=0.5 order=top-p>temperature>top-p");
  CHECK(describe(chain({})) == "T=1 seed=42 order=");
}

TEST_CASE("the flat form: exact for chains without repeats, greedy kept from old files") {
  const std::vector<std::vector<Stage>> exact = {
      default_chain(),
      {},
      {TopK{3}},
      {Temperature{0}, TopP{0.5f}, Penalties{1.2f, 0.1f, 0.2f, 16}},
      {MinP{0.1f}, TopK{7}, Temperature{1.5f}, TopP{0.9f}, Penalties{}},
  };
  for (const std::vector<Stage>& c : exact) {
    CHECK(flat_expressible(c));
    CHECK(chain_of(flatten(c)) == c);
  }
  const std::vector<Stage> repeated = {TopK{40}, Temperature{0.8f}, TopK{5}};
  CHECK_FALSE(flat_expressible(repeated));
  const FlatSettings f = flatten(repeated);  // the first of each kind
  CHECK(f.top_k == 40);
  CHECK(f.order == std::vector<StageKind>{StageKind::TopK, StageKind::Temperature});

  FlatSettings old;  // temperature 0, no "temperature" in the order: greedy all the same
  old.temperature = 0;
  old.order = {StageKind::TopK, StageKind::TopP};
  const std::vector<Stage> c = chain_of(old);
  REQUIRE(c.size() == 3);
  CHECK(std::get<Temperature>(c[2]).t == 0.0f);
  old.temperature = 0.5f;  // a temperature outside the order was never applied
  CHECK(chain_of(old).size() == 2);
}

TEST_CASE("sampler specs keep a base chain unless they name a stage") {
  SamplerSettings base = chain({TopK{40}, TopK{5}, Temperature{0.8f}});
  auto only_seed = parse_sampler_spec("seed=3 label=x", base);
  REQUIRE(only_seed.ok());
  CHECK(only_seed->chain == base.chain);
  CHECK(only_seed->seed == 3);
  // A stage key edits the first stage of its kind; the repeat stays (the spec keys come from
  // the stage descriptors now, no longer from the flat form).
  auto with_temp = parse_sampler_spec("temp=0.5", base);
  REQUIRE(with_temp.ok());
  CHECK(with_temp->chain == std::vector<Stage>{TopK{40}, TopK{5}, Temperature{0.5f}});
  // Key order does not matter, as before: greedy then order, or order then greedy.
  auto a = parse_sampler_spec("greedy order=top-k");
  auto b = parse_sampler_spec("order=top-k greedy");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->chain == b->chain);
  CHECK(greedy(a.value()));
}
