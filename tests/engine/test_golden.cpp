// Golden: the llama2.c checkpoints against what llama2.c's run.c printed (see
// ../shared/golden/llama2c/README.md): every listed top-5 logit within 1e-4 and every greedy NEXT
// id, feeding one token at a time and with the prompt as one prefill pass.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/forward.h"
#include "formats/model_file.h"
#include "golden.h"

using namespace ts;

namespace {

struct TraceStep {
  int pos = 0;
  int token = 0;
  std::vector<std::pair<int, float>> top5;  // id, logit
  int next = -1;
};

struct Trace {
  std::vector<int> prompt;
  std::vector<TraceStep> steps;
};

Trace read_trace(const std::string& path) {
  Trace t;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word == "PROMPT_IDS") {
      for (int id; ls >> id;) t.prompt.push_back(id);
    } else if (word == "STEP") {
      TraceStep s;
      std::string pos, tok, label;
      ls >> pos >> tok >> label;  // "pos=P" "token=T" "top5:"
      s.pos = std::stoi(pos.substr(4));
      s.token = std::stoi(tok.substr(6));
      for (std::string pair; ls >> pair;) {
        const size_t colon = pair.find(':');
        s.top5.emplace_back(std::stoi(pair.substr(0, colon)), std::stof(pair.substr(colon + 1)));
      }
      t.steps.push_back(s);
    } else if (word == "NEXT") {
      REQUIRE(!t.steps.empty());
      ls >> t.steps.back().next;
    }
  }
  REQUIRE(!t.prompt.empty());
  REQUIRE(!t.steps.empty());
  return t;
}

int argmax(const Vec& v) {
  Eigen::Index i = 0;
  v.maxCoeff(&i);
  return static_cast<int>(i);
}

// Checks one position's logits (full vector) against the trace line; greedy NEXT after the prompt.
void check_step(const Trace& t, size_t i, const Vec& logits) {
  const TraceStep& s = t.steps[i];
  CAPTURE(s.pos);
  for (const auto& [id, logit] : s.top5) CHECK(std::abs(logits[id] - logit) < 1e-4);
  if (i + 1 >= t.prompt.size()) CHECK(argmax(logits) == s.next);
}

void check_trace(const std::string& model_rel, const std::string& trace_rel) {
  if (!ts::test::have_golden(model_rel) || !ts::test::have_golden(trace_rel)) return;
  const auto dir = ts::test::golden_dir();
  auto loaded = load_model_file((dir / model_rel).string());
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  const Model& model = loaded->model;
  const Trace t = read_trace((dir / trace_rel).string());
  CAPTURE(trace_rel);
  // The fed token of each step is the previous NEXT (forced in the prompt, argmax after).
  for (size_t i = 0; i < t.steps.size(); ++i) {
    CHECK(t.steps[i].pos == static_cast<int>(i));
    if (i < t.prompt.size()) CHECK(t.steps[i].token == t.prompt[i]);
    if (i > 0) CHECK(t.steps[i].token == t.steps[i - 1].next);
  }
  for (int n_threads : {1, 2}) {
    CAPTURE(n_threads);
    Forward fwd(model, n_threads);
    {  // one token at a time
      KvCache kv(model.config, model.config.n_ctx);
      for (size_t i = 0; i < t.steps.size(); ++i) {
        const int tok = t.steps[i].token;
        REQUIRE(fwd.run(kv, std::span<const int>(&tok, 1), {RecordLevel::Off, 0, 0}, nullptr).ok());
        check_step(t, i, fwd.logits());
      }
    }
    {  // the prompt as one prefill pass, then decode
      KvCache kv(model.config, model.config.n_ctx);
      ForwardOptions opt;
      opt.position_top_k = model.config.vocab_size;  // every logit of every prompt position
      ForwardRecord rec;
      REQUIRE(fwd.run(kv, t.prompt, opt, &rec).ok());
      REQUIRE(rec.position_top.size() == t.prompt.size());
      for (size_t i = 0; i < t.prompt.size(); ++i) {
        Vec row(model.config.vocab_size);
        for (const TokenScore& s : rec.position_top[i]) row[s.id] = s.logit;
        check_step(t, i, row);
      }
      CHECK(argmax(fwd.logits()) == t.steps[t.prompt.size() - 1].next);
      for (size_t i = t.prompt.size(); i < t.steps.size(); ++i) {
        const int tok = t.steps[i].token;
        REQUIRE(fwd.run(kv, std::span<const int>(&tok, 1), opt, &rec).ok());
        check_step(t, i, fwd.logits());
      }
    }
  }
}

}  // namespace

TEST_CASE("golden llama2.c: aidreams260K traces" * doctest::test_suite("golden")) {
  for (const char* name : {"I_resonate", "The", "A_threads_of", "empty"}) {
    check_trace("llama2c/aidreams260K.bin",
                std::string("llama2c/expected/aidreams260K.trace.") + name + ".txt");
  }
}

TEST_CASE("golden llama2.c: stories260K (grouped-query attention) trace" *
          doctest::test_suite("golden")) {
  check_trace("llama2c/stories260K.bin", "llama2c/expected/stories260K.trace.I_resonate_ids.txt");
}
