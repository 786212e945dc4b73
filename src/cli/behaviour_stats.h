// Pure measurements of how a model behaves as a teaching instrument (`tokenscope eval`): the raw
// distribution of a step (top-1 probability, entropy in bits), quantiles, a greedy-loop detector
// on token ids, and dictionary-word rates of generated text. No I/O and no printing here; the
// command (cli/cmd_eval.cpp) drives the Session and prints.
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ts {

// softmax(logits) at temperature 1, in double precision. Non-finite logits (NaN, +-inf) are
// impossible tokens (p = 0); with no finite logit at all every field stays 0 / -1.
struct RawStepStats {
  int top1_id = -1;
  float top1_p = 0.0f;        // the largest probability (ties: lowest id)
  float entropy_bits = 0.0f;  // -sum p log2 p
  float chosen_p = 0.0f;      // probability of `chosen` (0 when outside the vocabulary)
};
RawStepStats raw_step_stats(std::span<const float> logits, int chosen);

// Quantile q in [0, 1] with linear interpolation between the closest ranks (numpy's default):
// median of {1, 2, 3, 4} = 2.5. NaN for an empty input.
double quantile(std::vector<double> values, double q);

// Summary of many steps' raw distributions.
struct StepSummary {
  int steps = 0;
  double confident_pct = 0;   // % of steps whose top-1 probability is > kConfidentP
  double entropy_median = 0;  // bits (NaN without steps)
  double entropy_p90 = 0;     // bits (NaN without steps)
};
constexpr double kConfidentP = 0.95;
StepSummary summarize_steps(std::span<const RawStepStats> steps);

// A loop: some n-gram of token ids (n = kLoopN) occurs at least kLoopRepeats times within a
// window of kLoopWindow consecutive tokens, i.e. there are occurrences starting at s1 < ... < sr
// with sr + n - s1 <= window. Occurrences may overlap (a token repeated 6 times is a loop).
constexpr int kLoopN = 4;
constexpr int kLoopRepeats = 3;
constexpr int kLoopWindow = 24;
struct LoopMatch {
  bool found = false;
  int first = -1;         // start of the first of the kLoopRepeats occurrences
  int completed_at = -1;  // index of the token that completes the last occurrence
  std::vector<int> ngram;
};
// The earliest loop (the one completed first), or found = false.
LoopMatch find_loop(std::span<const int> ids, int n = kLoopN, int repeats = kLoopRepeats,
                    int window = kLoopWindow);

// Words of a text: maximal runs of ASCII letters, where an apostrophe (' or U+2019) between two
// letters joins them ("don't", "Lily's"; U+2019 is returned as '). Everything else separates.
std::vector<std::string> split_words(std::string_view text);

using WordSet = std::unordered_set<std::string>;
// One word per line (trailing \r stripped, empty lines skipped), as in /usr/share/dict/words.
WordSet parse_word_list(std::string_view text);
// A dictionary word: the word, or its lowercase form, is in `dict`; failing that, a word with
// apostrophes whose parts each are (the same test) or are a clitic after an apostrophe
// (s, t, d, m, ll, re, ve): "Lily's" -> "Lily" + 's.
bool is_dictionary_word(const WordSet& dict, std::string_view word);

struct WordStats {
  int words = 0;
  int dictionary_words = 0;
  double dictionary_pct = 0;  // 0 without words
  // Lowercased non-dictionary words by count (descending), then alphabetically; at most `top`.
  std::vector<std::pair<std::string, int>> top_unknown;
};
WordStats word_stats(const WordSet& dict, std::span<const std::string> texts, int top = 10);

// Control characters as escapes (\n, \t, \r, \xNN; DEL too) and backslash as \\, so a sample
// prints on one line. Other bytes (UTF-8 included) are kept.
std::string escape_control(std::string_view text);

}  // namespace ts
