// The two `generate` modes that run straight on the engine instead of the session's loop:
// beam search (--beam N) and speculative decoding (--draft FILE --speculative K). cmd_generate.cpp
// parses the options and hands a session (the target model and the prompt, already set up) to
// one of these; they print the text on `out` and the summary on `err`, ending it, like every
// generate, with "sum log-prob X".
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_common.h"

namespace ts::cli {

struct DecodeModeOptions {
  int beam = 0;                 // > 0: beam search with this width
  double length_penalty = 1.0;  // alpha in Σ log p / len^alpha
  std::string draft;            // speculative decoding's draft model
  int speculative = 0;          // > 0: drafted tokens per round
  bool show = false;            // print the beam tree's steps / the speculative rounds
};

// --beam, --length-penalty, --draft, --speculative, --show.
void add_decode_mode_options(CLI::App& app, DecodeModeOptions& d);

int generate_beam(const Session& s, const GenOptions& g, const DecodeModeOptions& d,
                  std::ostream& out, std::ostream& err);
int generate_speculative(const Session& s, const GenOptions& g, const DecodeModeOptions& d,
                         std::ostream& out, std::ostream& err);

// The prompt as text (special tokens left out), as the session's lane shows it.
std::string prompt_shown(const Session& s);
// The bytes of `tokens` generated after `prompt` (each piece read after the token before it).
std::string generated_bytes(const Session& s, const std::vector<int>& prompt,
                            const std::vector<int>& tokens);
// "sum log-prob -12.3456": the summary's last words.
std::string sum_log_prob_text(double sum);

}  // namespace ts::cli
