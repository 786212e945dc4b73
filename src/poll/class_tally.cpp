// Guesses -> first tokens -> bars with the model's p and rank. The model's list is indexed once
// per tally (it may be the whole vocabulary).
#include "poll/class_tally.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "poll/student_text.h"

namespace ts {
namespace {

using ModelIndex = std::unordered_map<int, ModelToken>;

ModelIndex index_model(std::span<const ModelToken> model) {
  ModelIndex index;
  index.reserve(model.size());
  for (const ModelToken& m : model) index.emplace(m.id, m);
  return index;
}

float model_p(const ModelIndex& index, int id) {
  const auto it = index.find(id);
  return it == index.end() ? 0.0f : it->second.p;
}

int first_token(const Tokenizer& tok, std::string_view text) {
  const std::vector<int> ids = tok.encode(text, /*add_bos=*/false);
  return ids.empty() ? -1 : ids.front();
}

int guess_token_indexed(std::string_view guess, const Tokenizer& tok, const ModelIndex& index) {
  if (trim_spaces(guess).empty()) return -1;  // nothing typed (the server refuses these anyway)
  const int as_typed = first_token(tok, guess);
  if (!guess.empty() && guess.front() == ' ') return as_typed;
  const int spaced = first_token(tok, " " + std::string(guess));
  if (as_typed < 0 || spaced < 0) return spaced < 0 ? as_typed : spaced;
  return model_p(index, as_typed) > model_p(index, spaced) ? as_typed : spaced;
}

}  // namespace

int guess_token(std::string_view guess, const Tokenizer& tok, std::span<const ModelToken> model) {
  return guess_token_indexed(guess, tok, index_model(model));
}

ClassTally tally_guesses(std::span<const PollGuess> guesses, const Tokenizer& tok,
                         std::span<const ModelToken> model) {
  const ModelIndex index = index_model(model);
  ClassTally t;
  for (const ModelToken& m : model)
    if (m.rank == 1) t.model_top = m.id;
  std::map<int, TallyBar> by_token;
  for (const PollGuess& g : guesses) {
    const int id = guess_token_indexed(g.text, tok, index);
    if (id < 0) {
      ++t.untokenized;
      continue;
    }
    ++t.guesses;
    if (id == t.model_top) ++t.like_model;
    TallyBar& bar = by_token[id];
    if (bar.count++ > 0) continue;
    bar.token = id;
    bar.example = g.text;
    if (const auto it = index.find(id); it != index.end()) {
      bar.p = it->second.p;
      bar.rank = it->second.rank;
    }
  }
  for (auto& [id, bar] : by_token) t.bars.push_back(std::move(bar));
  std::sort(t.bars.begin(), t.bars.end(), [](const TallyBar& a, const TallyBar& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.p != b.p) return a.p > b.p;
    return a.token < b.token;
  });
  return t;
}

}  // namespace ts
