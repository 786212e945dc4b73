// `tokenscope eval --draft FILE --speculative K[,K...]`: speculative decoding measured over a
// prompt file, greedy and at T=1, for each k: acceptance rate, tokens per target pass, the
// costs of a draft pass and of a verification pass in target decode steps, and the speed-up
// against plain decoding of the target in the same run. What a draft model's card quotes.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_common.h"

namespace ts::cli {

struct SpecEvalOptions {
  std::string draft;
  std::vector<int> ks;
  int tokens = 40;    // new tokens per prompt
  uint64_t seed = 1;  // of the T=1 runs for the first prompt (+1 per prompt)
};

// --draft FILE and --speculative K[,K...] (each needs the other).
void add_spec_eval_options(CLI::App& app, SpecEvalOptions& o);
// The target is m's model; returns the exit code.
int eval_speculative(const ModelOptions& m, const std::vector<std::string>& prompts,
                     const SpecEvalOptions& o, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
