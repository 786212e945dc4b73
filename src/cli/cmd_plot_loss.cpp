// `tokenscope plot-loss`: the loss curve of a training run as a PNG, for model cards. Reads the
// progress log `tokenscope train` printed (resumed runs joined, see train/train_log.h) and draws
// the train loss (EMA) and the validation loss against the step, with tokens seen under the
// steps when the log gives batch x context, and the unigram baseline when the log has it.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_common.h"
#include "cli/cli_commands.h"
#include "cli/line_chart.h"
#include "train/train_log.h"

namespace ts::cli {
namespace {

// 0, 512k, 1.5M, 2G: tokens seen, short.
std::string tokens_label(double v) {
  char buf[32];
  if (v >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.3gG", v / 1e9);
  } else if (v >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
  } else if (v >= 1e3) {
    std::snprintf(buf, sizeof buf, "%.3gk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  }
  return buf;
}

}  // namespace

int cmd_plot_loss(const Args& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Draw the loss curve of a training log (what `tokenscope train` printed) as a PNG.",
               "tokenscope plot-loss"};
  std::string log_path, out_path, title;
  int width = 900, height = 500;
  app.add_option("--log", log_path, "the training progress log")->required();
  app.add_option("--out", out_path, "the PNG to write")->required();
  app.add_option("--title", title, "the chart's title (default: \"<log name>: training loss\")");
  app.add_option("--width", width, "image width in pixels")->capture_default_str();
  app.add_option("--height", height, "image height in pixels")->capture_default_str();
  if (int rc = parse_args(app, args, out, err); rc >= 0) return rc;

  std::error_code ec;
  std::ifstream f(log_path, std::ios::binary);
  if (!std::filesystem::is_regular_file(log_path, ec) || !f)
    return fail(err, "plot-loss", "cannot read " + log_path);
  std::ostringstream text;
  text << f.rdbuf();
  const TrainLog log = parse_train_log(text.str());
  if (log.points.empty())
    return fail(err, "plot-loss", log_path + ": no `step N/M | loss ...` lines");

  ChartSpec spec;
  spec.width = width;
  spec.height = height;
  if (title.empty()) {
    title = std::filesystem::path(log_path).stem().string() + ": training loss";
  }
  spec.title = title;
  spec.x_title = "training step";
  spec.y_title = "loss (nats/token)";
  char buf[96];
  const double last_loss = log.points.back().loss;
  std::snprintf(buf, sizeof buf, "train loss, EMA (%.3f)", last_loss);
  spec.series.push_back({buf, log.steps(), log.losses(), Rgb{31, 104, 180}, 2.0f, 0.0f, false});
  const std::vector<double> vs = log.val_steps(), vv = log.vals();
  if (!vv.empty()) {
    std::snprintf(buf, sizeof buf, "validation loss (%.3f)", vv.back());
    spec.series.push_back({buf, vs, vv, Rgb{222, 100, 24}, 2.0f, 3.6f, false});
  }
  if (std::isfinite(log.unigram)) {
    std::snprintf(buf, sizeof buf, "unigram baseline (%.3f)", log.unigram);
    const double x0 = static_cast<double>(log.points.front().step),
                 x1 = static_cast<double>(log.points.back().step);
    // Drawn first so the curves lie on top; spans the logged steps (the axis may round outward).
    spec.series.insert(
        spec.series.begin(),
        {buf, {x0, x1}, {log.unigram, log.unigram}, Rgb{150, 152, 165}, 1.4f, 0.0f, true});
  }
  if (log.tokens_per_step > 0) {
    spec.x_secondary = [&log](double step) {
      return tokens_label(std::max(0.0, log.tokens_at(step)));
    };
    spec.x_secondary_title = "tokens";
  }
  spec.x_marks.assign(log.resumed_at.begin(), log.resumed_at.end());
  if (!spec.x_marks.empty()) spec.x_marks_label = "resumed";

  Result<Chart> chart = render_line_chart(spec);
  if (!chart.ok()) return fail(err, "plot-loss", chart.error().message);
  const Status st = write_png(out_path, chart->canvas);
  if (!st.ok()) return fail(err, "plot-loss", st.error().message);
  out << "wrote " << out_path << " (" << log.points.size() << " steps, " << vv.size()
      << " evaluations, " << log.runs << (log.runs == 1 ? " run" : " runs") << ")\n";
  return 0;
}

}  // namespace ts::cli
