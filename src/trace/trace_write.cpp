// Trace from a Session, and Trace -> JSON (schema in docs/trace-schema.md): the writer visits
// the field lists of trace_fields.h. Raw bytes that are not valid UTF-8 are written as
// {"hex": "..."}; non-finite floats as "nan" / "inf" / "-inf". Reading is in trace_read.cpp.
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <variant>

#include "base/atomic_write.h"
#include "base/utf8.h"
#include "session/lens_read.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
#include "trace/trace_fields.h"
#include "trace/trace_json.h"

namespace ts {

using nlohmann::json;

namespace {

json bytes_json(const std::string& s) {
  if (utf8_valid(s)) return s;
  std::string hex;
  char buf[3];
  for (unsigned char c : s) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    hex += buf;
  }
  return json{{"hex", hex}};
}

json num(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

template <class T>
json encode(const T& v);

// A tuple record (trace_fields.h: token scores, candidates) as an array, by position.
struct TupleWriter {
  json a = json::array();
  template <class T>
  void at(size_t, const T& v) {
    a.push_back(encode(v));
  }
  void bit(size_t, bool b) { a.push_back(b ? 1 : 0); }
};

template <class T>
json encode(const T& v) {
  if constexpr (std::is_floating_point_v<T>) {
    return num(v);
  } else if constexpr (trace_fields::kArity<T> > 0) {
    TupleWriter t;
    trace_fields::fields(t, v);
    return std::move(t.a);
  } else if constexpr (trace_fields::kIsVector<T>) {
    json a = json::array();
    for (const auto& x : v) a.push_back(encode(x));
    return a;
  } else {
    return v;
  }
}

template <class R>
json write_record(const R& r);

// The writer side of trace_fields.h's Io protocol: builds one JSON object.
struct Writer {
  json j = json::object();
  template <class T>
  void operator()(const char* key, const T& v) {
    j[key] = encode(v);
  }
  void bytes(const char* key, const std::string& s) { j[key] = bytes_json(s); }
  void bytes(const char* key, const std::vector<std::string>& v) {
    json a = json::array();
    for (const std::string& s : v) a.push_back(bytes_json(s));
    j[key] = std::move(a);
  }
  template <class E, class F>
  void choice(const char* key, E e, int, F name_of) {
    j[key] = name_of(e);
  }
  void stage_kinds(const char* key, const std::vector<StageKind>& v) {
    json a = json::array();
    for (StageKind k : v) a.push_back(stage_name(k));
    j[key] = std::move(a);
  }
  void chain(const char* key, const std::vector<Stage>& stages, bool has) {
    if (!has) return;
    json a = json::array();
    for (const Stage& st : stages) {
      Writer w;
      w.j["kind"] = stage_name(kind_of(st));
      std::visit([&](const auto& v) { stage_fields(w, v); }, st);
      a.push_back(std::move(w.j));
    }
    j[key] = std::move(a);
  }
  template <class R>
  void object(const char* key, const R& r) {
    j[key] = write_record(r);
  }
  template <class R>
  void objects(const char* key, const std::vector<R>& v) {
    json a = json::array();
    for (const R& r : v) a.push_back(write_record(r));
    j[key] = std::move(a);
  }
  template <class R>
  void optional(const char* key, bool has, const R& r) {
    if (has) object(key, r);
  }
  template <class F>
  void group(const char* key, F&& fill) {
    Writer g;
    fill(g);
    j[key] = std::move(g.j);
  }
  void constant(const char* key, const char* text) { j[key] = text; }
  template <class T>
  void optional(const char* key, const T& v) {  // written only when not empty (or not zero)
    if constexpr (requires { v.empty(); }) {
      if (!v.empty()) j[key] = encode(v);
    } else if (v != T{}) {
      j[key] = encode(v);
    }
  }
  template <class F>
  void check(const char*, bool, F&&) {}
  void piece_table(const char* key, const std::map<int, std::string>& m, int) {
    if (m.empty()) return;  // [[id, bytes], ...] in id order; absent when empty
    json ps = json::array();
    for (const auto& [id, b] : m) ps.push_back(json::array({id, bytes_json(b)}));
    j[key] = std::move(ps);
  }
};

template <class R>
json write_record(const R& r) {
  Writer w;
  trace_fields::fields(w, r);
  return std::move(w.j);
}

json sampler_json(const SamplerSettings& s) { return write_record(s); }

}  // namespace

Trace make_trace(const Session& s, int lane) {
  Trace t;
  if (has_model(s)) {
    t.model_path = model_info(s).path;
    t.model_format = model_info(s).format.empty() ? "memory" : model_info(s).format;
    t.config = ts::config(s);
    t.n_params = model(s).parameter_count();
    t.tokenizer_kind = s.tokenizer().data().kind == TokenizerKind::Spm ? "spm" : "bpe";
    t.bos_id = s.tokenizer().bos_id();
    t.eos_id = s.tokenizer().eos_id();
  }
  t.prompt = prompt_text(s);
  t.prompt_tokens = ts::prompt_tokens(s);
  for (const PathToken& p : path_tokens(s, 0, true)) {
    if (p.is_prompt) t.prompt_pieces.push_back(p.piece);
  }
  t.prompt_cut = ts::prompt_cut(s);
  t.record_level = ts::record_level(s);
  t.max_tokens = ts::max_tokens(s);
  t.stop_strings = ts::stop_strings(s);
  t.cursor = s.cursor();
  t.first_divergence = lane < 0 ? first_divergence(s) : -1;
  for (int i = 0; i < lane_count(s); ++i) {
    if (lane >= 0 && i != lane) continue;
    TraceLane tl;
    tl.settings = ts::settings(s, i);
    for (int k = 0; k < path_length(s, i); ++k) {
      const Step& st = *step_at(s, i, k);
      TraceStep ts;
      static_cast<StepChoice&>(ts) = st;  // what the step chose, as the session holds it
      if (st.sampler && sampler_json(*st.sampler) != sampler_json(tl.settings)) {
        ts.has_sampler = true;
        ts.sampler = *st.sampler;
      }
      ts.has_intervention = !st.ablation.empty();
      if (st.forward) {  // the file holds the lens (computed now if no one read it yet), not
                         // the residual rows it comes from: the format stays as it was
        logit_lens(s, *st.forward);
        ts.forward = *st.forward;
        ts.forward.lens_residuals.clear();
      }
      ts.sampling = st.sampling;
      if (has_model(s)) {  // the pieces of every candidate, for reading without the model
        auto note = [&](const std::vector<Candidate>& cs) {
          for (const Candidate& c : cs)
            if (!t.pieces.count(c.id)) t.pieces[c.id] = s.tokenizer().token_bytes(c.id);
        };
        note(ts.sampling.raw);
        note(ts.sampling.final_dist);
        for (const StageRecord& sr : ts.sampling.stages) note(sr.top);
      }
      tl.steps.push_back(std::move(ts));
    }
    t.lanes.push_back(std::move(tl));
  }
  return t;
}

Status add_receipts(Trace& t, const Session& s, int lane, int rival) {
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const int l = lane >= 0 ? lane : static_cast<int>(i);
    for (TraceStep& ts : t.lanes[i].steps) {
      int vs = rival;
      if (vs < 0) {  // the runner-up: the most probable token other than the chosen one
        const std::vector<float>& logits = ts.forward.logits;
        for (int id = 0; id < static_cast<int>(logits.size()); ++id) {
          if (id != ts.token && (vs < 0 || logits[id] > logits[vs])) vs = id;
        }
      }
      Result<TokenReceipt> r = token_receipt(s, l, ts.index, vs);
      if (!r.ok()) return r.error();
      ts.has_receipt = true;
      ts.receipt = std::move(r).value();
      if (!t.pieces.count(vs)) t.pieces[vs] = s.tokenizer().token_bytes(vs);
    }
  }
  return ok_status();
}

std::string receipt_to_json(const TokenReceipt& r, int indent) {
  return write_record(r).dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string trace_to_json(const Trace& t, int indent) {
  const json j = write_record(t);
  // Every string was made valid UTF-8 above; replace guards the labels from other modules.
  return j.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

Status write_trace_json(const Trace& t, const std::string& path, int indent) {
  // Written atomically: a failed export (disk full, a directory at the path) leaves an older
  // trace of that name as it was.
  const std::string text = trace_to_json(t, indent);
  return write_file_atomically(path, [&](std::ostream& out) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    return out ? ok_status() : make_error("error while writing " + path);
  });
}

Status write_trace_json(const Session& s, const std::string& path, int lane) {
  if (lane >= lane_count(s)) return make_error("no lane " + std::to_string(lane));
  return write_trace_json(make_trace(s, lane), path, 1);
}

}  // namespace ts
