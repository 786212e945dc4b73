// The receipt benchmark (bench_receipt.h): write the random 0.5B shape as GGUF, load it into a
// session, generate to the step, then time receipts against a rival far outside the top-k.
#include "bench/bench_receipt.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "bench/bench_models.h"
#include "bench/bench_roofline_report.h"
#include "formats/gguf_model.h"
#include "formats/model_file.h"
#include "session/decision_map.h"
#include "session/path_queries.h"
#include "session/receipt.h"
#include "session/session.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts::bench {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

Result<GgmlType> file_type(const std::string& name) {
  if (name == "F32") return GgmlType::F32;
  if (name == "Q8_0") return GgmlType::Q8_0;
  if (name == "Q4_K") return GgmlType::Q4_K;
  return make_error("--receipt-type: '" + name + "' is not F32, Q8_0 or Q4_K");
}

// Writes the random model (freed before the file is read back) and returns the file's path.
Result<std::string> write_model(const ReceiptBenchOptions& opt, GgmlType type,
                                ReceiptBenchResult& r) {
  const std::filesystem::path dir =
      opt.dir.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(opt.dir);
  const std::string path = (dir / ("tokenscope-bench-0.5B-" + opt.type + ".gguf")).string();
  const auto t0 = Clock::now();
  Result<size_t> params = write_random_gguf(qwen2_05b_config(), 2405, 0.02f, type, path);
  if (!params.ok()) return params.error();
  r.params = params.value();
  r.write_s = since(t0);  // with the random weights, which take a moment too
  std::error_code ec;
  r.file_bytes = static_cast<double>(std::filesystem::file_size(path, ec));
  return path;
}

// The token with the lowest logit of the step: far outside any top-k.
int lowest_logit(const Step& st) {
  const std::vector<float>& l = st.forward->logits;
  return static_cast<int>(std::min_element(l.begin(), l.end()) - l.begin());
}

Status measure(Session& s, const ReceiptBenchOptions& opt, ReceiptBenchResult& r,
               const std::function<void(const std::string&)>& say) {
  SamplerSettings chain;
  chain.label = "bench";
  stage<Penalties>(chain).repeat = 1.1f;
  stage<TopK>(chain).k = 40;
  stage<TopP>(chain).p = 0.95f;
  stage<Temperature>(chain).t = 0.8f;
  TS_TRY(set_record_level(s, RecordLevel::Summary));
  TS_TRY(s.set_prompt("w1_ w2_ w3_ w4_ w5_ w6_ w7_ w8_ w9_ w10_ w11_ w12_"));
  TS_TRY(s.set_sampler(0, chain));
  say("generating to step " + std::to_string(opt.step));
  TS_TRY(s.run_to(opt.step - 1));
  auto t0 = Clock::now();
  TS_TRY(s.step());
  r.decode_s = since(t0);
  const Step& st = *step_at(s, 0, opt.step);
  r.step = opt.step;
  r.position = st.position;
  const int rival = lowest_logit(st);
  say("timing " + std::to_string(opt.rounds) + " receipts of step " + std::to_string(opt.step));
  for (int i = 0; i < opt.rounds; ++i) {
    t0 = Clock::now();
    Result<TokenReceipt> rec = token_receipt(s, 0, opt.step, rival);
    r.receipt_s.push_back(since(t0));
    if (!rec.ok()) return rec.error();
    r.n_parts = static_cast<int>(rec->parts.size());
    r.logit_diff = rec->logit_diff;
    r.parts_error = std::abs(rec->parts_sum - rec->logit_diff);
  }
  std::vector<double> sorted = r.receipt_s;
  std::sort(sorted.begin(), sorted.end());
  r.best_s = sorted.front();
  r.median_s = sorted[sorted.size() / 2];
  say("timing the decision map of one step");
  t0 = Clock::now();
  Result<DecisionMap> m = decision_map(s, 0, opt.step, opt.step);
  r.decision_step_s = since(t0);
  if (!m.ok()) return m.error();
  return ok_status();
}

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

ModelConfig qwen2_05b_config() {
  ModelConfig c;
  set_family(c, "qwen2");  // RMSNorm, NeoX RoPE, SwiGLU, Q/K/V biases
  c.name = "random Qwen2-0.5B shape";
  c.n_layers = 24;
  c.n_heads = 14;
  c.n_kv_heads = 2;
  c.d_model = 896;
  c.d_ff = 4864;
  c.vocab_size = 151936;
  c.n_ctx = 512;
  c.norm_eps = 1e-6f;
  c.rope_theta = 1000000.0f;
  c.tied_embeddings = true;
  return c;
}

Result<ReceiptBenchResult> run_receipt_bench(
    const ReceiptBenchOptions& opt, const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  Result<GgmlType> type = file_type(opt.type);
  if (!type.ok()) return type.error();
  if (opt.rounds < 1 || opt.step < 1) return make_error("--receipt: rounds and step must be >= 1");
  ReceiptBenchResult r;
  r.machine = roofline_machine();
  r.shape = qwen2_05b_config().name;
  r.type = opt.type;
  r.threads = opt.threads;
  say("writing the random 0.5B shape as " + opt.type + " GGUF");
  Result<std::string> path = write_model(opt, type.value(), r);
  if (!path.ok()) return path.error();
  Status measured = ok_status();
  {
    SessionOptions so;
    so.n_threads = opt.threads;
    Session s(so);
    say("loading " + path.value());
    const auto t0 = Clock::now();
    measured = s.load_model(path.value());
    r.load_s = since(t0);
    if (measured.ok()) measured = measure(s, opt, r, say);
  }
  std::error_code ec;
  std::filesystem::remove(path.value(), ec);
  if (!measured.ok()) return measured.error();
  return r;
}

std::string receipt_bench_table(const ReceiptBenchResult& r) {
  std::string out = "receipt on the " + r.shape + " (" + std::to_string(r.params) +
                    " parameters, " + r.type + ", " + num("%.0f MB file", r.file_bytes / 1e6) +
                    ") on " + r.machine + ", " + std::to_string(r.threads) + " thread(s)\n";
  out += "  written in " + num("%.1f s", r.write_s) + ", loaded in " + num("%.1f s", r.load_s) +
         "; decode step " + std::to_string(r.step) + num(" (position %.0f): ", r.position) +
         num("%.3f s", r.decode_s) + "\n";
  out += "  receipt of step " + std::to_string(r.step) + " (" + std::to_string(r.n_parts) +
         " parts, rival = the lowest logit): best " + num("%.3f s", r.best_s) + ", median " +
         num("%.3f s", r.median_s) + " of " + std::to_string(r.receipt_s.size()) + " (target < " +
         num("%.1f s", kTargetReceiptSeconds) + ": " + (r.within_target() ? "met" : "MISSED") +
         ")\n";
  out += "  parts sum - logit difference: " + num("%.2e", r.parts_error) + " (difference " +
         num("%.4f", r.logit_diff) + ")\n";
  out += "  decision map of one step (every layer's lens over the whole vocabulary): " +
         num("%.3f s", r.decision_step_s) + "\n";
  return out;
}

nlohmann::json receipt_bench_json(const ReceiptBenchResult& r) {
  return {{"machine", r.machine},
          {"shape", r.shape},
          {"type", r.type},
          {"params", r.params},
          {"threads", r.threads},
          {"step", r.step},
          {"position", r.position},
          {"file_bytes", r.file_bytes},
          {"write_s", r.write_s},
          {"load_s", r.load_s},
          {"decode_s", r.decode_s},
          {"receipt_s", r.receipt_s},
          {"best_s", r.best_s},
          {"median_s", r.median_s},
          {"target_s", kTargetReceiptSeconds},
          {"within_target", r.within_target()},
          {"decision_step_s", r.decision_step_s},
          {"n_parts", r.n_parts},
          {"logit_diff", r.logit_diff},
          {"parts_error", r.parts_error}};
}

}  // namespace ts::bench
