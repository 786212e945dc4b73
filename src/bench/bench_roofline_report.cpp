// Roofline table and JSON (see bench_roofline_report.h). Every ratio is printed with its target
// and "met" or "missed"; the compute fraction judged is the longest prefill's.
#include "bench/bench_roofline_report.h"

#include <cstdio>
#include <fstream>
#include <thread>

namespace ts::bench {

namespace {

std::string roof_fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string roof_pad(const std::string& s, size_t w) {
  return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' ');
}

const char* verdict(bool met) { return met ? "met" : "missed"; }

const PrefillResult* long_prefill(const RooflineShapeResult& s) {
  return s.prefill.empty() ? nullptr : &s.prefill.back();
}

bool memory_met(const RooflineShapeResult& s) { return s.memory_fraction >= kTargetMemoryFraction; }
bool compute_met(const RooflineShapeResult& s) {
  const PrefillResult* p = long_prefill(s);
  return p && p->compute_fraction >= kTargetComputeFraction;
}
// The prefill target is set on a 512-token prompt; a shape whose context is shorter shows the
// fraction of its longest prefill with "n/a" for a verdict.
bool compute_applies(const RooflineShapeResult& s) {
  const PrefillResult* p = long_prefill(s);
  return p && p->tokens >= kTargetPrefillTokens;
}
bool summary_met(const RooflineShapeResult& s) { return s.summary_ratio <= kTargetSummaryRatio; }
bool full_met(const RooflineShapeResult& s) { return s.full_ratio <= kTargetFullRatio; }

std::string short_count(double n) {
  return n >= 1e6 ? roof_fmt("%.1fM", n / 1e6) : roof_fmt("%.0fK", n / 1e3);
}

}  // namespace

std::string roofline_machine() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(colon + 2);
      break;
    }
  }
  return model + " (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
}

std::string roofline_table(const RooflineReport& rep) {
  std::string o;
  o += "roofline: " + roofline_machine() + "\n";
  const ProbeResult& p1 = rep.probe_1t;
  const ProbeResult& pn = rep.probe_nt;
  o += "  probes (" + std::to_string(rep.vector_floats) + "-float vectors)  " +
       roof_pad("1 thread", 16) + std::to_string(pn.threads) + " threads\n";
  o += "  memory read bandwidth      " + roof_pad(roof_fmt("%.1f GB/s", p1.read_bytes_per_s / 1e9), 16) +
       roof_fmt("%.1f GB/s", pn.read_bytes_per_s / 1e9) + "\n";
  o += "  fp32 FMA peak              " + roof_pad(roof_fmt("%.1f GFLOP/s", p1.fma_flops_per_s / 1e9), 16) +
       roof_fmt("%.1f GFLOP/s", pn.fma_flops_per_s / 1e9) + "\n";
  if (!rep.probes_checked()) o += "  WARNING: a probe's checksum was wrong\n";

  const int t = pn.threads;
  o += "\n  " + roof_pad("shape", 7) + roof_pad("params", 8) + roof_pad("MB/token", 9) + roof_pad("prefill tok/s", 26) +
       "decode tok/s (record level, threads)\n";
  o += "  " + roof_pad("", 24) + roof_pad("short", 13) + roof_pad("long", 13) + roof_pad("off/1", 9) +
       roof_pad("off/" + std::to_string(t), 9) + roof_pad("summ/" + std::to_string(t), 9) +
       roof_pad("full/" + std::to_string(t), 9) + "steps  time\n";
  for (const RooflineShapeResult& s : rep.shapes) {
    if (!s.ran) {
      o += "  " + roof_pad(s.name, 7) + s.note + "\n";
      continue;
    }
    std::string line = "  " + roof_pad(s.name, 7) + roof_pad(short_count(s.params), 8) +
                       roof_pad(roof_fmt("%.1f", s.weight_bytes_per_token / 1e6), 9);
    for (size_t i = 0; i < 2; ++i) {
      line += roof_pad(i < s.prefill.size() ? roof_fmt("%.0f", s.prefill[i].tokens_per_s) + " @" +
                                             std::to_string(s.prefill[i].tokens)
                                       : "-",
                  13);
    }
    for (double v : {s.decode_off_1t, s.decode_off, s.decode_summary, s.decode_full}) {
      line += roof_pad(roof_fmt("%.1f", v), 9);
    }
    line += roof_pad(std::to_string(s.decode_steps), 7) + roof_fmt("%.0f s", s.seconds);
    o += line + "\n";
  }
  for (const RooflineShapeResult& s : rep.shapes) {
    if (s.ran && s.name == "model") o += "  model: " + s.note + "\n";
  }
  o += "  logit lens (record full), computed when read (the step on screen, a receipt, a trace "
       "save), not in every step:";
  for (const RooflineShapeResult& s : rep.shapes) {
    if (s.ran) o += " " + s.name + roof_fmt(" %.1f ms", s.lens_seconds * 1e3);
  }
  o += "\n";

  o += "\n  " + roof_pad("shape", 7) + roof_pad("memory roofline", 17) + roof_pad("compute (long)", 17) +
       roof_pad("summary/off", 15) + roof_pad("full/off", 15) + "agrees with reference\n";
  o += "  " + roof_pad("target", 7) + roof_pad(roof_fmt(">= %.2f", kTargetMemoryFraction), 17) +
       roof_pad(roof_fmt(">= %.2f", kTargetComputeFraction), 17) +
       roof_pad(roof_fmt("<= %.2fx", kTargetSummaryRatio), 15) + roof_pad(roof_fmt("<= %.2fx", kTargetFullRatio), 15) +
       "greedy ids, logits within 1e-4 x max(1, |max logit|) (quantized: 3e-2 or 4e-2 by type)\n";
  for (const RooflineShapeResult& s : rep.shapes) {
    if (!s.ran) continue;
    const PrefillResult* lp = long_prefill(s);
    std::string line = "  " + roof_pad(s.name, 7) +
                       roof_pad(roof_fmt("%.2f ", s.memory_fraction) + verdict(memory_met(s)), 17) +
                       roof_pad(roof_fmt("%.2f ", lp ? lp->compute_fraction : 0.0) +
                                    (compute_applies(s) ? verdict(compute_met(s)) : "n/a"),
                                17) +
                       roof_pad(roof_fmt("%.2fx ", s.summary_ratio) + verdict(summary_met(s)), 15) +
                       roof_pad(roof_fmt("%.2fx ", s.full_ratio) + verdict(full_met(s)), 15);
    line += std::string(s.agrees ? "yes" : "no") + " (" + std::to_string(s.checked_steps) +
            " steps, max diff " + roof_fmt("%.1e", s.max_logit_diff) + " at scale " +
            roof_fmt("%.2f", s.logit_scale) + ")";
    if (!s.agree_note.empty()) line += ": " + s.agree_note;
    o += line + "\n";
  }
  o += "  (compute n/a: the context holds fewer tokens than the target's " +
       std::to_string(kTargetPrefillTokens) + "-token prompt; the fraction is of the longest "
       "prefill that fits)\n";
  o += "  (a memory fraction above 1 means the engine streamed faster than the probe's best "
       "pass: the bandwidth of a shared machine varies from run to run)\n";
  o += "  memory roofline: decode tokens/s (off, " + std::to_string(t) +
       " threads) x weight bytes per token / read bandwidth (" + std::to_string(t) +
       " threads, probed again between the decode steps; best pass); compute: longest prefill's FLOPs (engine/cost.h) per second / FMA peak (" +
       std::to_string(t) + " threads, probed again before each prefill run; best run / best probe); "
       "overheads are decode time ratios.\n";
  return o;
}

nlohmann::json roofline_json(const RooflineReport& rep) {
  nlohmann::json probes = nlohmann::json::array();
  for (const ProbeResult* p : {&rep.probe_1t, &rep.probe_nt}) {
    probes.push_back({{"threads", p->threads},
                      {"read_bytes_per_s", p->read_bytes_per_s},
                      {"fma_flops_per_s", p->fma_flops_per_s},
                      {"checked", p->checked}});
  }
  nlohmann::json shapes = nlohmann::json::array();
  for (const RooflineShapeResult& s : rep.shapes) {
    nlohmann::json j = {{"name", s.name}, {"ran", s.ran}, {"note", s.note}};
    if (s.ran) {
      nlohmann::json prefill = nlohmann::json::array();
      for (const PrefillResult& p : s.prefill) {
        prefill.push_back({{"tokens", p.tokens},
                           {"tokens_per_s", p.tokens_per_s},
                           {"flops", p.flops},
                           {"flops_per_s", p.flops_per_s},
                           {"compute_fraction", p.compute_fraction}});
      }
      const PrefillResult* lp = long_prefill(s);
      j["config"] = {{"d_model", s.config.d_model},   {"d_ff", s.config.d_ff},
                     {"n_layers", s.config.n_layers}, {"n_heads", s.config.n_heads},
                     {"vocab_size", s.config.vocab_size}, {"n_ctx", s.config.n_ctx}};
      j["params"] = s.params;
      j["weight_bytes_per_token"] = s.weight_bytes_per_token;
      j["prefill"] = prefill;
      j["decode_steps"] = s.decode_steps;
      j["decode_tokens_per_s"] = {{"off_1_thread", s.decode_off_1t},
                                  {"off", s.decode_off},
                                  {"summary", s.decode_summary},
                                  {"full", s.decode_full}};
      j["memory_fraction"] = s.memory_fraction;
      j["decode_read_bytes_per_s"] = s.decode_read_bytes_per_s;
      j["compute_fraction"] = lp ? lp->compute_fraction : 0.0;
      j["compute_target_applies"] = compute_applies(s);
      j["summary_ratio"] = s.summary_ratio;
      j["full_ratio"] = s.full_ratio;
      j["lens_seconds"] = s.lens_seconds;
      j["met"] = {{"memory", memory_met(s)},
                  {"compute", compute_met(s)},
                  {"summary", summary_met(s)},
                  {"full", full_met(s)}};
      j["agrees_with_reference"] = s.agrees;
      j["checked_steps"] = s.checked_steps;
      j["max_logit_diff"] = s.max_logit_diff;
      j["logit_scale"] = s.logit_scale;
      j["agree_note"] = s.agree_note;
      j["seconds"] = s.seconds;
    }
    shapes.push_back(j);
  }
  return {{"machine", roofline_machine()},
          {"threads", rep.probe_nt.threads},
          {"vector_floats", rep.vector_floats},
          {"probes", probes},
          {"probes_checked", rep.probes_checked()},
          {"targets",
           {{"memory_fraction", kTargetMemoryFraction},
            {"compute_fraction", kTargetComputeFraction},
            {"summary_ratio", kTargetSummaryRatio},
            {"full_ratio", kTargetFullRatio}}},
          {"shapes", shapes},
          {"all_agree", rep.all_agree()}};
}

}  // namespace ts::bench
