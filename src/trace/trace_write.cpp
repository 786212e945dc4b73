// Trace from a Session, and Trace -> JSON (schema in docs/trace-schema.md). Raw bytes that are
// not valid UTF-8 are written as {"hex": "..."}; non-finite floats as "nan" / "inf" / "-inf".
// Reading is in trace_read.cpp.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "base/atomic_write.h"
#include "base/utf8.h"
#include "session/path_queries.h"
#include "session/session.h"
#include "session/session_access.h"
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

json floats(const std::vector<float>& v) {
  json a = json::array();
  for (float x : v) a.push_back(num(x));
  return a;
}

json scores(const std::vector<TokenScore>& v) {
  json a = json::array();
  for (const TokenScore& t : v) a.push_back(json::array({t.id, num(t.logit), num(t.p)}));
  return a;
}

json candidates(const std::vector<Candidate>& v) {
  json a = json::array();
  for (const Candidate& c : v) {
    a.push_back(json::array({c.id, num(c.logit), num(c.p), c.kept ? 1 : 0}));
  }
  return a;
}

json config_json(const ModelConfig& c) {
  return json{{"architecture", c.architecture},
              {"name", bytes_json(c.name)},
              {"block", c.block == BlockType::Gpt2 ? "gpt2" : "llama"},
              {"n_layers", c.n_layers},
              {"n_heads", c.n_heads},
              {"n_kv_heads", c.n_kv_heads},
              {"d_model", c.d_model},
              {"d_ff", c.d_ff},
              {"vocab_size", c.vocab_size},
              {"n_ctx", c.n_ctx},
              {"norm_eps", num(c.norm_eps)},
              {"rope_theta", num(c.rope_theta)},
              {"rope", c.rope == RopeStyle::NeoX ? "neox" : "adjacent"},
              {"qkv_bias", c.qkv_bias},
              {"tied_embeddings", c.tied_embeddings}};
}

json sampler_json(const SamplerSettings& s) {
  json order = json::array();
  for (StageKind k : s.order) order.push_back(stage_name(k));
  return json{{"label", bytes_json(s.label)},
              {"temperature", num(s.temperature)},
              {"top_k", s.top_k},
              {"top_p", num(s.top_p)},
              {"min_p", num(s.min_p)},
              {"repetition_penalty", num(s.repetition_penalty)},
              {"frequency_penalty", num(s.frequency_penalty)},
              {"presence_penalty", num(s.presence_penalty)},
              {"penalty_last_n", s.penalty_last_n},
              {"seed", s.seed},
              {"order", order}};
}

json forward_json(const ForwardRecord& r) {
  json att = json::array();
  for (const AttentionMap& a : r.attention) {
    att.push_back(json{{"n_heads", a.n_heads},
                       {"first_pos", a.first_pos},
                       {"n_rows", a.n_rows},
                       {"probs_f16", a.probs_f16}});
  }
  json pos_top = json::array();
  for (const auto& v : r.position_top) pos_top.push_back(scores(v));
  json lens = json::array();
  for (const auto& v : r.logit_lens) lens.push_back(scores(v));
  json ops = json::array();
  for (const OpCost& o : r.cost.ops) {
    ops.push_back(json{{"name", o.name},
                       {"layer", o.layer},
                       {"flops", num(o.flops)},
                       {"weight_bytes", num(o.weight_bytes)},
                       {"kv_bytes_read", num(o.kv_bytes_read)},
                       {"kv_bytes_written", num(o.kv_bytes_written)}});
  }
  const CostRecord& c = r.cost;
  return json{{"phase", phase_name(r.phase)},
              {"first_pos", r.first_pos},
              {"n_positions", r.n_positions},
              {"input_ids", r.input_ids},
              {"logits", floats(r.logits)},
              {"position_top", pos_top},
              {"attention", att},
              {"logit_lens", lens},
              {"residual_norms", floats(r.residual_norms)},
              {"kv", json{{"length_before", r.kv.length_before},
                          {"length_after", r.kv.length_after},
                          {"capacity", r.kv.capacity},
                          {"bytes_used", r.kv.bytes_used},
                          {"bytes_capacity", r.kv.bytes_capacity}}},
              {"cost", json{{"flops", num(c.flops)},
                            {"weight_bytes", num(c.weight_bytes)},
                            {"kv_bytes_read", num(c.kv_bytes_read)},
                            {"kv_bytes_written", num(c.kv_bytes_written)},
                            {"activation_bytes", num(c.activation_bytes)},
                            {"seconds", num(c.seconds)},
                            {"flops_no_cache", num(c.flops_no_cache)},
                            {"ops", ops}}}};
}

json sampling_json(const SamplingRecord& r) {
  json stages = json::array();
  for (const StageRecord& s : r.stages) {
    stages.push_back(json{{"kind", stage_name(s.kind)},
                          {"name", s.name},
                          {"n_kept", s.n_kept},
                          {"cut_at", num(s.cut_at)},
                          {"top", candidates(s.top)}});
  }
  const DrawRecord& d = r.draw;
  return json{{"raw", candidates(r.raw)},
              {"stages", stages},
              {"final", candidates(r.final_dist)},
              {"draw", json{{"greedy", d.greedy},
                            {"u", num(d.u)},
                            {"chosen_id", d.chosen_id},
                            {"chosen_rank", d.chosen_rank},
                            {"chosen_p", num(d.chosen_p)},
                            {"cum_lo", num(d.cum_lo)},
                            {"cum_hi", num(d.cum_hi)},
                            {"entropy", num(d.entropy)},
                            {"raw_entropy", num(d.raw_entropy)}}}};
}

json step_json(const TraceStep& s) {
  json j{{"index", s.index},
         {"token", s.token},
         {"sampled_token", s.sampled_token},
         {"forced", s.forced},
         {"position", s.position},
         {"piece", bytes_json(s.piece)},
         {"display", s.display},
         {"stop", stop_reason_name(s.stop)},
         {"chosen_p", num(s.chosen_p)},
         {"chosen_rank", s.chosen_rank},
         {"forward", forward_json(s.forward)},
         {"sampling", sampling_json(s.sampling)}};
  if (s.has_sampler) j["sampler"] = sampler_json(s.sampler);
  return j;
}

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
      ts.index = st.index;
      ts.token = st.token;
      ts.sampled_token = st.sampled_token;
      ts.forced = st.forced;
      ts.position = st.position;
      ts.piece = st.piece;
      ts.display = st.display;
      ts.stop = st.stop;
      ts.chosen_p = st.chosen_p;
      ts.chosen_rank = st.chosen_rank;
      if (st.sampler && sampler_json(*st.sampler) != sampler_json(tl.settings)) {
        ts.has_sampler = true;
        ts.sampler = *st.sampler;
      }
      if (st.forward) ts.forward = *st.forward;
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

std::string trace_to_json(const Trace& t, int indent) {
  json pieces = json::array();
  for (const std::string& p : t.prompt_pieces) pieces.push_back(bytes_json(p));
  json stops = json::array();
  for (const std::string& p : t.stop_strings) stops.push_back(bytes_json(p));
  json lanes = json::array();
  for (const TraceLane& l : t.lanes) {
    json steps = json::array();
    for (const TraceStep& s : l.steps) steps.push_back(step_json(s));
    lanes.push_back(json{{"sampler", sampler_json(l.settings)}, {"steps", steps}});
  }
  json j{
      {"format", "tokenscope-trace"},
      {"version", t.version},
      {"model", json{{"path", bytes_json(t.model_path)},
                     {"format", t.model_format},
                     {"n_params", t.n_params},
                     {"config", config_json(t.config)}}},
      {"tokenizer", json{{"kind", t.tokenizer_kind}, {"bos_id", t.bos_id}, {"eos_id", t.eos_id}}},
      {"prompt", json{{"text", bytes_json(t.prompt)},
                      {"tokens", t.prompt_tokens},
                      {"pieces", pieces},
                      {"cut", t.prompt_cut}}},
      {"settings", json{{"record_level", record_level_name(t.record_level)},
                        {"max_tokens", t.max_tokens},
                        {"stop_strings", stops}}},
      {"cursor", t.cursor},
      {"first_divergence", t.first_divergence},
      {"lanes", lanes}};
  if (!t.pieces.empty()) {  // [[id, bytes], ...] in id order
    json ps = json::array();
    for (const auto& [id, bytes] : t.pieces) ps.push_back(json::array({id, bytes_json(bytes)}));
    j["pieces"] = ps;
  }
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
