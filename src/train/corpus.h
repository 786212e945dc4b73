// Where the training text comes from: the built-in procedural stories (story_gen.h) or a UTF-8
// text file split into documents at a separator (or, when it has none, into chunks of
// paragraphs). Also the corpus description stored in checkpoints and model cards, and prompts
// (openings of held-out documents) for the samples printed during training.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/error.h"

namespace ts {

struct CorpusOptions {
  std::string source = "stories";  // "stories" or a file path
  long n_stories = 60000;
  uint64_t story_seed = 1;
  std::string separator = "<|endoftext|>";
  double val_fraction = 0.02;  // the LAST documents are held out
  size_t chunk_bytes = 4000;   // a file without separators: documents of about this size
};

struct Corpus {
  std::vector<std::string> docs;  // in order; the last ones are validation
  std::string joined;             // docs joined with the separator (the BPE training text)
  size_t bytes = 0;               // sum of document sizes
  std::string description;        // one line for the model card / GGUF metadata
};

Result<Corpus> load_corpus(const CorpusOptions& opt);

// Round-trip of the options through a checkpoint's info map (so --resume rebuilds the corpus).
std::map<std::string, std::string> corpus_info(const CorpusOptions& opt);
CorpusOptions corpus_options_from_info(const std::map<std::string, std::string>& info,
                                       const CorpusOptions& fallback);

// The first sentence (up to max 120 bytes) of the first n held-out documents.
std::vector<std::string> sample_prompts(const Corpus& c, size_t n, double val_fraction = 0.02);

}  // namespace ts
