// The app's settings file keeps a lane's newer sampler stages (their parameters from the stage
// tables, text ones such as the logit bias included) through a save and a load.
#include <doctest/doctest.h>

#include <string>

#include "app/settings.h"
#include "sampling/sampler_spec.h"

namespace ts {

TEST_CASE("app settings: every stage of a lane's chain survives the settings file") {
  UiState ui;
  SessionSettings ss;
  auto lane = parse_sampler_spec(
      "temp=0.8 typical-p=0.9 top-n-sigma=1.5 xtc-p=0.4 xtc-threshold=0.12 dyn-range=0.3 "
      "bias=5:-2,7:-inf dry=0.8 dry-breakers=13,29 mirostat-tau=4 mirostat-eta=0.2");
  REQUIRE(lane.ok());
  ss.lanes = {lane.value()};
  const std::string text = settings_to_json(ui, ss);
  CHECK(text.find("\"logit-bias\"") != std::string::npos);
  UiState ui2;
  SessionSettings ss2;
  REQUIRE(settings_from_json(text, ui2, ss2).ok());
  REQUIRE(ss2.lanes.size() == 1);
  CHECK(ss2.lanes[0].chain == lane.value().chain);
}

}  // namespace ts
