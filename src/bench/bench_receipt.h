// `tokenscope bench --receipt`: how long the token receipt (session/receipt.h) of one step takes
// on a 0.5B-parameter shape (Qwen2-0.5B's: 24 layers, 14 heads, 2 K/V heads, d_model 896,
// d_ff 4864, a 151,936-token vocabulary), random weights written by our GGUF writer and loaded
// back like any file, next to one decode step of the same session and one step of the decision
// map. Target: a receipt in under 1 s. Printing (table and JSON) is here too.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "engine/config.h"

namespace ts::bench {

inline constexpr double kTargetReceiptSeconds = 1.0;

// Qwen2-0.5B's shape: qwen2 blocks (Q/K/V biases, NeoX rotation), tied embeddings, n_ctx 512.
ModelConfig qwen2_05b_config();

struct ReceiptBenchOptions {
  std::string type = "F32";  // the matrices' type in the file: F32, Q8_0, Q4_K
  int threads = 1;
  int rounds = 5;   // receipts timed; the best and the median are reported
  int step = 8;     // the decode step explained
  std::string dir;  // where the file is written (empty: the system's temp folder)
};

struct ReceiptBenchResult {
  std::string machine;  // roofline_machine()
  std::string shape;
  std::string type;
  size_t params = 0;
  int threads = 0;
  int step = 0, position = 0;
  double file_bytes = 0;
  double write_s = 0, load_s = 0;  // writing the GGUF file, loading it into the session
  double decode_s = 0;             // the session's next decode step (record summary)
  std::vector<double> receipt_s;   // each timed receipt
  double best_s = 0, median_s = 0;
  double decision_step_s = 0;  // the decision map of one step (all 152k lens logits per layer)
  int n_parts = 0;
  double logit_diff = 0, parts_error = 0;  // |parts sum - logit difference|
  bool within_target() const { return median_s < kTargetReceiptSeconds; }
};

// progress: one line per stage (may be empty).
Result<ReceiptBenchResult> run_receipt_bench(
    const ReceiptBenchOptions& opt, const std::function<void(const std::string&)>& progress);
std::string receipt_bench_table(const ReceiptBenchResult& r);
nlohmann::json receipt_bench_json(const ReceiptBenchResult& r);

}  // namespace ts::bench
