// The fields of every trace record, listed once (schema: docs/trace-schema.md). Each fields()
// overload names a record's JSON keys and the members they hold; trace_write.cpp visits the
// lists with a writer and trace_read.cpp with a checking reader, so the two cannot drift.
// The Io protocol (both sides implement it):
//   io(key, value)              numbers, booleans, text, and vectors of those or of tuples
//   io.bytes(key, s)            raw bytes (a string or a list of strings; hex when not UTF-8)
//   io.choice(key, e, n, name)  an enum spelled by name(e), one of n values
//   io.object(key, r)           a nested record; io.objects(key, v) an array of them
//   io.optional(key, has, r)    a nested record present only when `has`
//   io.group(key, fn)           a JSON object grouping some fields of a flat struct
//   io.constant(key, text)      a fixed string (the reader checks it)
//   io.check(key, ok, message)  the reader refuses the record unless ok (writer: nothing)
//   io.piece_table(key, m, vocab)  the optional [[id, bytes], ...] table of token pieces
//   io.stage_kinds(key, order), io.chain(key, stages, has)  sampler settings (sampler_fields.h)
// Tuples (token scores, candidates) are arrays listed by position: t.at(i, v), t.bit(i, b).
// A record's fields are listed in the order the reader checks them.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "sampling/sampler_fields.h"
#include "trace/trace_json.h"

namespace ts::trace_fields {

// R is T or const T: one list serves the writer (const records) and the reader.
template <class R, class T>
concept Rec = std::is_same_v<std::remove_const_t<R>, T>;

// Vectors are arrays of their elements (the Io's value encoding decides by type).
template <class T>
inline constexpr bool kIsVector = false;
template <class T>
inline constexpr bool kIsVector<std::vector<T>> = true;

// The positional records and their lengths.
template <class T>
inline constexpr size_t kArity = 0;
template <>
inline constexpr size_t kArity<TokenScore> = 3;
template <>
inline constexpr size_t kArity<Candidate> = 4;
template <>
inline constexpr size_t kArity<StageValue> = 2;

template <class Io, Rec<TokenScore> R>
void fields(Io& t, R& s) {  // [id, logit, p]
  t.at(0, s.id);
  t.at(1, s.logit);
  t.at(2, s.p);
}

template <class Io, Rec<StageValue> R>
void fields(Io& t, R& v) {  // ["coin", 0.31]
  t.at(0, v.key);
  t.at(1, v.value);
}

template <class Io, Rec<Candidate> R>
void fields(Io& t, R& c) {  // [id, logit, p, kept (0 or 1)]
  t.at(0, c.id);
  t.at(1, c.logit);
  t.at(2, c.p);
  t.bit(3, c.kept);
}

inline const char* rope_name(RopeStyle r) { return r == RopeStyle::NeoX ? "neox" : "adjacent"; }

// The block's columns (norm, positions, MLP, biases) are not listed: the reader takes them from
// the architecture's row of engine/family.h. "block" is the older two-way name, still written
// ("gpt2" for learned positions, else "llama") and read without effect.
template <class Io, Rec<ModelConfig> R>
void fields(Io& io, R& c) {
  io("architecture", c.architecture);
  if constexpr (!std::is_const_v<R>) {
    io.check("architecture", set_family(c, c.architecture),
             [&] { return "\"" + c.architecture + "\" is not a model family this build runs"; });
  }
  io.bytes("name", c.name);
  std::string block = c.learned_positions() ? "gpt2" : "llama";
  io("block", block);
  io("n_layers", c.n_layers);
  io("n_heads", c.n_heads);
  io("n_kv_heads", c.n_kv_heads);
  io("d_model", c.d_model);
  io("d_ff", c.d_ff);
  io("vocab_size", c.vocab_size);
  io("n_ctx", c.n_ctx);
  io("norm_eps", c.norm_eps);
  io("rope_theta", c.rope_theta);
  io.choice("rope", c.rope, 2, rope_name);
  io.optional("rope_dims", c.rope_dims);  // absent (0): RoPE turns whole heads
  io("qkv_bias", c.qkv_bias);
  io("tied_embeddings", c.tied_embeddings);
}

// Settings: the flat form and the chain (sampling/sampler_fields.h).
template <class Io>
void fields(Io& io, const SamplerSettings& s) {
  write_sampler(io, s);
}
template <class Io>
void fields(Io& io, SamplerSettings& s) {
  read_sampler(io, s);
}

template <class Io, Rec<AttentionMap> R>
void fields(Io& io, R& a) {
  io("n_heads", a.n_heads);
  io("first_pos", a.first_pos);
  io("n_rows", a.n_rows);
  io("probs_f16", a.probs_f16);
  const bool size_ok = a.n_heads >= 0 && a.first_pos >= 0 && a.n_rows >= 0 &&
                       (a.n_heads == 0 || a.n_rows == 0 ||
                        a.probs_f16.size() == a.row_offset(a.n_heads - 1, a.n_rows - 1) +
                                                  static_cast<size_t>(a.row_length(a.n_rows - 1)));
  io.check("probs_f16", size_ok, [] { return "size does not match n_heads, first_pos, n_rows"; });
}

template <class Io, Rec<KvRecord> R>
void fields(Io& io, R& kv) {
  io("length_before", kv.length_before);
  io("length_after", kv.length_after);
  io("capacity", kv.capacity);
  io("bytes_used", kv.bytes_used);
  io("bytes_capacity", kv.bytes_capacity);
}

template <class Io, Rec<OpCost> R>
void fields(Io& io, R& op) {
  io("name", op.name);
  io("layer", op.layer);
  io("flops", op.flops);
  io("weight_bytes", op.weight_bytes);
  io("kv_bytes_read", op.kv_bytes_read);
  io("kv_bytes_written", op.kv_bytes_written);
}

template <class Io, Rec<CostRecord> R>
void fields(Io& io, R& c) {
  io("flops", c.flops);
  io("weight_bytes", c.weight_bytes);
  io("kv_bytes_read", c.kv_bytes_read);
  io("kv_bytes_written", c.kv_bytes_written);
  io("activation_bytes", c.activation_bytes);
  io("seconds", c.seconds);
  io("flops_no_cache", c.flops_no_cache);
  io.objects("ops", c.ops);
}

template <class Io, Rec<ForwardRecord> R>
void fields(Io& io, R& r) {
  io.choice("phase", r.phase, 2, phase_name);
  io("first_pos", r.first_pos);
  io("n_positions", r.n_positions);
  io("input_ids", r.input_ids);
  io("logits", r.logits);
  io("position_top", r.position_top);
  io.objects("attention", r.attention);
  io("logit_lens", r.logit_lens);
  io("residual_norms", r.residual_norms);
  io.object("kv", r.kv);
  io.object("cost", r.cost);
}

template <class Io, Rec<StageRecord> R>
void fields(Io& io, R& s) {
  io.choice("kind", s.kind, kStageCount, stage_name);
  io("name", s.name);
  io("n_kept", s.n_kept);
  io("cut_at", s.cut_at);
  io("top", s.top);
  // What the newer stages record (XTC's coin, DRY's matched positions); absent when empty, and
  // in traces written before them.
  io.optional("values", s.values);
  io.optional("marks", s.marks);
}

template <class Io, Rec<DrawRecord> R>
void fields(Io& io, R& d) {
  io("greedy", d.greedy);
  io("u", d.u);
  io("chosen_id", d.chosen_id);
  io("chosen_rank", d.chosen_rank);
  io("chosen_p", d.chosen_p);
  io("cum_lo", d.cum_lo);
  io("cum_hi", d.cum_hi);
  io("entropy", d.entropy);
  io("raw_entropy", d.raw_entropy);
}

template <class Io, Rec<SamplingRecord> R>
void fields(Io& io, R& r) {
  io("raw", r.raw);
  io.objects("stages", r.stages);
  io("final", r.final_dist);
  io.object("draw", r.draw);
}

// An intervention: its set in the text form of engine/intervention.h and whether the later
// steps inherit it.
template <class Io, Rec<Ablation> R>
void fields(Io& io, R& a) {
  std::string set = describe(a.set);
  io("set", set);
  bool ok = true;
  if constexpr (!std::is_const_v<R>) {
    Result<InterventionSet> parsed = parse_interventions(set);
    ok = parsed.ok();
    if (ok) a.set = parsed.value();
  }
  io.check("set", ok, [&] { return "'" + set + "' is not an intervention set"; });
  io("from_here_on", a.from_here_on);
}

template <class Io, Rec<ReceiptToken> R>
void fields(Io& io, R& t) {
  io("id", t.id);
  io.bytes("piece", t.piece);
  io("logit", t.logit);
  io("p", t.p);
  io("rank", t.rank);
}

template <class Io, Rec<ReceiptPart> R>
void fields(Io& io, R& p) {
  std::string name = part_name(p.part);
  io("name", name);
  bool ok = true;
  if constexpr (!std::is_const_v<R>) {
    Result<PartId> parsed = parse_part_name(name);
    ok = parsed.ok();
    if (ok) p.part = parsed.value();
  }
  io.check("name", ok, [&] { return "'" + name + "' is not a part name"; });
  io("value", p.value);
}

template <class Io, Rec<TokenAtStage> R>
void fields(Io& io, R& t) {
  io("logit", t.logit);
  io("p", t.p);
  io("kept", t.kept);
}

template <class Io, Rec<ReceiptStage> R>
void fields(Io& io, R& s) {
  io.choice("kind", s.kind, kStageCount, stage_name);
  io("name", s.name);
  io("n_kept", s.n_kept);
  io("cut_at", s.cut_at);
  io.object("chosen", s.chosen);
  io.object("vs", s.vs);
}

template <class Io, Rec<StripSpan> R>
void fields(Io& io, R& s) {
  io("on_strip", s.on_strip);
  io("lo", s.lo);
  io("hi", s.hi);
}

template <class Io, Rec<ReceiptDraw> R>
void fields(Io& io, R& d) {
  io("greedy", d.greedy);
  io("u", d.u);
  io("sampled", d.sampled);
  io.object("chosen", d.chosen);
  io.object("vs", d.vs);
}

template <class Io, Rec<TokenReceipt> R>
void fields(Io& io, R& r) {
  io("lane", r.lane);
  io("step", r.step);
  io("position", r.position);
  io("forced", r.forced);
  io.object("chosen", r.chosen);
  io.object("vs", r.vs);
  io("logit_diff", r.logit_diff);
  io("recorded_diff", r.recorded_diff);
  io("parts_sum", r.parts_sum);
  io.objects("parts", r.parts);
  io.objects("stages", r.stages);
  io.object("draw", r.draw);
}

template <class Io, Rec<TraceStep> R>
void fields(Io& io, R& s) {
  io("index", s.index);
  io("token", s.token);
  io("sampled_token", s.sampled_token);
  io("forced", s.forced);
  io("position", s.position);
  io.bytes("piece", s.piece);
  io("display", s.display);
  io.choice("stop", s.stop, 5, stop_reason_name);
  io("chosen_p", s.chosen_p);
  io("chosen_rank", s.chosen_rank);
  // Only when the step was chosen by other settings than the lane's.
  io.optional("sampler", s.has_sampler, s.sampler);
  // Only on an intervention's branch.
  io.optional("intervention", s.has_intervention, s.ablation);
  io.object("forward", s.forward);
  io.object("sampling", s.sampling);
  io.optional("receipt", s.has_receipt, s.receipt);  // only when asked for
}

template <class Io, Rec<TraceLane> R>
void fields(Io& io, R& l) {
  io.object("sampler", l.settings);
  io.objects("steps", l.steps);
}

template <class Io, Rec<Trace> R>
void fields(Io& io, R& t) {
  io.constant("format", "tokenscope-trace");
  io("version", t.version);
  io.check("version", t.version == kTraceVersion, [&] {
    return "version " + std::to_string(t.version) + " is not supported (this build reads " +
           std::to_string(kTraceVersion) + ")";
  });
  io.group("model", [&](auto& m) {
    m.bytes("path", t.model_path);
    m("format", t.model_format);
    m("n_params", t.n_params);
    m.object("config", t.config);
  });
  io.group("tokenizer", [&](auto& k) {
    k("kind", t.tokenizer_kind);
    k("bos_id", t.bos_id);
    k("eos_id", t.eos_id);
  });
  io.group("prompt", [&](auto& p) {
    p.bytes("text", t.prompt);
    p("tokens", t.prompt_tokens);
    p.bytes("pieces", t.prompt_pieces);
    p("cut", t.prompt_cut);
  });
  io.group("settings", [&](auto& s) {
    s.choice("record_level", t.record_level, 3, record_level_name);
    s("max_tokens", t.max_tokens);
    s.bytes("stop_strings", t.stop_strings);
  });
  io("cursor", t.cursor);
  io("first_divergence", t.first_divergence);
  io.objects("lanes", t.lanes);
  io.piece_table("pieces", t.pieces, t.config.vocab_size);
}

}  // namespace ts::trace_fields
