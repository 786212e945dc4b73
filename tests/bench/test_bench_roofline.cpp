// bench --roofline on tiny sizes: the probes on a few MiB and a short FMA run, a roofline run on
// the hidden "tiny" random shape, its JSON fields present, positive and finite, and the
// agreement with reference_forward. No timing is asserted: only that numbers came out. And
// bench --write-shape: the tiny shape written as GGUF loads back with its config and weights.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench_models.h"
#include "bench/bench_probes.h"
#include "bench/bench_roofline.h"
#include "cli/cli.h"
#include "formats/model_file.h"

using namespace ts;

namespace {

struct RoofRun {
  int code = 0;
  std::string out, err;
};

RoofRun run_roof(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  RoofRun r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

bool positive(const nlohmann::json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0;
}

const std::vector<std::string> kTinyRoofline = {
    "bench", "--roofline", "--shapes", "tiny", "--probe-mib", "4", "--probe-gflop", "0.002",
    "--roofline-decode", "6", "--threads", "2"};

}  // namespace

TEST_CASE("roofline probes on tiny sizes") {
  bench::ProbeOptions o;
  o.read_bytes = size_t{2} << 20;
  o.fma_flops = 1e6;
  o.repeats = 1;
  for (int threads : {1, 2}) {
    const bench::ProbeResult r = bench::run_probes(threads, o);
    CHECK(r.threads == threads);
    CHECK(r.checked);
    CHECK(std::isfinite(r.read_bytes_per_s));
    CHECK(r.read_bytes_per_s > 0);
    CHECK(std::isfinite(r.fma_flops_per_s));
    CHECK(r.fma_flops_per_s > 0);
  }
  CHECK(bench::probe_vector_floats() >= 4);
}

TEST_CASE("roofline shapes") {
  for (const char* s : {"15M", "42M", "110M", "tiny"}) CHECK_MESSAGE(bench::roofline_shape_config(s).ok(), s);
  CHECK(bench::roofline_shape_config("42M")->d_ff == 1376);
  CHECK(bench::roofline_shape_config("110M")->n_layers == 12);
  CHECK_FALSE(bench::roofline_shape_config("7B").ok());
}

TEST_CASE("bench --roofline --json on the tiny shape") {
  std::vector<std::string> args = kTinyRoofline;
  args.push_back("--json");
  const RoofRun r = run_roof(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j.contains("roofline"));
  CHECK_FALSE(j.contains("memory"));  // opt-in section alone
  const nlohmann::json& rl = j["roofline"];
  CHECK(rl["probes_checked"] == true);
  CHECK(rl["all_agree"] == true);
  REQUIRE(rl["probes"].size() == 2);
  for (const auto& p : rl["probes"]) {
    CHECK(positive(p["read_bytes_per_s"]));
    CHECK(positive(p["fma_flops_per_s"]));
  }
  CHECK(rl["probes"][1]["threads"] == 2);
  for (const char* t : {"memory_fraction", "compute_fraction", "summary_ratio", "full_ratio"}) {
    CHECK_MESSAGE(positive(rl["targets"][t]), t);
  }
  REQUIRE(rl["shapes"].size() == 1);
  const nlohmann::json& s = rl["shapes"][0];
  CHECK(s["name"] == "tiny");
  REQUIRE(s["ran"] == true);
  CHECK(s["agrees_with_reference"] == true);
  CHECK(s["checked_steps"] == 8);
  CHECK(s["max_logit_diff"].get<double>() <= 1e-4 * std::max(1.0, s["logit_scale"].get<double>()));
  CHECK(positive(s["params"]));
  CHECK(positive(s["weight_bytes_per_token"]));
  REQUIRE(s["prefill"].size() == 2);
  CHECK(s["prefill"][0]["tokens"] == 64);
  CHECK(s["prefill"][1]["tokens"] == 128);  // 512 clamped to the tiny context
  for (const auto& p : s["prefill"]) {
    CHECK(positive(p["tokens_per_s"]));
    CHECK(positive(p["flops"]));
    CHECK(positive(p["compute_fraction"]));
  }
  CHECK(s["decode_steps"] == 6);
  for (const char* k : {"off_1_thread", "off", "summary", "full"}) {
    CHECK_MESSAGE(positive(s["decode_tokens_per_s"][k]), k);
  }
  for (const char* k : {"memory_fraction", "compute_fraction", "summary_ratio", "full_ratio",
                        "decode_read_bytes_per_s"}) {
    CHECK_MESSAGE(positive(s[k]), k);
  }
  // The memory fraction is the decode against the bandwidth probed between its steps.
  const double bytes = s["weight_bytes_per_token"].get<double>();
  CHECK(s["memory_fraction"].get<double>() ==
        doctest::Approx(s["decode_tokens_per_s"]["off"].get<double>() * bytes /
                        s["decode_read_bytes_per_s"].get<double>()));
  for (const char* k : {"memory", "compute", "summary", "full"}) CHECK(s["met"][k].is_boolean());
  CHECK(s["compute_target_applies"] == false);  // a 128-token context: no 512-token prompt
}

TEST_CASE("bench --roofline prints the table; a bad shape is refused") {
  const RoofRun r = run_roof(kTinyRoofline);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("memory read bandwidth") != std::string::npos);
  CHECK(r.out.find("agrees with reference") != std::string::npos);
  CHECK(r.out.find("tiny") != std::string::npos);
  CHECK(r.out.find("n/a") != std::string::npos);  // the tiny context is below the 512-token target
  CHECK(r.out.find(" yes (") != std::string::npos);
  CHECK(r.out.find(">= 0.85") != std::string::npos);

  const RoofRun bad = run_roof({"bench", "--roofline", "--shapes", "7B", "--probe-mib", "1"});
  CHECK(bad.code != 0);
  CHECK(bad.err.find("unknown shape") != std::string::npos);
}

TEST_CASE("bench --write-shape writes a roofline shape as GGUF that loads back") {
  const std::string path =
      (std::filesystem::temp_directory_path() / "ts_test_bench_write_shape_tiny.gguf").string();
  const RoofRun r = run_roof({"bench", "--write-shape", "tiny", "--out", path});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("wrote ") != std::string::npos);
  Result<LoadedModel> lm = load_model_file(path);
  std::filesystem::remove(path);
  REQUIRE_MESSAGE(lm.ok(), lm.error().message);
  const ModelConfig want = bench::roofline_shape_config("tiny").value();
  const ModelConfig& c = lm->model.config;
  CHECK(lm->info.format == "gguf");
  CHECK(c.architecture == "llama");
  CHECK(c.name == want.name);
  CHECK(c.n_layers == 2);
  CHECK(c.n_heads == 4);
  CHECK(c.n_kv_heads == 4);
  CHECK(c.d_model == 64);
  CHECK(c.d_ff == 172);
  CHECK(c.vocab_size == 512);
  CHECK(c.n_ctx == 128);
  CHECK(c.tied_embeddings);
  // The weights the roofline measures (its seed), and the synthetic vocabulary with the space
  // as a piece of its own (U+2581 in GGUF).
  const LoadedModel mem = bench::random_model(want, 1000 + static_cast<uint64_t>(want.d_model));
  CHECK(lm->model.weights.tok_embd == mem.model.weights.tok_embd);
  CHECK(lm->model.weights.layers[1].w_down == mem.model.weights.layers[1].w_down);
  REQUIRE(lm->tokenizer.tokens.size() == 512);
  CHECK(lm->tokenizer.tokens[259] == "\xE2\x96\x81");
  CHECK(lm->tokenizer.bos_id == 1);
  CHECK(lm->tokenizer.eos_id == 2);

  const RoofRun no_out = run_roof({"bench", "--write-shape", "tiny"});
  CHECK(no_out.code != 0);
  CHECK(no_out.err.find("--out") != std::string::npos);
  const RoofRun bad = run_roof({"bench", "--write-shape", "7B", "--out", path});
  CHECK(bad.code != 0);
  CHECK(bad.err.find("unknown shape") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(path));
}
