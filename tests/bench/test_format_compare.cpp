// F32 / Q8_0 / Q4_K side by side (bench/format_compare.h), on the shipped model: three rows in
// that order, the bytes one decode step reads in the ratio of the formats' bytes per value (the
// fp32 norms aside), the quantized copies really quantized, a rate measured for each. Timings
// are only checked to exist: speed is the benchmark's business, not a test's.
#include <doctest/doctest.h>

#include <string>

#include "bench/format_compare.h"
#include "formats/model_file.h"

using namespace ts;

TEST_CASE("format comparison: the shipped model as F32, Q8_0 and Q4_K") {
  const std::string path = std::string(TS_SOURCE_DIR) + "/models/tales-4m.gguf";
  Result<LoadedModel> lm = load_model_file(path);
  REQUIRE_MESSAGE(lm.ok(), lm.error().message);
  Result<FormatComparison> fc = compare_formats(lm->model, 1, 4, 1);
  REQUIRE_MESSAGE(fc.ok(), fc.error().message);
  REQUIRE(fc->rows.size() == 3);
  const FormatSpeed* f32 = fc->find("F32");
  const FormatSpeed* q8 = fc->find("Q8_0");
  const FormatSpeed* q4 = fc->find("Q4_K");
  REQUIRE(f32);
  REQUIRE(q8);
  REQUIRE(q4);
  CHECK(fc->rows[0].type == "F32");
  CHECK(fc->find("Q6_K") == nullptr);
  // tales-4m: every matrix row fills whole blocks, so all of them are quantized; what is left
  // at fp32 is the norms (d_model per norm: 2 per layer + the final one).
  const ModelConfig& c = lm->model.config;
  const double norms = 4.0 * c.d_model * (2 * c.n_layers + 1);
  CHECK(q8->bytes_per_token - norms ==
        doctest::Approx((f32->bytes_per_token - norms) * 34.0 / 128.0).epsilon(0.01));
  CHECK(q4->bytes_per_token - norms ==
        doctest::Approx((f32->bytes_per_token - norms) * 144.0 / 1024.0).epsilon(0.01));
  CHECK(f32->weight_bytes > 3.5 * q8->weight_bytes);
  CHECK(q8->weight_bytes > 1.8 * q4->weight_bytes);
  for (const FormatSpeed& r : fc->rows) CHECK(r.tokens_per_s > 0.0);
}
