// NaN never passes silently: a forward pass whose logits are not finite stops the step with a
// message naming the layer and sub-block where the residual stream first went non-finite, at
// every record level (Off re-runs the pass with a record only on this error path); the session
// is left as it was, and a finite model is unaffected.
#include <doctest/doctest.h>

#include "fuzz/seed_models.h"
#include "session/session.h"
#include "session/session_ops.h"

namespace ts {

namespace {

LoadedModel overflowing_model() {
  LoadedModel lm;
  lm.tokenizer = fuzz::small_spm(40, false, "\xE2\x96\x81");
  lm.model = fuzz::small_model("llama", 40, 32, 3);
  // Finite weights whose products overflow fp32: layer 1's MLP output is +-inf.
  lm.model.weights.layers[1].w_down.setConstant(3e38f);
  lm.model.weights.layers[1].w_up.setConstant(3e38f);
  lm.info.format = "memory";
  lm.info.config = lm.model.config;
  return lm;
}

}  // namespace

TEST_CASE("non-finite logits stop the step and name the layer where they first appeared") {
  for (RecordLevel level : {RecordLevel::Off, RecordLevel::Summary, RecordLevel::Full}) {
    INFO("record level " << static_cast<int>(level));
    Session s;
    REQUIRE(s.set_model(overflowing_model()).ok());
    REQUIRE(set_record_level(s, level).ok());
    REQUIRE(s.set_prompt("the").ok());
    const Status st = s.step();
    REQUIRE_FALSE(st.ok());
    const std::string& m = st.error().message;
    CHECK(m.find("non-finite logits") != std::string::npos);
    CHECK(m.find("layer 1's MLP block") != std::string::npos);
    CHECK(m.find('\n') == std::string::npos);
    CHECK(s.cursor() == -1);  // nothing was taken
    CHECK_FALSE(s.step().ok());  // and again, the same refusal, no crash
  }
}

TEST_CASE("non-finite logits: a finite model still steps normally at every level") {
  for (RecordLevel level : {RecordLevel::Off, RecordLevel::Full}) {
    Session s;
    REQUIRE(s.set_model(fuzz::small_loaded("llama", fuzz::small_spm(40, false, "\xE2\x96\x81")))
                .ok());
    REQUIRE(set_record_level(s, level).ok());
    REQUIRE(s.set_prompt("the").ok());
    CHECK(s.step().ok());
    CHECK(s.step().ok());
  }
}

}  // namespace ts
