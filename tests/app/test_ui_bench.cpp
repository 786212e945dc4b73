// bench --ui (app/ui_bench.h) on the shipped model, few frames: the context really gets filled
// (lanes that stop early are forced on), every panel is drawn, and the report's figures are
// finite and positive. No timing is asserted (machines are shared and noisy).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/ui_bench.h"
#include "golden.h"

namespace ts::test {

TEST_CASE("bench --ui fills the whole context and reports finite frame times") {
  const std::filesystem::path model = source_dir() / "models" / "tales-4m.gguf";
  REQUIRE_MESSAGE(std::filesystem::exists(model), "the shipped model is part of the repository");
  UiBenchOptions o;
  o.model = model.string();
  o.frames = 10;
  o.json = true;
  std::ostringstream out, err;
  REQUIRE_MESSAGE(run_ui_bench(o, out, err) == 0, err.str());
  const nlohmann::json j = nlohmann::json::parse(out.str());
  const int n_ctx = j.at("n_ctx").get<int>();
  CHECK(n_ctx == 256);
  // The newest token is chosen but not yet in the cache: n_ctx - 1 cached positions.
  CHECK(j.at("positions").get<int>() >= n_ctx - 1);
  CHECK(j.at("lanes").get<int>() == 2);
  CHECK(j.at("frames").get<int>() == 10);
  for (const char* k : {"median_ms", "p90_ms", "max_ms", "fill_seconds"}) {
    CAPTURE(k);
    const double v = j.at(k).get<double>();
    CHECK(std::isfinite(v));
    CHECK(v > 0);
  }
  CHECK(j.at("median_ms").get<double>() <= j.at("max_ms").get<double>());
  CHECK(j.at("vertices").get<int>() > 10000);  // every panel drew its content, not empty boxes
}

TEST_CASE("bench --ui reports a model that does not load") {
  UiBenchOptions o;
  o.model = "/nonexistent/model.gguf";
  o.frames = 10;
  std::ostringstream out, err;
  CHECK(run_ui_bench(o, out, err) == 1);
  CHECK(err.str().find("did not load") != std::string::npos);
}

}  // namespace ts::test
