// Common CLI options, CLI11 parsing with one-line errors, and Session setup from the options.
#include "cli/cli_common.h"

#include <charconv>
#include <cstdio>
#include <system_error>

#include "sampling/sampler_spec.h"
#include "session/chat_prompt.h"
#include "session/default_model.h"
#include "session/path_queries.h"
#include "session/session_access.h"
#include "session/session_ops.h"

namespace ts::cli {

void add_model_options(CLI::App& app, ModelOptions& m) {
  app.add_option("--model", m.model,
                 "model file: GGUF, or a llama2.c checkpoint with --tokenizer "
                 "(default: the shipped models/tales-4m.gguf)");
  app.add_option("--tokenizer", m.tokenizer, "llama2.c tokenizer.bin for a llama2.c checkpoint");
}

void add_generation_options(CLI::App& app, GenOptions& g, bool with_lanes) {
  app.add_option("--prompt", g.prompt, "prompt text")->capture_default_str();
  app.add_option("--chat", g.chat,
                 "a user message, rendered through the model's chat template "
                 "(tokenizer.chat_template) as the prompt, instead of --prompt");
  app.add_option("--system", g.system, "a system message before --chat's message");
  app.add_option("--temperature", g.temperature, "temperature (0 = greedy)")
      ->capture_default_str();
  app.add_option("--top-k", g.top_k, "keep the k most probable tokens (0 = off)")
      ->capture_default_str();
  app.add_option("--top-p", g.top_p, "nucleus: smallest set with this probability (1 = off)")
      ->capture_default_str();
  app.add_option("--min-p", g.min_p, "drop tokens below min-p x the top probability (0 = off)")
      ->capture_default_str();
  app.add_option("--sampler", g.sampler,
                 "any sampler stage by its spec keys, e.g. \"typical-p=0.9 xtc-p=0.5 "
                 "xtc-threshold=0.1 top-n-sigma=1 dyn-range=0.5 bias=15:-5\" (over the flags "
                 "above)");
  // Digits only: CLI11 alone would read "-1" as the largest seed.
  app.add_option("--seed", g.seed,
                 "random seed, an unsigned integer 0..18446744073709551615 (the draw of step k "
                 "is uniform01(seed, k))")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            uint64_t n = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || ec != std::errc() || end != v.data() + v.size()) {
              return "must be an unsigned integer in 0..18446744073709551615, got '" + v + "'";
            }
            return "";
          },
          "UINT64"));
  app.add_option("--max-tokens", g.max_tokens, "new tokens at most")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--stop", g.stops, "stop string (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--record", g.record, "record level: off, summary, full")
      ->capture_default_str()
      ->check(CLI::IsMember({"off", "summary", "full"}));
  app.add_option("--ablate", g.ablate,
                 "switch off (or scale with =F) heads, attention blocks or MLPs, e.g. "
                 "L0.H3,L1.attn,L2.mlp=0.5, from --ablate-step on");
  app.add_option("--ablate-step", g.ablate_step,
                 "--ablate: the step from which the intervention applies (0 = the prefill)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  if (with_lanes) {
    app.add_option("--lanes", g.lanes,
                   "compare samplers, e.g. \"greedy; temp=0.8; top-p=0.9\" (the sampler "
                   "options above are each lane's defaults)");
  }
}

int parse_args(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err) {
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg) {
      if (c == '\n') c = ' ';
    }
    err << "tokenscope " << (args.empty() ? std::string() : args[0]) << ": " << msg
        << " (see --help)\n";
    return 2;
  }
  return -1;
}

int fail(std::ostream& err, const std::string& cmd, const std::string& message) {
  std::string msg = message;
  for (char& c : msg) {
    if (c == '\n') c = ' ';
  }
  err << "tokenscope " << cmd << ": " << terminal_safe(msg) << "\n";
  return 1;
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t k = 0; k < text.size(); ++k) {
    const auto u = static_cast<unsigned char>(text[k]);
    char buf[12];
    if ((u < 0x20 && u != '\n' && u != '\t') || u == 0x7F) {
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    } else if (u == 0xC2 && k + 1 < text.size() &&
               static_cast<unsigned char>(text[k + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[k + 1]) <= 0x9F) {  // a C1 control (U+0080..9F)
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned char>(text[k + 1]));
      out += buf;
      ++k;
    } else {
      out += text[k];
    }
  }
  return out;
}

const char* source_dir() {
#ifdef TS_SOURCE_DIR
  return TS_SOURCE_DIR;
#else
  return "";
#endif
}

Result<std::string> resolve_model_path(const ModelOptions& m) {
  if (!m.model.empty()) return m.model;
  return find_default_model(source_dir(), "");
}

Result<RecordLevel> parse_record_level(const std::string& s) {
  if (s == "off") return RecordLevel::Off;
  if (s == "summary") return RecordLevel::Summary;
  if (s == "full") return RecordLevel::Full;
  return make_error("record level '" + s + "' is not one of off, summary, full");
}

Result<std::vector<SamplerSettings>> lane_settings(const GenOptions& g) {
  SamplerSettings base;
  stage<Temperature>(base).t = g.temperature;
  stage<TopK>(base).k = g.top_k;
  stage<TopP>(base).p = g.top_p;
  stage<MinP>(base).p = g.min_p;
  base.seed = g.seed;
  if (!g.sampler.empty()) {
    Result<SamplerSettings> spec = parse_sampler_spec(g.sampler, base);
    if (!spec.ok()) return make_error("--sampler: " + spec.error().message);
    base.chain = spec.value().chain;
    base.seed = spec.value().seed;
  }
  std::vector<SamplerSettings> lanes;
  if (g.lanes.empty()) {
    base.label = describe(base);
    lanes.push_back(base);
  } else {
    Result<std::vector<SamplerSettings>> parsed = parse_lane_specs(g.lanes, base);
    if (!parsed.ok()) return make_error("--lanes: " + parsed.error().message);
    lanes = std::move(parsed).value();
  }
  if (lanes.empty()) return make_error("--lanes: no lane given");
  if (static_cast<int>(lanes.size()) > kMaxLanes) {
    return make_error("--lanes: at most " + std::to_string(kMaxLanes) + " lanes");
  }
  for (const SamplerSettings& s : lanes) {
    if (Status v = validate(s); !v.ok()) {
      return make_error("lane '" + s.label + "': " + v.error().message);
    }
  }
  return lanes;
}

Result<Ablation> ablation_option(const GenOptions& g) {
  Result<InterventionSet> set = parse_interventions(g.ablate);
  if (!set.ok()) return make_error("--ablate: " + set.error().message);
  return Ablation{set.value(), true};
}

Status step_with_ablation(Session& s, const GenOptions& g) {
  TS_TRY(s.step());
  Result<Ablation> a = ablation_option(g);
  if (!a.ok()) return a.error();
  if (a->empty() || s.cursor() != g.ablate_step) return ok_status();
  for (int lane = 0; lane < lane_count(s); ++lane) {
    if (path_length(s, lane) > s.cursor()) TS_TRY(s.ablate(a.value(), lane));
  }
  return ok_status();
}

Status setup_session(Session& s, const ModelOptions& m, const GenOptions& g) {
  Result<RecordLevel> level = parse_record_level(g.record);
  if (!level.ok()) return level.error();
  Result<Ablation> ablation = ablation_option(g);
  if (!ablation.ok()) return ablation.error();
  Result<std::vector<SamplerSettings>> lanes = lane_settings(g);
  if (!lanes.ok()) return lanes.error();
  Result<std::string> path = resolve_model_path(m);
  if (!path.ok()) return path.error();
  TS_TRY(s.load_model(path.value(), m.tokenizer));
  if (Status v = validate(ablation->set, config(s)); !v.ok()) {
    return make_error("--ablate: " + v.error().message);
  }
  TS_TRY(set_record_level(s, level.value()));
  TS_TRY(set_max_tokens(s, g.max_tokens));
  TS_TRY(set_stop_strings(s, g.stops));
  if (!g.system.empty() && g.chat.empty()) return make_error("--system needs --chat");
  if (g.chat.empty()) {
    TS_TRY(s.set_prompt(g.prompt));
  } else {
    Result<std::string> chat = chat_prompt(s, g.chat, g.system);
    if (!chat.ok()) return make_error("--chat: " + chat.error().message);
    TS_TRY(s.set_prompt(chat.value()));
  }
  TS_TRY(s.set_sampler(0, lanes.value()[0]));
  for (size_t i = 1; i < lanes->size(); ++i) {
    Result<int> added = s.add_lane(lanes.value()[i]);
    if (!added.ok()) return added.error();
  }
  return ok_status();
}

std::string quoted(const std::string& display) { return "'" + display + "'"; }

}  // namespace ts::cli
