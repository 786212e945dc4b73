// The command line run in-process (cli_run with string streams): help for every command, bad
// input -> non-zero with one line on stderr, and real runs of generate / tokenize / info /
// trace / convert / bench on a tiny GGUF written here and on the llama2.c golden model.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.h"
#include "golden.h"
#include "session/tiny_model.h"
#include "trace/trace_json.h"

using namespace ts;

namespace {

struct Run {
  int code = 0;
  std::string out, err;
};

Run run(std::vector<std::string> args) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  Run r;
  r.code = cli_run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

std::string tmp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

// The tiny random model as a GGUF file (written once per test run).
std::string tiny_gguf() {
  const std::string path = tmp("ts_cli_tiny.gguf");
  LoadedModel m = test::tiny_model(48, 2);
  REQUIRE(save_gguf_model(path, m.model, m.tokenizer).ok());
  return path;
}

std::string golden(const std::string& f) { return (test::golden_dir() / "llama2c" / f).string(); }

}  // namespace

TEST_CASE("command names vs app flags") {
  for (const char* c : {"generate", "tokenize", "info", "trace", "explain", "convert", "train",
                        "bench", "lesson", "plot-loss", "--help", "-h", "--version"}) {
    CHECK_MESSAGE(is_cli_command(c), c);
  }
  for (const char* c : {"--model", "--script", "--screenshot", "--prompt", "foo", ""}) {
    CHECK_FALSE_MESSAGE(is_cli_command(c), c);
  }
}

TEST_CASE("--help works for the program and every command") {
  Run top = run({"--help"});
  CHECK(top.code == 0);
  for (const char* c : {"generate", "tokenize", "info", "trace", "convert", "bench", "train",
                        "lesson", "plot-loss"}) {
    CHECK(top.out.find(c) != std::string::npos);
  }
  CHECK(run({"--version"}).code == 0);
  for (const char* c : {"generate", "tokenize", "info", "trace", "convert", "bench"}) {
    Run r = run({c, "--help"});
    CHECK_MESSAGE(r.code == 0, c);
    CHECK_MESSAGE(r.out.find("--model") != std::string::npos, c);
    CHECK(r.err.empty());
  }
  Run g = run({"generate", "--help"});
  for (const char* o : {"--prompt", "--temperature", "--top-k", "--top-p", "--min-p", "--seed",
                        "--max-tokens", "--stop", "--record", "--lanes", "--top"}) {
    CHECK_MESSAGE(g.out.find(o) != std::string::npos, o);
  }
  CHECK(run({"trace", "--help"}).out.find("--json") != std::string::npos);
}

TEST_CASE("bad input gives a non-zero code and one line on stderr") {
  const std::string model = tiny_gguf();
  const std::vector<std::vector<std::string>> bad = {
      {"nonsense"},
      {"generate", "--model", model, "--temperature", "hot"},
      {"generate", "--model", model, "--record", "everything"},
      {"generate", "--model", model, "--max-tokens", "0"},
      {"generate", "--model", model, "--top-p", "1.5"},
      {"generate", "--model", model, "--lanes", "greedy; warp=9"},
      {"generate", "--model", "/nonexistent/m.gguf"},
      {"generate", "--model", model, "--unknown-flag"},
      {"info", "--model", "/nonexistent/m.gguf"},
      {"tokenize", "--tokenizer", "/nonexistent/t.bin", "--prompt", "x"},
      {"trace", "--model", model},  // --json is required
      {"convert", "--model", model},
      {"bench", "--seek-steps", "-3"},
  };
  for (const auto& args : bad) {
    Run r = run(args);
    CHECK_MESSAGE(r.code != 0, args[0] << " " << (args.size() > 1 ? args.back() : ""));
    CHECK_MESSAGE(lines(r.err) == 1, r.err);
  }
}

TEST_CASE("generate, tokenize, info, trace on a tiny GGUF") {
  const std::string model = tiny_gguf();
  Run g = run({"generate", "--model", model, "--prompt", "the", "--temperature", "0",
               "--max-tokens", "12"});
  REQUIRE(g.code == 0);
  CHECK(g.out.rfind("the", 0) == 0);
  CHECK(g.err.find("max tokens") != std::string::npos);
  // Same settings, same text; another seed at T=1 is free to differ but is reproducible.
  CHECK(run({"generate", "--model", model, "--prompt", "the", "--temperature", "0",
             "--max-tokens", "12"}).out == g.out);
  Run s1 = run({"generate", "--model", model, "--seed", "5", "--max-tokens", "12"});
  Run s2 = run({"generate", "--model", model, "--seed", "5", "--max-tokens", "12"});
  CHECK(s1.out == s2.out);

  Run top = run({"generate", "--model", model, "--prompt", "the", "--temperature", "0",
                 "--max-tokens", "5", "--top", "3"});
  REQUIRE(top.code == 0);
  CHECK(top.out.find("step 0 (prefill") != std::string::npos);
  CHECK(top.out.find("step 4 (decode") != std::string::npos);
  CHECK(top.out.find("*'") != std::string::npos);  // the chosen token is marked

  Run lanes = run({"generate", "--model", model, "--prompt", "the", "--max-tokens", "20",
                   "--lanes", "greedy; temp=0 top-k=3; temp=3 seed=9"});
  REQUIRE(lanes.code == 0);
  CHECK(lanes.out.find("[greedy]") != std::string::npos);
  CHECK(lanes.out.find("first divergence: step") != std::string::npos);

  Run stop = run({"generate", "--model", model, "--prompt", "the", "--max-tokens", "40",
                  "--stop", "zz", "--stop", "a"});
  CHECK(stop.code == 0);

  Run tok = run({"tokenize", "--model", model, "--prompt", "the lab", "--ids"});
  REQUIRE(tok.code == 0);
  CHECK(lines(tok.out) == 1);
  Run tok2 = run({"tokenize", "--tokenizer", model, "--prompt", "a\xff"});
  REQUIRE(tok2.code == 0);
  CHECK(tok2.out.find("<0xFF>") != std::string::npos);
  CHECK(tok2.out.find("3 tokens") != std::string::npos);

  Run info = run({"info", "--model", model});
  REQUIRE(info.code == 0);
  CHECK(info.out.find("n_ctx:         48") != std::string::npos);
  CHECK(info.out.find("parameters:") != std::string::npos);
  CHECK(info.out.find("SentencePiece") != std::string::npos);

  const std::string json = tmp("ts_cli_trace.json");
  Run tr = run({"trace", "--model", model, "--json", json, "--max-tokens", "6", "--lanes",
                "greedy; temp=1"});
  REQUIRE(tr.code == 0);
  Result<Trace> t = read_trace_json(json);
  REQUIRE(t.ok());
  CHECK(t->lanes.size() == 2);
  CHECK(t->lanes[0].steps.size() == 6);
  CHECK(t->record_level == RecordLevel::Full);
  std::filesystem::remove(json);
}

TEST_CASE("info --json lists the GGUF container: every key with its type and value, every tensor") {
  const std::string model = tiny_gguf();
  Run r = run({"info", "--model", model, "--json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["format"] == "gguf");
  CHECK(j["n_ctx"] == 48);
  const nlohmann::json& g = j["gguf"];
  CHECK(g["version"] == 3);
  CHECK(g["alignment"] == 32);
  CHECK(g["data_offset"].get<uint64_t>() % 32 == 0);
  CHECK(g["file_bytes"] == std::filesystem::file_size(model));
  std::map<std::string, nlohmann::json> kv;
  for (const auto& e : g["metadata"]) kv[e["key"].get<std::string>()] = e;
  CHECK(kv["general.architecture"]["type"] == "string");
  CHECK(kv["general.architecture"]["value"] == "llama");
  CHECK(kv["llama.context_length"]["type"] == "uint32");
  CHECK(kv["llama.context_length"]["value"] == 48);
  CHECK(kv["tokenizer.ggml.add_bos_token"]["value"].is_boolean());
  CHECK(kv["tokenizer.ggml.tokens"]["type"] == "array");
  CHECK(kv["tokenizer.ggml.tokens"]["array_type"] == "string");
  CHECK(kv["tokenizer.ggml.tokens"]["value"].size() == kv["tokenizer.ggml.scores"]["value"].size());
  uint64_t end = 0;
  size_t n_params = 0;
  for (const auto& t : g["tensors"]) {
    CHECK(t["offset"].get<uint64_t>() % 32 == 0);
    CHECK(t["offset"].get<uint64_t>() >= end);  // in order, no overlap
    end = t["offset"].get<uint64_t>() + t["bytes"].get<uint64_t>();
    size_t n = 1;
    for (const auto& d : t["shape"]) n *= d.get<size_t>();
    n_params += n;
  }
  CHECK(n_params == j["n_params"].get<size_t>());
  CHECK(g["data_offset"].get<uint64_t>() + end <= g["file_bytes"].get<uint64_t>());
  CHECK(g["tensors"][0]["name"] == "token_embd.weight");
  CHECK(g["tensors"][0]["type"] == "F32");
}

TEST_CASE("bench --seek --json runs on a random model") {
  Run b = run({"bench", "--seek", "--seek-steps", "60", "--seek-shape", "tiny", "--json",
               "--threads", "1"});
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const nlohmann::json j = nlohmann::json::parse(b.out);
  CHECK(j["seek"]["ran"] == true);
  CHECK(j["seek"]["steps"] == 60);
  CHECK(j["seek"]["seek_mean_us"].get<double>() > 0);
  CHECK(j["seek"]["shape"] == "tiny");
  CHECK(run({"bench", "--seek", "--seek-shape", "7B"}).code == 2);  // not a bench shape
}

TEST_CASE("bench --soak N runs only the soak and reports the invariants") {
  // The default model, else the llama2.c golden model beside the checkout.
  Run b = run({"bench", "--soak", "50"});
  if (b.code != 0 && b.err.find("not found") != std::string::npos) {
    MESSAGE("SKIPPED: no model for the soak: " << b.err);
    return;
  }
  REQUIRE_MESSAGE(b.code == 0, b.err);
  CHECK(b.out.find("invariants: every one held") != std::string::npos);
  CHECK(b.out.find("seek:") == std::string::npos);  // the other sections did not run
}

TEST_CASE("golden: generate prints llama2.c's greedy text; convert keeps it") {
  if (!test::have_golden("llama2c/aidreams260K.bin") || !test::have_golden("llama2c/tok512.bin"))
    return;
  std::ifstream f(golden("expected/aidreams260K.greedy.I_resonate.txt"));
  std::string expected((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  const std::vector<std::string> gen = {"--prompt", "I resonate", "--temperature", "0",
                                        "--max-tokens", "60"};
  std::vector<std::string> a = {"generate", "--model", golden("aidreams260K.bin"), "--tokenizer",
                                golden("tok512.bin")};
  a.insert(a.end(), gen.begin(), gen.end());
  Run r = run(a);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out == expected + "\n");

  Run ids = run({"tokenize", "--tokenizer", golden("tok512.bin"), "--prompt", "I resonate", "--ids"});
  CHECK(ids.out == "1 303 390 265 363\n");
  Run info = run({"info", "--model", golden("aidreams260K.bin"), "--tokenizer", golden("tok512.bin")});
  REQUIRE(info.code == 0);
  CHECK(info.out.find("n_ctx:         128") != std::string::npos);
  CHECK(info.out.find("vocab 512") != std::string::npos);

  const std::string out = tmp("ts_cli_aidreams.gguf");
  Run c = run({"convert", "--model", golden("aidreams260K.bin"), "--tokenizer", golden("tok512.bin"),
               "-o", out});
  REQUIRE_MESSAGE(c.code == 0, c.err);
  std::vector<std::string> b = {"generate", "--model", out};
  b.insert(b.end(), gen.begin(), gen.end());
  Run r2 = run(b);
  REQUIRE_MESSAGE(r2.code == 0, r2.err);
  CHECK(r2.out == expected + "\n");
  std::filesystem::remove(out);
}
