// Document splitting, parallel tokenization, batch sampling and the unigram baseline.
#include "train/dataset.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "base/rng.h"
#include "base/text_args.h"

namespace ts {

namespace {

}  // namespace

std::vector<std::string> split_documents(std::string_view text, std::string_view separator) {
  std::vector<std::string> docs;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = separator.empty() ? std::string_view::npos : text.find(separator, pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view d = trim_space(text.substr(pos, end - pos));
    if (!d.empty()) docs.emplace_back(d);
    pos = end + separator.size();
    if (end == text.size()) break;
  }
  return docs;
}

TokenStreams tokenize_documents(const Tokenizer& tok, const std::vector<std::string>& docs,
                                double val_fraction, int eos, int n_threads) {
  const size_t n = docs.size();
  size_t n_val = static_cast<size_t>(std::ceil(static_cast<double>(n) * val_fraction));
  n_val = std::clamp<size_t>(n_val, n > 1 ? 1 : 0, n > 0 ? n - 1 : 0);
  std::vector<std::vector<int>> encoded(n);  // (n_docs) token ids per document
  const int workers = std::max(1, n_threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < workers; ++t) {
    pool.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); i < n; i += static_cast<size_t>(workers)) {
        encoded[i] = tok.encode(docs[i], false);
      }
    });
  }
  for (std::thread& th : pool) th.join();
  TokenStreams s;
  for (size_t i = 0; i < n; ++i) {
    std::vector<int>& out = i < n - n_val ? s.train : s.val;
    out.push_back(eos);
    out.insert(out.end(), encoded[i].begin(), encoded[i].end());
  }
  return s;
}

void sample_batch(std::span<const int> stream, int batch, int seq_len, uint64_t seed, long step,
                  std::vector<int>& tokens, std::vector<int>& targets) {
  tokens.resize(static_cast<size_t>(batch) * seq_len);
  targets.resize(tokens.size());
  const uint64_t span = stream.size() > static_cast<size_t>(seq_len) ? stream.size() - seq_len : 1;
  for (int b = 0; b < batch; ++b) {
    const uint64_t counter = static_cast<uint64_t>(step) * static_cast<uint64_t>(batch) + b;
    const size_t off = random_bits(seed, counter, /*stream=*/7) % span;
    for (int t = 0; t < seq_len; ++t) {
      const size_t i = static_cast<size_t>(b) * seq_len + t;
      tokens[i] = stream[off + t];
      targets[i] = off + t + 1 < stream.size() ? stream[off + t + 1] : -1;
    }
  }
}

int validation_windows(std::span<const int> stream, int seq_len, int max_windows) {
  if (stream.size() < 2) return 0;
  const size_t w = (stream.size() - 1) / static_cast<size_t>(seq_len);
  return static_cast<int>(std::min<size_t>(std::max<size_t>(w, 1), static_cast<size_t>(max_windows)));
}

void validation_batch(std::span<const int> stream, int seq_len, int first_window, int count,
                      std::vector<int>& tokens, std::vector<int>& targets) {
  tokens.assign(static_cast<size_t>(count) * seq_len, 0);
  targets.assign(tokens.size(), -1);
  for (int b = 0; b < count; ++b) {
    const size_t off = static_cast<size_t>(first_window + b) * seq_len;
    for (int t = 0; t < seq_len; ++t) {
      const size_t i = static_cast<size_t>(b) * seq_len + t;
      if (off + t < stream.size()) tokens[i] = stream[off + t];
      if (off + t + 1 < stream.size()) targets[i] = stream[off + t + 1];
    }
  }
}

double unigram_loss(std::span<const int> train, std::span<const int> eval, int vocab_size) {
  std::vector<double> count(static_cast<size_t>(vocab_size), 1.0);  // add-one smoothing
  for (int t : train) count[static_cast<size_t>(t)] += 1.0;
  const double total = static_cast<double>(train.size()) + vocab_size;
  double loss = 0;
  // Scored like the model: every eval token that has a predecessor window (all but the first).
  for (size_t i = 1; i < eval.size(); ++i) loss -= std::log(count[static_cast<size_t>(eval[i])] / total);
  return eval.size() > 1 ? loss / static_cast<double>(eval.size() - 1) : 0.0;
}

}  // namespace ts
