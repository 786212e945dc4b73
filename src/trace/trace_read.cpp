// JSON -> Trace (schema in docs/trace-schema.md). Every field is checked for presence and type;
// a syntax error reports its line and column, a schema error the path of the field
// ("lanes[0].steps[3].token: expected an integer"). Writing is in trace_write.cpp.
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/read_file.h"
#include "base/utf8.h"
#include "trace/trace_json.h"

namespace ts {

using nlohmann::json;

namespace {

struct FieldError {
  std::string path;
  std::string message;
};

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string idx(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const json& field(const json& obj, const std::string& path, const char* key) {
  if (!obj.is_object()) throw FieldError{path, "expected an object"};
  auto it = obj.find(key);
  if (it == obj.end()) throw FieldError{join(path, key), "missing"};
  return *it;
}

int64_t as_int(const json& j, const std::string& path, int64_t lo = INT32_MIN,
               int64_t hi = INT32_MAX) {
  if (!j.is_number_integer()) throw FieldError{path, "expected an integer"};
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    throw FieldError{path, "integer out of range"};
  }
  const int64_t v = j.get<int64_t>();
  if (v < lo || v > hi) {
    throw FieldError{path, "out of range " + std::to_string(lo) + ".." + std::to_string(hi)};
  }
  return v;
}
int get_int(const json& o, const std::string& p, const char* k) {
  return static_cast<int>(as_int(field(o, p, k), join(p, k)));
}
size_t get_size(const json& o, const std::string& p, const char* k) {
  const json& j = field(o, p, k);
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<int64_t>() >= 0)) {
    throw FieldError{join(p, k), "expected a non-negative integer"};
  }
  return static_cast<size_t>(j.get<uint64_t>());
}

double as_num(const json& j, const std::string& path) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  throw FieldError{path, "expected a number"};
}
double get_num(const json& o, const std::string& p, const char* k) {
  return as_num(field(o, p, k), join(p, k));
}
float get_float(const json& o, const std::string& p, const char* k) {
  return static_cast<float>(get_num(o, p, k));
}
bool get_bool(const json& o, const std::string& p, const char* k) {
  const json& j = field(o, p, k);
  if (!j.is_boolean()) throw FieldError{join(p, k), "expected true or false"};
  return j.get<bool>();
}
std::string as_string(const json& j, const std::string& path) {
  if (!j.is_string()) throw FieldError{path, "expected a string"};
  return j.get<std::string>();
}
std::string get_string(const json& o, const std::string& p, const char* k) {
  return as_string(field(o, p, k), join(p, k));
}

// A string, or {"hex": "..."} for bytes that are not valid UTF-8.
std::string as_bytes(const json& j, const std::string& path) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object() && j.contains("hex")) {
    const std::string hex = as_string(j["hex"], path + ".hex");
    if (hex.size() % 2) throw FieldError{path + ".hex", "odd number of hex digits"};
    std::string out;
    for (size_t i = 0; i < hex.size(); i += 2) {
      int v = 0;
      for (int d = 0; d < 2; ++d) {
        const char c = hex[i + d];
        int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (x < 0) throw FieldError{path + ".hex", "not a hex digit"};
        v = v * 16 + x;
      }
      out += static_cast<char>(v);
    }
    return out;
  }
  throw FieldError{path, "expected a string or {\"hex\": ...}"};
}
std::string get_bytes(const json& o, const std::string& p, const char* k) {
  return as_bytes(field(o, p, k), join(p, k));
}

const json& get_array(const json& o, const std::string& p, const char* k) {
  const json& j = field(o, p, k);
  if (!j.is_array()) throw FieldError{join(p, k), "expected an array"};
  return j;
}

std::vector<int> get_ints(const json& o, const std::string& p, const char* k) {
  const json& a = get_array(o, p, k);
  std::vector<int> v;
  for (size_t i = 0; i < a.size(); ++i) {
    v.push_back(static_cast<int>(as_int(a[i], idx(join(p, k), i))));
  }
  return v;
}

std::vector<float> get_floats(const json& o, const std::string& p, const char* k) {
  const json& a = get_array(o, p, k);
  std::vector<float> v;
  v.reserve(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    v.push_back(static_cast<float>(as_num(a[i], idx(join(p, k), i))));
  }
  return v;
}

const json& tuple(const json& j, const std::string& path, size_t n) {
  if (!j.is_array() || j.size() != n) {
    throw FieldError{path, "expected an array of " + std::to_string(n) + " values"};
  }
  return j;
}

std::vector<TokenScore> get_scores(const json& a, const std::string& path) {
  if (!a.is_array()) throw FieldError{path, "expected an array"};
  std::vector<TokenScore> v;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string pi = idx(path, i);
    const json& t = tuple(a[i], pi, 3);
    v.push_back({static_cast<int>(as_int(t[0], pi + "[0]")),
                 static_cast<float>(as_num(t[1], pi + "[1]")),
                 static_cast<float>(as_num(t[2], pi + "[2]"))});
  }
  return v;
}

std::vector<Candidate> get_candidates(const json& o, const std::string& p, const char* k) {
  const json& a = get_array(o, p, k);
  std::vector<Candidate> v;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string pi = idx(join(p, k), i);
    const json& t = tuple(a[i], pi, 4);
    Candidate c;
    c.id = static_cast<int>(as_int(t[0], pi + "[0]"));
    c.logit = static_cast<float>(as_num(t[1], pi + "[1]"));
    c.p = static_cast<float>(as_num(t[2], pi + "[2]"));
    c.kept = as_int(t[3], pi + "[3]", 0, 1) == 1;
    v.push_back(c);
  }
  return v;
}

template <class E, class F>
E get_enum(const json& o, const std::string& p, const char* k, int n, F name_of) {
  const std::string s = get_string(o, p, k);
  std::string allowed;
  for (int i = 0; i < n; ++i) {
    if (s == name_of(static_cast<E>(i))) return static_cast<E>(i);
    allowed += (i ? ", " : "") + std::string(name_of(static_cast<E>(i)));
  }
  throw FieldError{join(p, k), "'" + s + "' is not one of: " + allowed};
}

ModelConfig read_config(const json& o, const std::string& p) {
  ModelConfig c;
  c.architecture = get_string(o, p, "architecture");
  c.name = get_bytes(o, p, "name");
  c.block = get_enum<BlockType>(o, p, "block", 2, [](BlockType b) {
    return b == BlockType::Gpt2 ? "gpt2" : "llama";
  });
  c.n_layers = get_int(o, p, "n_layers");
  c.n_heads = get_int(o, p, "n_heads");
  c.n_kv_heads = get_int(o, p, "n_kv_heads");
  c.d_model = get_int(o, p, "d_model");
  c.d_ff = get_int(o, p, "d_ff");
  c.vocab_size = get_int(o, p, "vocab_size");
  c.n_ctx = get_int(o, p, "n_ctx");
  c.norm_eps = get_float(o, p, "norm_eps");
  c.rope_theta = get_float(o, p, "rope_theta");
  c.rope = get_enum<RopeStyle>(o, p, "rope", 2, [](RopeStyle r) {
    return r == RopeStyle::NeoX ? "neox" : "adjacent";
  });
  c.qkv_bias = get_bool(o, p, "qkv_bias");
  c.tied_embeddings = get_bool(o, p, "tied_embeddings");
  return c;
}

SamplerSettings read_sampler(const json& o, const std::string& p) {
  SamplerSettings s;
  s.label = get_bytes(o, p, "label");
  s.temperature = get_float(o, p, "temperature");
  s.top_k = get_int(o, p, "top_k");
  s.top_p = get_float(o, p, "top_p");
  s.min_p = get_float(o, p, "min_p");
  s.repetition_penalty = get_float(o, p, "repetition_penalty");
  s.frequency_penalty = get_float(o, p, "frequency_penalty");
  s.presence_penalty = get_float(o, p, "presence_penalty");
  s.penalty_last_n = get_int(o, p, "penalty_last_n");
  const json& seed = field(o, p, "seed");
  if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<int64_t>() >= 0)) {
    throw FieldError{join(p, "seed"), "expected a non-negative integer"};
  }
  s.seed = seed.get<uint64_t>();
  const json& order = get_array(o, p, "order");
  s.order.clear();
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string pi = idx(join(p, "order"), i);
    Result<StageKind> k = parse_stage_kind(as_string(order[i], pi));
    if (!k.ok()) throw FieldError{pi, k.error().message};
    s.order.push_back(k.value());
  }
  return s;
}

ForwardRecord read_forward(const json& o, const std::string& p) {
  ForwardRecord r;
  r.phase = get_enum<Phase>(o, p, "phase", 2, phase_name);
  r.first_pos = get_int(o, p, "first_pos");
  r.n_positions = get_int(o, p, "n_positions");
  r.input_ids = get_ints(o, p, "input_ids");
  r.logits = get_floats(o, p, "logits");
  const json& pt = get_array(o, p, "position_top");
  for (size_t i = 0; i < pt.size(); ++i) {
    r.position_top.push_back(get_scores(pt[i], idx(join(p, "position_top"), i)));
  }
  const json& att = get_array(o, p, "attention");
  for (size_t i = 0; i < att.size(); ++i) {
    const std::string pi = idx(join(p, "attention"), i);
    AttentionMap a;
    a.n_heads = get_int(att[i], pi, "n_heads");
    a.first_pos = get_int(att[i], pi, "first_pos");
    a.n_rows = get_int(att[i], pi, "n_rows");
    const json& probs = get_array(att[i], pi, "probs_f16");
    a.probs_f16.reserve(probs.size());
    for (size_t k = 0; k < probs.size(); ++k) {
      a.probs_f16.push_back(
          static_cast<uint16_t>(as_int(probs[k], idx(pi + ".probs_f16", k), 0, 65535)));
    }
    if (a.n_heads < 0 || a.first_pos < 0 || a.n_rows < 0 ||
        (a.n_heads > 0 && a.n_rows > 0 &&
         a.probs_f16.size() != a.row_offset(a.n_heads - 1, a.n_rows - 1) +
                                   static_cast<size_t>(a.row_length(a.n_rows - 1)))) {
      throw FieldError{pi + ".probs_f16", "size does not match n_heads, first_pos, n_rows"};
    }
    r.attention.push_back(std::move(a));
  }
  const json& lens = get_array(o, p, "logit_lens");
  for (size_t i = 0; i < lens.size(); ++i) {
    r.logit_lens.push_back(get_scores(lens[i], idx(join(p, "logit_lens"), i)));
  }
  r.residual_norms = get_floats(o, p, "residual_norms");
  const std::string pk = join(p, "kv");
  const json& kv = field(o, p, "kv");
  r.kv.length_before = get_int(kv, pk, "length_before");
  r.kv.length_after = get_int(kv, pk, "length_after");
  r.kv.capacity = get_int(kv, pk, "capacity");
  r.kv.bytes_used = get_size(kv, pk, "bytes_used");
  r.kv.bytes_capacity = get_size(kv, pk, "bytes_capacity");
  const std::string pc = join(p, "cost");
  const json& c = field(o, p, "cost");
  r.cost.flops = get_num(c, pc, "flops");
  r.cost.weight_bytes = get_num(c, pc, "weight_bytes");
  r.cost.kv_bytes_read = get_num(c, pc, "kv_bytes_read");
  r.cost.kv_bytes_written = get_num(c, pc, "kv_bytes_written");
  r.cost.activation_bytes = get_num(c, pc, "activation_bytes");
  r.cost.seconds = get_num(c, pc, "seconds");
  r.cost.flops_no_cache = get_num(c, pc, "flops_no_cache");
  const json& ops = get_array(c, pc, "ops");
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string pi = idx(pc + ".ops", i);
    OpCost op;
    op.name = get_string(ops[i], pi, "name");
    op.layer = get_int(ops[i], pi, "layer");
    op.flops = get_num(ops[i], pi, "flops");
    op.weight_bytes = get_num(ops[i], pi, "weight_bytes");
    op.kv_bytes_read = get_num(ops[i], pi, "kv_bytes_read");
    op.kv_bytes_written = get_num(ops[i], pi, "kv_bytes_written");
    r.cost.ops.push_back(std::move(op));
  }
  return r;
}

SamplingRecord read_sampling(const json& o, const std::string& p) {
  SamplingRecord r;
  r.raw = get_candidates(o, p, "raw");
  const json& st = get_array(o, p, "stages");
  for (size_t i = 0; i < st.size(); ++i) {
    const std::string pi = idx(join(p, "stages"), i);
    StageRecord s;
    Result<StageKind> k = parse_stage_kind(get_string(st[i], pi, "kind"));
    if (!k.ok()) throw FieldError{pi + ".kind", k.error().message};
    s.kind = k.value();
    s.name = get_string(st[i], pi, "name");
    s.n_kept = get_int(st[i], pi, "n_kept");
    s.cut_at = get_float(st[i], pi, "cut_at");
    s.top = get_candidates(st[i], pi, "top");
    r.stages.push_back(std::move(s));
  }
  r.final_dist = get_candidates(o, p, "final");
  const std::string pd = join(p, "draw");
  const json& d = field(o, p, "draw");
  r.draw.greedy = get_bool(d, pd, "greedy");
  r.draw.u = get_num(d, pd, "u");
  r.draw.chosen_id = get_int(d, pd, "chosen_id");
  r.draw.chosen_rank = get_int(d, pd, "chosen_rank");
  r.draw.chosen_p = get_float(d, pd, "chosen_p");
  r.draw.cum_lo = get_num(d, pd, "cum_lo");
  r.draw.cum_hi = get_num(d, pd, "cum_hi");
  r.draw.entropy = get_float(d, pd, "entropy");
  r.draw.raw_entropy = get_float(d, pd, "raw_entropy");
  return r;
}

TraceStep read_step(const json& o, const std::string& p) {
  TraceStep s;
  s.index = get_int(o, p, "index");
  s.token = get_int(o, p, "token");
  s.sampled_token = get_int(o, p, "sampled_token");
  s.forced = get_bool(o, p, "forced");
  s.position = get_int(o, p, "position");
  s.piece = get_bytes(o, p, "piece");
  s.display = get_string(o, p, "display");
  s.stop = get_enum<StopReason>(o, p, "stop", 5, stop_reason_name);
  s.chosen_p = get_float(o, p, "chosen_p");
  s.chosen_rank = get_int(o, p, "chosen_rank");
  if (o.contains("sampler")) {  // optional: the step was chosen by other settings than the lane's
    s.has_sampler = true;
    s.sampler = read_sampler(field(o, p, "sampler"), join(p, "sampler"));
  }
  s.forward = read_forward(field(o, p, "forward"), join(p, "forward"));
  s.sampling = read_sampling(field(o, p, "sampling"), join(p, "sampling"));
  return s;
}

Trace read_trace(const json& j) {
  Trace t;
  if (get_string(j, "", "format") != "tokenscope-trace") {
    throw FieldError{"format", "expected \"tokenscope-trace\""};
  }
  t.version = get_int(j, "", "version");
  if (t.version != kTraceVersion) {
    throw FieldError{"version", "version " + std::to_string(t.version) +
                                    " is not supported (this build reads " +
                                    std::to_string(kTraceVersion) + ")"};
  }
  const json& m = field(j, "", "model");
  t.model_path = get_bytes(m, "model", "path");
  t.model_format = get_string(m, "model", "format");
  t.n_params = get_size(m, "model", "n_params");
  t.config = read_config(field(m, "model", "config"), "model.config");
  const json& tok = field(j, "", "tokenizer");
  t.tokenizer_kind = get_string(tok, "tokenizer", "kind");
  t.bos_id = get_int(tok, "tokenizer", "bos_id");
  t.eos_id = get_int(tok, "tokenizer", "eos_id");
  const json& pr = field(j, "", "prompt");
  t.prompt = get_bytes(pr, "prompt", "text");
  t.prompt_tokens = get_ints(pr, "prompt", "tokens");
  const json& pieces = get_array(pr, "prompt", "pieces");
  for (size_t i = 0; i < pieces.size(); ++i) {
    t.prompt_pieces.push_back(as_bytes(pieces[i], idx("prompt.pieces", i)));
  }
  t.prompt_cut = get_int(pr, "prompt", "cut");
  const json& se = field(j, "", "settings");
  t.record_level = get_enum<RecordLevel>(se, "settings", "record_level", 3, record_level_name);
  t.max_tokens = get_int(se, "settings", "max_tokens");
  const json& stops = get_array(se, "settings", "stop_strings");
  for (size_t i = 0; i < stops.size(); ++i) {
    t.stop_strings.push_back(as_bytes(stops[i], idx("settings.stop_strings", i)));
  }
  t.cursor = get_int(j, "", "cursor");
  t.first_divergence = get_int(j, "", "first_divergence");
  const json& lanes = get_array(j, "", "lanes");
  for (size_t i = 0; i < lanes.size(); ++i) {
    const std::string pl = idx("lanes", i);
    TraceLane l;
    l.settings = read_sampler(field(lanes[i], pl, "sampler"), pl + ".sampler");
    const json& steps = get_array(lanes[i], pl, "steps");
    for (size_t k = 0; k < steps.size(); ++k) {
      l.steps.push_back(read_step(steps[k], idx(pl + ".steps", k)));
    }
    t.lanes.push_back(std::move(l));
  }
  if (j.contains("pieces")) {  // optional: [[id, bytes], ...]
    const json& ps = get_array(j, "", "pieces");
    for (size_t i = 0; i < ps.size(); ++i) {
      const std::string pi = idx("pieces", i);
      if (!ps[i].is_array() || ps[i].size() != 2) throw FieldError{pi, "expected [id, bytes]"};
      const int64_t id = as_int(ps[i][0], pi + "[0]");
      if (id < 0 || id >= t.config.vocab_size)
        throw FieldError{pi + "[0]",
                         "token id " + std::to_string(id) + " is outside the vocabulary"};
      t.pieces[static_cast<int>(id)] = as_bytes(ps[i][1], pi + "[1]");
    }
  }
  return t;
}

}  // namespace

Result<Trace> parse_trace_json(std::string_view text) {
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // Line and column of the byte where parsing failed.
    const size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    int line = 1, col = 1;
    for (size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    // "[json.exception.parse_error.101] parse error at line 1, column 2: <reason>; last read:
    // '<bytes>'": keep the reason and the bytes, which may be invalid UTF-8, sanitised.
    std::string what = e.what();
    if (const size_t c = what.find(": "); c != std::string::npos) what = what.substr(c + 2);
    what = utf8_sanitize(what);
    return make_error("trace JSON line " + std::to_string(line) + " column " +
                      std::to_string(col) + ": " + what);
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number like 1e999
    std::string what = e.what();
    if (const size_t c = what.find("] "); c != std::string::npos) what = what.substr(c + 2);
    return make_error("trace JSON: " + utf8_sanitize(what));
  }
  try {
    return read_trace(j);
  } catch (const FieldError& e) {
    return make_error("trace JSON field " + (e.path.empty() ? std::string("(top)") : e.path) +
                      ": " + e.message);
  } catch (const json::exception& e) {  // defensive: a type mismatch not caught above
    return make_error(std::string("trace JSON: ") + e.what());
  }
}

Result<Trace> read_trace_json(const std::string& path) {
  Result<std::string> text = read_regular_file(path, kMaxTraceFileBytes, "trace file");
  if (!text.ok()) return text.error();
  Result<Trace> t = parse_trace_json(text.value());
  if (!t.ok()) return make_error(path + ": " + t.error().message);
  return t;
}

}  // namespace ts
