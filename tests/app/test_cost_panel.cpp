// The Cost panel's roofline truths: this machine's measured ceilings (JSON cache, when a cached
// measurement fits, where a pass sits under the roofs), and a panel that shows no reference
// roofs, only measured ones placing prefill and decode.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "app/machine_ceilings.h"
#include "app/panels/panels.h"
#include "harness.h"
#include "session/session_access.h"

namespace ts::test {

TEST_CASE("machine ceilings: JSON round trip, cache fit, place on the roofline") {
  MachineCeilings m;
  m.valid = true;
  m.cpu = "Some CPU";
  m.threads = 2;
  m.dram_bytes_per_s = 1.5e10;
  m.working_set_bytes = 4e6;
  m.working_set_bytes_per_s = 1.2e11;
  m.flops_per_s = 8e10;
  Result<MachineCeilings> back = ceilings_from_json(ceilings_to_json(m));
  REQUIRE(back.ok());
  CHECK(back.value().valid);
  CHECK(back.value().cpu == "Some CPU");
  CHECK(back.value().threads == 2);
  CHECK(back.value().flops_per_s == doctest::Approx(8e10));
  CHECK(back.value().working_set_bytes_per_s == doctest::Approx(1.2e11));
  CHECK_FALSE(ceilings_from_json("{\"cpu\": 1}").ok());
  CHECK_FALSE(ceilings_from_json("not json").ok());
  CHECK(ceilings_fit(m, "Some CPU", 2, 5e6));
  CHECK_FALSE(ceilings_fit(m, "Other CPU", 2, 4e6));
  CHECK_FALSE(ceilings_fit(m, "Some CPU", 1, 4e6));
  CHECK_FALSE(ceilings_fit(m, "Some CPU", 2, 40e6));  // another model size: measure again
  // Roofline: ridge = 8e10 / 1.2e11; decode at 0.5 FLOPs/byte is left of it, prefill at 4 right.
  const RoofPlace d = place_on_roofline(0.5, 3e10, 8e10, 1.2e11);
  CHECK(d.ridge == doctest::Approx(8e10 / 1.2e11));
  CHECK(d.memory_side);
  CHECK(d.roof == doctest::Approx(6e10));
  CHECK(d.fraction == doctest::Approx(0.5));
  const RoofPlace p = place_on_roofline(4.0, 2e10, 8e10, 1.2e11);
  CHECK_FALSE(p.memory_side);
  CHECK(p.roof == doctest::Approx(8e10));
  CHECK(p.fraction == doctest::Approx(0.25));
}

TEST_CASE("cost panel: no reference roofs; the measured ones place prefill and decode") {
  std::unique_ptr<Session> s = make_session(SessionState::Mid);
  ImGuiHarness h;
  UiState ui = laid_out_ui();
  ui.log.record = true;
  ui.frame.rects[static_cast<int>(PanelId::Cost)] = PanelRect{0, 0, 1000, 1400};
  ui.cost.section = kCostRoofline;
  Commands cmd;
  h.frame([&] { draw_cost_panel(*s, ui.env(), ui.cost, cmd); });
  // Nothing measured yet: a button, no roofline verdicts.
  CHECK(find_drawn(ui, "button", "measure machine") != nullptr);
  CHECK(find_drawn(ui, "roof_decode") == nullptr);
  double ws = 0;
  for (int k = 0; k < path_length(*s, 0); ++k)
    ws = std::max(ws, step_at(*s, 0, k)->forward->cost.weight_bytes);
  // Ceilings for this CPU and thread count: decode's intensity is far below the ridge made here.
  ui.cost.ceilings.valid = true;
  ui.cost.ceilings.cpu = cpu_model_name();
  ui.cost.ceilings.threads = s->options().n_threads;
  ui.cost.ceilings.working_set_bytes = ws;
  ui.cost.ceilings.working_set_bytes_per_s = 1e9;
  ui.cost.ceilings.dram_bytes_per_s = 5e8;
  ui.cost.ceilings.flops_per_s = 1e12;  // ridge 1000 FLOPs/byte
  ui.log.drawn.clear();
  h.frame([&] { draw_cost_panel(*s, ui.env(), ui.cost, cmd); });
  h.frame([&] { draw_cost_panel(*s, ui.env(), ui.cost, cmd); });
  CHECK(find_drawn(ui, "button", "measure machine") == nullptr);
  const DrawnItem* d = find_drawn(ui, "roof_decode");
  REQUIRE(d != nullptr);
  CHECK(d->label == "memory");
  const DrawnItem* p = find_drawn(ui, "roof_prefill");
  REQUIRE(p != nullptr);
  CHECK(p->label == "memory");                             // below a ridge of 1000 FLOPs/byte too
  REQUIRE(find_drawn(ui, "roof_decode_dram") != nullptr);  // main memory's ridge: 2000
  CHECK(find_drawn(ui, "roof_decode_dram")->label == "memory");
  ui.cost.ceilings.flops_per_s = 1e8;  // ridge 0.1: now both sit right of it
  ui.log.drawn.clear();
  h.frame([&] { draw_cost_panel(*s, ui.env(), ui.cost, cmd); });
  REQUIRE(find_drawn(ui, "roof_prefill") != nullptr);
  CHECK(find_drawn(ui, "roof_prefill")->label == "compute");
  REQUIRE(find_drawn(ui, "roof_decode_dram") != nullptr);  // main memory's ridge: 0.2
  CHECK(find_drawn(ui, "roof_decode_dram")->label == "compute");
  // Weights in the cache: right of the cache's ridge (0.75 I), left of main memory's (1.5 I).
  const Step* last = step_at(*s, 0, path_length(*s, 0) - 1);
  const double intensity = last->forward->cost.arithmetic_intensity();
  REQUIRE(intensity > 0);
  ui.cost.ceilings.flops_per_s = intensity * 0.75 * 1e9;
  ui.log.drawn.clear();
  h.frame([&] { draw_cost_panel(*s, ui.env(), ui.cost, cmd); });
  REQUIRE(find_drawn(ui, "roof_decode") != nullptr);
  CHECK(find_drawn(ui, "roof_decode")->label == "compute");
  REQUIRE(find_drawn(ui, "roof_decode_dram") != nullptr);
  CHECK(find_drawn(ui, "roof_decode_dram")->label == "memory");
}

}  // namespace ts::test

#include <filesystem>

#include "trace/trace_json.h"

namespace ts::test {}  // namespace ts::test
