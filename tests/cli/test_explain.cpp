// `tokenscope explain` (the token receipt as a table and as JSON, --map), `generate --ablate`
// (--compare) and `trace --receipts`, run in-process on the shipped story model; bad input gives
// one line and a non-zero code.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.h"
#include "golden.h"
#include "trace/trace_json.h"

using namespace ts;

namespace {

struct ExRun {
  int code = 0;
  std::string out, err;
};

ExRun ex_run(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  ExRun r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string ex_model() { return (test::source_dir() / "models" / "tales-4m.gguf").string(); }

void ex_one_line_error(const ExRun& r, const std::string& has) {
  CHECK(r.code != 0);
  CHECK(r.out.empty());
  CHECK_MESSAGE(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
  CHECK_MESSAGE(r.err.find(has) != std::string::npos, r.err);
}

}  // namespace

TEST_CASE("explain --json: the receipt's fields; the parts add up to the logit difference") {
  const ExRun r =
      ex_run({"explain", "--model", ex_model(), "--prompt", "Once upon a time", "--step", "4",
              "--vs", " the", "--temperature", "0.8", "--top-k", "20", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* key : {"chosen", "vs", "logit_diff", "parts", "stages", "draw"}) {
    CHECK_MESSAGE(j.contains(key), key);
  }
  CHECK(j["step"] == 4);
  CHECK(j["vs"]["piece"] == " the");
  double sum = 0;
  std::vector<std::string> names;
  for (const auto& p : j["parts"]) {
    sum += p["value"].get<double>();
    names.push_back(p["name"]);
  }
  const double diff = j["logit_diff"].get<double>();
  CHECK(std::abs(sum - diff) < 1e-4 * std::max(1.0, std::abs(diff)));
  CHECK(names.front() == "embedding");
  CHECK(std::find(names.begin(), names.end(), "L0.H3") != names.end());
  CHECK(std::find(names.begin(), names.end(), "L1.mlp") != names.end());
  CHECK(j["stages"].size() == 5);  // the default chain: penalties, top-k, top-p, min-p, temperature
  CHECK(j["stages"][1]["name"] == "top-k 20");
  // By id: the same receipt.
  const int id = j["vs"]["id"];
  const ExRun by_id =
      ex_run({"explain", "--model", ex_model(), "--prompt", "Once upon a time", "--step", "4",
              "--vs", "#" + std::to_string(id), "--temperature", "0.8", "--top-k", "20", "--json"});
  CHECK(by_id.out == r.out);
}

TEST_CASE("explain: the readable table, largest parts first, and the sum line") {
  const ExRun r = ex_run({"explain", "--model", ex_model(), "--prompt", "Once upon a time",
                          "--step", "0", "--vs", " the", "--parts", "5"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("step 0 (prefill") != std::string::npos);
  CHECK(r.out.find("parts sum to ") != std::string::npos);
  CHECK(r.out.find(" = logit difference ") != std::string::npos);
  CHECK(r.out.find("smaller parts add") != std::string::npos);
  CHECK(r.out.find("sampler, stage by stage") != std::string::npos);
  CHECK(r.out.find("draw: u = ") != std::string::npos);
  // The listed parts, in order of size.
  std::istringstream in(r.out);
  std::string line;
  std::vector<double> sizes;
  while (std::getline(in, line)) {
    if (line.size() > 20 && line.rfind("  L", 0) == 0 && line.find("kept") == std::string::npos) {
      sizes.push_back(std::abs(std::stod(line.substr(line.find_last_of(' ') + 1))));
    }
  }
  REQUIRE(sizes.size() >= 3);
  for (size_t i = 1; i < sizes.size(); ++i) CHECK(sizes[i - 1] >= sizes[i]);
}

TEST_CASE("explain --map: layers x steps; the last layer is the step's own rank") {
  const ExRun r = ex_run({"explain", "--model", ex_model(), "--prompt", "Once upon a time", "--map",
                          "--max-tokens", "8", "--temperature", "0", "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  REQUIRE(j["steps"].size() == 8);
  const int L = j["n_layers"];
  for (const auto& st : j["steps"]) {
    CHECK(st["rank"][L - 1] == 0);  // greedy: the chosen token is the last layer's top
    CHECK(st["decided_at"].get<int>() >= 0);
  }
  const ExRun table = ex_run({"explain", "--model", ex_model(), "--prompt", "Once upon a time",
                              "--map", "--max-tokens", "4", "--temperature", "0"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("L0 ") != std::string::npos);
  CHECK(table.out.find("chosen: 0=") != std::string::npos);
}

TEST_CASE("explain: bad input is one line and a non-zero code") {
  ex_one_line_error(ex_run({"explain", "--model", ex_model(), "--prompt", "Once"}), "--step");
  ex_one_line_error(ex_run({"explain", "--model", ex_model(), "--step", "1", "--vs", "qqzzqq"}),
                    "no token is exactly");
  ex_one_line_error(ex_run({"explain", "--model", ex_model(), "--step", "1", "--vs", "#99999"}),
                    "no token is exactly");
  ex_one_line_error(
      ex_run({"explain", "--model", ex_model(), "--step", "40", "--vs", " the", "--stop", "."}),
      "the run stopped at step");
  ex_one_line_error(ex_run({"explain", "--model", ex_model(), "--step", "1", "--vs", " the",
                            "--ablate", "L7.H0"}),
                    "--ablate: L7.H0");
  ex_one_line_error(ex_run({"explain", "--model", "/nonexistent.gguf", "--step", "1", "--vs", "a"}),
                    "nonexistent");
  CHECK(ex_run({"explain", "--help"}).code == 0);
}

TEST_CASE("generate --ablate changes the text; --compare says where it parts") {
  const std::vector<std::string> base = {"generate", "--model",          ex_model(),
                                         "--prompt", "Once upon a time", "--max-tokens",
                                         "24",       "--temperature",    "0"};
  const ExRun plain = ex_run(base);
  REQUIRE(plain.code == 0);
  std::vector<std::string> ablated = base;
  ablated.insert(ablated.end(), {"--ablate", "L3.mlp,L2.H1=0.5", "--ablate-step", "3"});
  const ExRun a = ex_run(ablated);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  CHECK(a.out != plain.out);
  ablated.push_back("--compare");
  const ExRun c = ex_run(ablated);
  REQUIRE_MESSAGE(c.code == 0, c.err);
  CHECK(c.out.rfind(a.out, 0) == 0);  // the intervened text first
  CHECK(c.out.find("without L3.mlp,L2.H1=0.5: " + plain.out.substr(0, plain.out.size() - 1)) !=
        std::string::npos);
  CHECK(c.out.find("KL(without || with) at step 3 = ") != std::string::npos);
  CHECK(c.out.find("the texts part at step ") != std::string::npos);
  ex_one_line_error(ex_run({"generate", "--model", ex_model(), "--ablate", "L0.Q1"}), "--ablate");
  ex_one_line_error(ex_run({"generate", "--model", ex_model(), "--compare"}), "--compare");
}

TEST_CASE("trace --receipts writes a receipt on every step; --ablate marks the branch") {
  const std::string path =
      (std::filesystem::temp_directory_path() / "ts_cli_receipts.json").string();
  const ExRun r =
      ex_run({"trace", "--model", ex_model(), "--prompt", "Once upon a time", "--max-tokens", "5",
              "--json", path, "--receipts", "--ablate", "L1.H2", "--ablate-step", "2"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  Result<Trace> t = read_trace_json(path);
  REQUIRE_MESSAGE(t.ok(), (t.ok() ? "" : t.error().message));
  REQUIRE(t->lanes[0].steps.size() == 5);
  for (const TraceStep& st : t->lanes[0].steps) {
    CHECK(st.has_receipt);
    CHECK(st.receipt.vs.id != st.token);
    CHECK(st.has_intervention == (st.index >= 2));
  }
  const ExRun vs = ex_run({"trace", "--model", ex_model(), "--max-tokens", "3", "--json", path,
                           "--receipts", "--receipt-vs", " the"});
  REQUIRE_MESSAGE(vs.code == 0, vs.err);
  t = read_trace_json(path);
  REQUIRE(t.ok());
  for (const TraceStep& st : t->lanes[0].steps) CHECK(st.receipt.vs.piece == " the");
  ex_one_line_error(ex_run({"trace", "--model", ex_model(), "--json", path, "--receipt-vs", "a"}),
                    "--receipts");
  std::filesystem::remove(path);
}
