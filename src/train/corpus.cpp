// Corpus building: generated stories or a text file, split into documents.
#include "train/corpus.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "base/read_file.h"
#include "train/dataset.h"
#include "train/story_gen.h"
#include "train/tale_chat.h"
#include "train/tale_gen.h"

namespace ts {

namespace {

// Groups paragraphs (blank-line separated) into documents of about chunk_bytes.
std::vector<std::string> chunk_paragraphs(const std::string& text, size_t chunk_bytes) {
  std::vector<std::string> out;
  std::string cur;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find("\n\n", pos);
    if (end == std::string::npos) end = text.size();
    cur.append(text, pos, end - pos);
    cur += "\n\n";
    if (cur.size() >= chunk_bytes) {
      out.push_back(std::move(cur));
      cur.clear();
    }
    pos = end + 2;
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

}  // namespace

Result<Corpus> load_corpus(const CorpusOptions& opt) {
  Corpus c;
  std::string text;
  if (opt.source == "stories") {
    text = generate_stories(opt.story_seed, 0, static_cast<uint64_t>(std::max(0L, opt.n_stories)), opt.separator);
    c.description = std::to_string(opt.n_stories) +
                    " procedural children's stories (tokenscope story generator, seed " +
                    std::to_string(opt.story_seed) + ")";
  } else if (opt.source == "tales") {
    text = generate_tales(opt.story_seed, 0, static_cast<uint64_t>(std::max(0L, opt.n_stories)), opt.separator);
    c.description = std::to_string(opt.n_stories) +
                    " procedural children's tales (tokenscope tale generator, seed " +
                    std::to_string(opt.story_seed) + ")";
  } else if (opt.source == "tale-chats") {
    const uint64_t n = static_cast<uint64_t>(std::max(0L, opt.n_stories));
    text = generate_tale_chats(opt.story_seed, 0, n, opt.separator);
    c.description = std::to_string(opt.n_stories) +
                    " chats asking for a procedural tale and telling it (tokenscope tale "
                    "generator, seed " +
                    std::to_string(opt.story_seed) + ")";
  } else {
    // A regular file only (never /dev/zero or a pipe), at most 2 GiB.
    Result<std::string> read = read_regular_file(opt.source, uint64_t{2} << 30, "corpus file");
    if (!read.ok()) return make_error("corpus: " + read.error().message);
    text = std::move(read.value());
    c.description = "text file " + opt.source;
  }
  c.docs = split_documents(text, opt.separator);
  if (c.docs.size() <= 1) {
    std::vector<std::string> chunks = chunk_paragraphs(text, opt.chunk_bytes);
    c.docs.clear();
    for (std::string& d : chunks) {
      auto parts = split_documents(d, opt.separator);
      for (std::string& p : parts) c.docs.push_back(std::move(p));
    }
  }
  if (c.docs.size() < 2) return make_error("corpus: need at least two documents, got " + std::to_string(c.docs.size()));
  for (const std::string& d : c.docs) {
    c.bytes += d.size();
    c.joined += d;
    c.joined += opt.separator;
  }
  return c;
}

std::map<std::string, std::string> corpus_info(const CorpusOptions& o) {
  return {{"corpus.source", o.source}, {"corpus.n_stories", std::to_string(o.n_stories)},
          {"corpus.story_seed", std::to_string(o.story_seed)}, {"corpus.separator", o.separator},
          {"corpus.val_fraction", std::to_string(o.val_fraction)},
          {"corpus.chunk_bytes", std::to_string(o.chunk_bytes)}};
}

CorpusOptions corpus_options_from_info(const std::map<std::string, std::string>& info,
                                       const CorpusOptions& fallback) {
  CorpusOptions o = fallback;
  auto get = [&](const char* k) -> const std::string* {
    auto it = info.find(k);
    return it == info.end() ? nullptr : &it->second;
  };
  if (auto v = get("corpus.source")) o.source = *v;
  if (auto v = get("corpus.n_stories")) o.n_stories = std::stol(*v);
  if (auto v = get("corpus.story_seed")) o.story_seed = std::stoull(*v);
  if (auto v = get("corpus.separator")) o.separator = *v;
  if (auto v = get("corpus.val_fraction")) o.val_fraction = std::stod(*v);
  if (auto v = get("corpus.chunk_bytes")) o.chunk_bytes = std::stoul(*v);
  return o;
}

std::vector<std::string> sample_prompts(const Corpus& c, size_t n, double val_fraction) {
  std::vector<std::string> out;
  const size_t n_val = static_cast<size_t>(std::ceil(static_cast<double>(c.docs.size()) * val_fraction));
  const size_t first = c.docs.size() - std::max<size_t>(1, std::min(n_val, c.docs.size() - 1));
  for (size_t i = first; i < c.docs.size() && out.size() < n; ++i) {
    const std::string& d = c.docs[i];
    // A chat: everything up to the assistant's turn (its first sentence would end at the
    // request's, where the model writes the end of the user's turn).
    const std::string reply = std::string(kChatTurnStart) + "assistant\n";
    if (const size_t at = d.find(reply); at != std::string::npos) {
      out.push_back(d.substr(0, at + reply.size()));
      continue;
    }
    size_t end = d.find_first_of(".!?");
    end = end == std::string::npos ? std::min<size_t>(d.size(), 120) : std::min<size_t>(end + 1, 120);
    out.push_back(d.substr(0, end));
  }
  return out;
}

}  // namespace ts
