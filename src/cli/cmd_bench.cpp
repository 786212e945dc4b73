// `tokenscope bench`: record memory against the budgets (default model over its whole context,
// a random GPT-2-124M-shaped model over 1024 positions, both at record level full), seek and
// branch-switch time on a 1000-step timeline, and decode speed at record levels off / summary /
// full. --memory / --seek / --speed pick sections (none: all); --json prints JSON. --soak [N]
// runs only the session soak (bench/soak.h): N random commands with invariant checks. --ui
// runs only the app's frame-build measurement (app/ui_bench.h), when the app is built in.
// --roofline (opt-in, about two minutes) measures the machine's bandwidth and FMA peak and how
// close prefill and decode get to them per model shape (bench_roofline.h); --shapes picks shapes.
// --step (opt-in) times the step a user waits for (a Session step at record summary with a
// realistic sampler chain, and greedy) next to the bare forward per shape (bench_step.h).
// --write-shape NAME --out FILE writes one of the random-weight roofline shapes (the same weights
// and synthetic vocabulary the roofline measures) as a GGUF file (F32; 0.5B as the Q8_0 file the
// roofline reads), for other engines to run.
// --receipt (opt-in) times a token receipt on a random 0.5B-parameter shape (bench_receipt.h).
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "bench/bench_measure.h"
#include "bench/bench_models.h"
#include "bench/bench_receipt.h"
#include "bench/bench_roofline.h"
#include "bench/bench_roofline_report.h"
#include "bench/bench_step.h"
#include "bench/soak.h"
#include "cli/cli.h"
#include "cli/cli_commands.h"
#include "cli/cli_common.h"
#include "formats/model_file.h"

namespace ts::cli {

using namespace ts::bench;  // the measurements live in src/bench/; this file is their command

namespace {

std::string mib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

UiBenchFn g_ui_bench = nullptr;

// The random-weight model run_roofline builds for `shape` (same roofline_seed), saved as F32
// GGUF, so the file holds the weights the roofline measures.
int write_shape_file(const std::string& shape, const std::string& path, std::ostream& out,
                     std::ostream& err) {
  if (path.empty()) return fail(err, "bench", "--write-shape needs --out FILE");
  Result<ModelConfig> c = roofline_shape_config(shape);
  if (!c.ok()) return fail(err, "bench", c.error().message);
  if (shape == "0.5B") {  // the Q8_0 file the roofline and bench --step measure (2 GB as F32)
    Result<size_t> n =
        write_random_gguf(c.value(), roofline_seed(c.value()), 0.02f, GgmlType::Q8_0, path);
    if (!n.ok()) return fail(err, "bench", n.error().message);
    out << "wrote " << path << ": " << c->name << ", " << n.value() << " parameters (Q8_0)\n";
    return 0;
  }
  const LoadedModel lm = random_model(c.value(), roofline_seed(c.value()));
  const std::map<std::string, std::string> extra = {
      {"general.description",
       "tokenscope bench --write-shape " + shape +
           ": random weights and a synthetic vocabulary, for speed comparisons only"}};
  if (Status st = save_gguf_model(path, lm.model, lm.tokenizer, extra); !st.ok()) {
    return fail(err, "bench", st.error().message);
  }
  out << "wrote " << path << ": " << c->name << ", " << lm.model.parameter_count()
      << " parameters (F32)\n";
  return 0;
}

// --receipt: the receipt benchmark on the 0.5B shape (bench_receipt.h).
int receipt_bench(const ReceiptBenchOptions& o, bool json, std::ostream& out, std::ostream& err) {
  Result<ReceiptBenchResult> r =
      run_receipt_bench(o, [&](const std::string& line) { err << line << std::endl; });
  if (!r.ok()) return fail(err, "bench", r.error().message);
  if (json) {
    out << nlohmann::json{{"receipt", receipt_bench_json(r.value())}}.dump(2) << "\n";
  } else {
    out << receipt_bench_table(r.value());
  }
  return 0;
}

// Every option of the command; the sections read what they need.
struct BenchArgs {
  ModelOptions m;
  bool memory = false, seek = false, speed = false, json_out = false;
  int seek_steps = 1000;
  std::string seek_shape = "42M";
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool threads_given = false;  // --threads was on the command line
  int soak = 10000;
  bool ui = false;
  int ui_frames = 300;
  bool roofline = false;
  std::string shapes = kDefaultRooflineShapes;
  bool shapes_given = false;
  int probe_mib = 512;
  double probe_gflop = 20;
  int roofline_decode = 200;
  bool step = false;
  int step_steps = 128, step_rounds = 3;
  bool step_reference = false;
  bool receipt = false;
  ReceiptBenchOptions receipt_opt;
  std::string write_shape, write_out;
};

// The sections and what each measures: --memory, --seek, --speed, --soak, --ui, --roofline,
// --step, --receipt, --write-shape.
void add_section_options(CLI::App& app, BenchArgs& a) {
  app.add_flag("--memory", a.memory,
               "record memory vs budgets (default model 32 MB, GPT-2 124M 512 MB)");
  app.add_flag("--seek", a.seek, "seek and branch-switch time on a long timeline");
  app.add_flag("--speed", a.speed, "decode tokens/s at record levels off, summary, full");
  app.add_flag("--json", a.json_out, "print the results as JSON");
  app.add_option("--soak", a.soak,
                 "only the soak: N seeded random commands (step, rewind, force, lanes, "
                 "branches) with the KV / replay invariants checked after each")
      ->expected(0, 1)
      ->default_str("10000")
      ->check(CLI::Range(1, 100000000));
  app.add_flag("--ui", a.ui,
               "only the app's frame build time: every panel open, the whole context filled "
               "(budget 8 ms median)");
  app.add_flag("--roofline", a.roofline,
               "memory bandwidth and FMA peak of this machine, and how close prefill / decode "
               "of each shape get to them (opt-in: takes about two minutes; 2 threads unless "
               "--threads is given)");
  app.add_flag("--step", a.step,
               "the end-to-end step (session, record summary, sampler chain and greedy) next to "
               "the bare forward's tokens/s per shape (opt-in; --shapes default "
               "15M,42M,110M,152k,0.5B; 2 threads unless --threads is given)");
  app.add_flag("--receipt", a.receipt,
               "time a token receipt on a random 0.5B-parameter shape (Qwen2-0.5B's), written as "
               "GGUF and loaded (opt-in; about 2 GB of memory and of temporary disk for F32)");
  app.add_option("--write-shape", a.write_shape,
                 "only write a --roofline random-weight shape (15M, 42M, 110M as F32, 0.5B as "
                 "Q8_0) as a GGUF file (--out), e.g. to run it in another engine");
  app.add_option("--out", a.write_out, "--write-shape: the GGUF file to write");
}

// How the sections run: lengths, shapes, threads, probe sizes (and the hidden test knobs).
void add_tuning_options(CLI::App& app, BenchArgs& a) {
  add_model_options(app, a.m);
  app.add_option("--seek-steps", a.seek_steps, "length of the seek timeline")
      ->capture_default_str()
      ->check(CLI::Range(10, 100000));
  app.add_option("--seek-shape", a.seek_shape, "--seek: random model shape (15M, 42M, 110M, tiny)")
      ->capture_default_str();
  app.add_option("--threads", a.threads, "threads for the forward pass")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app.add_option("--ui-frames", a.ui_frames, "frames measured by --ui")
      ->capture_default_str()
      ->check(CLI::Range(10, 100000));
  app.add_option(
         "--shapes", a.shapes,
         "--roofline shapes: 15M, 42M, 110M, 152k, 0.5B (a Q8_0 file), model (the --model file)")
      ->capture_default_str();
  app.add_option("--probe-mib", a.probe_mib, "--roofline: buffer streamed by the bandwidth probe")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 16));
  // Test knobs (hidden): the FMA probe's work, the decode length, --step's steps and rounds.
  app.add_option("--probe-gflop", a.probe_gflop)->group("")->check(CLI::Range(1e-6, 1e4));
  app.add_option("--roofline-decode", a.roofline_decode)->group("")->check(CLI::Range(1, 100000));
  app.add_option("--step-steps", a.step_steps)->group("")->check(CLI::Range(1, 100000));
  app.add_option("--step-rounds", a.step_rounds)->group("")->check(CLI::Range(1, 1000));
  app.add_flag("--reference-sampler", a.step_reference,
               "--step: also time the sessions with the reference sampler (the slow path the "
               "fast one is checked against), for before/after figures");
  app.add_option("--receipt-type", a.receipt_opt.type, "--receipt: F32, Q8_0 or Q4_K")
      ->capture_default_str();
  app.add_option("--receipt-rounds", a.receipt_opt.rounds, "--receipt: receipts timed")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
}

// "15M,42M,,0.5B" -> {"15M", "42M", "0.5B"}.
std::vector<std::string> comma_list(const std::string& list) {
  std::vector<std::string> out;
  for (size_t a = 0; a <= list.size();) {
    const size_t b = std::min(list.find(',', a), list.size());
    if (b > a) out.push_back(list.substr(a, b - a));
    a = b + 1;
  }
  return out;
}

// --step: the step a user waits for next to the bare forward, per shape.
int step_section(const BenchArgs& a, std::ostream& out, std::ostream& err) {
  StepOptions so;
  so.shapes = comma_list(a.shapes_given ? a.shapes : kDefaultStepShapes);
  so.threads = a.threads_given ? a.threads : 2;
  so.steps = a.step_steps;
  so.rounds = a.step_rounds;
  so.reference = a.step_reference;
  Result<StepReport> r =
      run_step_bench(so, [&](const std::string& line) { err << line << std::endl; });
  if (!r.ok()) return fail(err, "bench", r.error().message);
  if (a.json_out) {
    out << nlohmann::json{{"step", step_json(r.value())}}.dump(2) << "\n";
  } else {
    out << step_table(r.value());
  }
  for (const StepShapeResult& s : r->shapes) {
    if (!s.ran) return fail(err, "bench", "shape " + s.name + ": " + s.note);
  }
  return 0;
}

// --memory: the record's bytes against the budgets (the default model and GPT-2's shape).
nlohmann::json memory_section(const BenchArgs& a, const std::string& model_path,
                              const std::string& model_note, bool& problem, std::ostream& out) {
  std::vector<MemoryResult> rs = {bench_memory_default(model_path, a.threads),
                                  bench_memory_gpt2(a.threads)};
  if (model_path.empty()) rs[0].note = "skipped: " + model_note;
  nlohmann::json arr = nlohmann::json::array();
  for (const MemoryResult& r : rs) {
    problem = problem || !r.within();
    arr.push_back({{"name", r.name},
                   {"ran", r.ran},
                   {"note", r.note},
                   {"record_bytes", r.bytes},
                   {"budget_bytes", r.budget},
                   {"within_budget", r.within()},
                   {"prompt_tokens", r.prompt_tokens},
                   {"generated_tokens", r.generated},
                   {"seconds", r.seconds}});
    if (a.json_out) continue;
    out << "memory: " << r.name << "\n  ";
    if (r.ran) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " (%.1f s)", r.seconds);
      out << mib(r.bytes) << " of " << mib(r.budget)
          << " budget: " << (r.within() ? "OK" : "OVER BUDGET") << "; " << r.note << buf << "\n";
    } else {
      out << r.note << "\n";
    }
  }
  return arr;
}

// --seek: seek and branch-switch time on a long random-model timeline.
nlohmann::json seek_section(const BenchArgs& a, const ModelConfig& shape, bool& problem,
                            std::ostream& out) {
  const SeekResult r = bench_seek(a.seek_steps, a.threads, shape);
  problem = problem || !r.ran;
  if (!a.json_out) {
    char buf[200];
    if (r.ran) {
      std::snprintf(buf, sizeof buf,
                    "seek (%s shape): %d-step timeline, %d seeks: mean %.1f us, max %.1f us; "
                    "switch between two %d-step branches: %.1f us\n",
                    a.seek_shape.c_str(), r.steps, r.seeks, r.seek_mean_us, r.seek_max_us, r.steps,
                    r.switch_mean_us);
      out << buf;
    } else {
      out << "seek: " << r.note << "\n";
    }
  }
  return {{"ran", r.ran},
          {"note", r.note},
          {"shape", a.seek_shape},
          {"steps", r.steps},
          {"seeks", r.seeks},
          {"seek_mean_us", r.seek_mean_us},
          {"seek_max_us", r.seek_max_us},
          {"switch_branch_mean_us", r.switch_mean_us}};
}

// --speed: decode tokens/s at each record level.
nlohmann::json speed_section(const BenchArgs& a, const std::string& model_path,
                             const std::string& model_note, bool& problem, std::ostream& out) {
  std::string note;
  const std::vector<SpeedResult> rs = bench_speed(model_path, a.threads, note);
  if (model_path.empty()) note = "skipped: " + model_note;
  problem = problem || rs.empty();
  nlohmann::json arr = nlohmann::json::array();
  for (const SpeedResult& r : rs) {
    arr.push_back({{"record_level", r.level},
                   {"decode_steps", r.decode_steps},
                   {"tokens_per_second", r.tokens_per_second}});
  }
  if (!a.json_out) {
    out << "speed: " << note << "\n";
    for (const SpeedResult& r : rs) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "  record %-8s %8.1f tokens/s (%d decode steps)\n",
                    r.level.c_str(), r.tokens_per_second, r.decode_steps);
      out << buf;
    }
  }
  return {{"note", note}, {"levels", arr}};
}

// --roofline: the machine's ceilings and each shape against them. Returns the report's JSON;
// `problem` names what failed ("" when nothing did); an error only when it could not run.
Result<nlohmann::json> roofline_section(const BenchArgs& a, const std::string& model_path,
                                        const std::string& model_note, std::string& problem,
                                        std::ostream& out, std::ostream& err) {
  RooflineOptions ro;
  ro.shapes = comma_list(a.shapes);
  ro.model_path = model_path;
  ro.tokenizer_path = a.m.tokenizer;
  ro.model_note = model_note;
  ro.threads = a.threads_given ? a.threads : 2;
  ro.probe.read_bytes = static_cast<size_t>(a.probe_mib) << 20;
  ro.probe.fma_flops = a.probe_gflop * 1e9;
  ro.decode_steps = a.roofline_decode;
  Result<RooflineReport> r =
      run_roofline(ro, [&](const std::string& line) { err << line << std::endl; });
  if (!r.ok()) return r.error();
  if (!a.json_out) out << roofline_table(r.value());
  if (!r->all_agree()) {
    problem = "the optimized forward disagrees with reference_forward (see above)";
  } else if (!r->probes_checked()) {
    problem = "a probe's checksum was wrong";
  }
  for (const RooflineShapeResult& s : r->shapes) {
    if (!s.ran && s.name != "model") problem = "shape " + s.name + ": " + s.note;
  }
  return roofline_json(r.value());
}

// --memory, --seek, --speed and --roofline in one JSON object (none picked: the first three).
int measurement_sections(BenchArgs& a, const ModelConfig& seek_shape, std::ostream& out,
                         std::ostream& err) {
  if (!a.memory && !a.seek && !a.speed && !a.roofline) a.memory = a.seek = a.speed = true;
  std::string model_path, model_note;
  if (a.memory || a.speed || a.roofline) {
    Result<std::string> p = resolve_model_path(a.m);
    if (p.ok()) {
      model_path = p.value();
    } else {
      model_note = p.error().message;
    }
  }
  nlohmann::json j = nlohmann::json::object();
  bool problem = false;
  if (a.memory) j["memory"] = memory_section(a, model_path, model_note, problem, out);
  if (a.seek) j["seek"] = seek_section(a, seek_shape, problem, out);
  if (a.speed) j["speed"] = speed_section(a, model_path, model_note, problem, out);
  std::string roofline_problem;
  if (a.roofline) {
    Result<nlohmann::json> r =
        roofline_section(a, model_path, model_note, roofline_problem, out, err);
    if (!r.ok()) return fail(err, "bench", r.error().message);
    j["roofline"] = r.value();
  }
  if (a.json_out) out << j.dump(2) << "\n";
  if (!roofline_problem.empty()) return fail(err, "bench", roofline_problem);
  if (problem) {
    return fail(err, "bench", model_path.empty() && !model_note.empty()
                                  ? model_note
                                  : "a measurement did not run or is over its budget (see above)");
  }
  return 0;
}

}  // namespace

int cmd_bench(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Measure record memory against the budgets, seek time and decode speed.",
               "tokenscope bench"};
  BenchArgs a;
  add_section_options(app, a);
  add_tuning_options(app, a);
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;
  a.threads_given = app.count("--threads") > 0;
  a.shapes_given = app.count("--shapes") > 0;
  if (!a.write_shape.empty()) return write_shape_file(a.write_shape, a.write_out, out, err);
  if (a.receipt) {
    a.receipt_opt.threads = a.threads_given ? a.threads : 1;
    return receipt_bench(a.receipt_opt, a.json_out, out, err);
  }
  // Checked before anything runs, so a typo does not come after a long --memory run.
  const Result<ModelConfig> seek_config = roofline_shape_config(a.seek_shape);
  if (!seek_config.ok()) {
    err << "tokenscope bench: --seek-shape: '" << a.seek_shape
        << "' is not a bench shape (15M, 42M, 110M, tiny)\n";
    return 2;
  }
  if (a.ui) {
    if (g_ui_bench == nullptr) return fail(err, "bench", "--ui needs the app (built without it)");
    Result<std::string> p = resolve_model_path(a.m);
    if (!p.ok()) return fail(err, "bench", p.error().message);
    return g_ui_bench(p.value(), a.m.tokenizer, a.ui_frames, a.json_out, out, err);
  }
  if (app.count("--soak") > 0) {
    Result<SoakReport> r = run_soak_bench(
        a.soak, a.m.model, a.m.tokenizer, [&](const std::string& line) { err << line << "\n"; },
        cli::source_dir());
    if (!r.ok()) return fail(err, "bench", r.error().message);
    out << soak_summary(r.value());
    if (!r->ok()) return fail(err, "bench", "the soak found an invariant violated (see above)");
    return 0;
  }
  if (a.step) return step_section(a, out, err);
  return measurement_sections(a, seek_config.value(), out, err);
}

}  // namespace ts::cli

namespace ts {
void set_ui_bench(UiBenchFn fn) { cli::g_ui_bench = fn; }
}  // namespace ts
