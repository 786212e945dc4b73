// plot-loss: the chart renderer (a known line passes through the expected pixels, the background
// is light, ticks are nice numbers) and the command end to end (the PNG decodes back with
// stb_image at the asked size and holds both curves' colours; bad input -> one line, exit 1).
#include <doctest/doctest.h>
#include <stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.h"
#include "cli/line_chart.h"

using namespace ts;
using namespace ts::cli;

namespace {

bool light(Rgb c) { return c.r > 225 && c.g > 225 && c.b > 225; }
bool reddish(Rgb c) { return c.r > 170 && c.g < 110 && c.b < 110; }

int run_cli(std::vector<std::string> args, std::string* err_text = nullptr) {
  args.insert(args.begin(), "tokenscope");
  std::ostringstream out, err;
  const int code = cli_run(args, out, err);
  if (err_text) *err_text = err.str();
  return code;
}

std::filesystem::path temp_dir() {
  const std::filesystem::path d = std::filesystem::temp_directory_path() / "ts_test_plot_loss";
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("nice_ticks: round steps covering the range") {
  CHECK(nice_ticks(0, 3520, 7) ==
        std::vector<double>{0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000});
  const std::vector<double> y = nice_ticks(3.62, 8.09, 6);
  CHECK(y.front() <= 3.62);
  CHECK(y.back() >= 8.09);
  CHECK(y[1] - y[0] == doctest::Approx(0.5));  // 4.47 / 6 = 0.745 -> 0.5
}

TEST_CASE("render_line_chart: a diagonal line lands on its pixels, the rest stays light") {
  ChartSpec spec;
  spec.width = 400;
  spec.height = 300;
  spec.title = "t";
  spec.series.push_back(
      {"", {0, 10}, {0, 10}, Rgb{220, 30, 30}, 5.0f, 0.0f, false});  // 3 px at this size
  Result<Chart> r = render_line_chart(spec);
  REQUIRE(r.ok());
  const Chart& ch = r.value();
  CHECK(ch.canvas.width == 400);
  CHECK(ch.canvas.height == 300);
  CHECK(light(ch.canvas.at(2, 2)));
  CHECK(light(ch.canvas.at(399, 299)));
  for (double t : {2.0, 5.0, 7.5}) {  // on the line
    CHECK(reddish(ch.canvas.at(static_cast<int>(ch.px_x(t)), static_cast<int>(ch.px_y(t)))));
  }
  for (auto [x, y] : {std::pair{2.0, 8.0}, std::pair{8.0, 2.0}, std::pair{5.0, 6.5}}) {  // off it
    CHECK_FALSE(reddish(ch.canvas.at(static_cast<int>(ch.px_x(x)), static_cast<int>(ch.px_y(y)))));
  }
  CHECK(ch.plot_x0 > 0);
  CHECK(ch.plot_x1 < 400);
  CHECK(ch.px_y(10) < ch.px_y(0));  // up is larger
  // In screen terms: from the plot's bottom-left corner to its top-right one (no legend there).
  const int pw = ch.plot_x1 - ch.plot_x0, ph = ch.plot_y1 - ch.plot_y0;
  CHECK(reddish(ch.canvas.at(ch.plot_x0 + pw / 10, ch.plot_y1 - ph / 10)));
  CHECK(reddish(ch.canvas.at(ch.plot_x1 - pw / 10, ch.plot_y0 + ph / 10)));
  CHECK_FALSE(reddish(ch.canvas.at(ch.plot_x0 + 4, ch.plot_y0 + 40)));
}

TEST_CASE("render_line_chart: no finite point or an absurd size is an error") {
  ChartSpec spec;
  CHECK_FALSE(render_line_chart(spec).ok());
  spec.series.push_back({"", {0, 1}, {1, 2}, Rgb{}, 2.0f, 0.0f, false});
  spec.width = 10;
  CHECK_FALSE(render_line_chart(spec).ok());
}

TEST_CASE("plot-loss: a log becomes a PNG with both curves; bad input fails with one line") {
  const std::filesystem::path dir = temp_dir();
  const std::string log = (dir / "run.log").string(), png = (dir / "run.png").string();
  {
    std::ofstream f(log);
    f << "tokens: 9 train; unigram baseline loss 6.0000\n"
         "training 100 steps x 8 x 32 tokens on 1 threads\n";
    for (int s = 10; s <= 100; s += 10) {
      f << "step " << s << "/100 | loss " << 6.0 - s * 0.03 << " | val "
        << (s < 30 ? std::string("-") : std::to_string(5.0 - (s / 30) * 0.2))
        << " | lr 1e-3 | gnorm 1 | 9 tok/s | ETA 1m\n";
    }
  }
  std::filesystem::remove(png);
  REQUIRE(run_cli({"plot-loss", "--log", log, "--out", png, "--width", "640", "--height", "360"}) ==
          0);
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
  REQUIRE(px != nullptr);
  CHECK(w == 640);
  CHECK(h == 360);
  int blue = 0, orange = 0, lightish = 0;
  for (int i = 0; i < w * h; ++i) {
    const Rgb c{px[i * 3], px[i * 3 + 1], px[i * 3 + 2]};
    blue += c.b > 150 && c.r < 80;
    orange += c.r > 190 && c.g > 70 && c.g < 130 && c.b < 80;
    lightish += light(c);
  }
  stbi_image_free(px);
  CHECK(blue > 200);
  CHECK(orange > 100);
  CHECK(lightish > w * h * 8 / 10);  // a light background

  std::string err;
  CHECK(run_cli({"plot-loss", "--log", (dir / "missing.log").string(), "--out", png}, &err) == 1);
  CHECK(err.find("cannot read") != std::string::npos);
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  {
    std::ofstream f(dir / "empty.log");
    f << "building corpus\n";
  }
  CHECK(run_cli({"plot-loss", "--log", (dir / "empty.log").string(), "--out", png}, &err) == 1);
  CHECK(err.find("no `step") != std::string::npos);
  CHECK(run_cli({"plot-loss", "--log", log, "--out", (dir / "no-such-dir" / "x.png").string()},
                &err) == 1);
  CHECK(err.find("cannot create a temporary file") != std::string::npos);  // written atomically
  CHECK(run_cli({"plot-loss", "--log", log}, &err) == 2);  // --out is required
  CHECK(run_cli({"plot-loss", "--help"}, &err) == 0);

  const char* old = std::getenv("TOKENSCOPE_FONT_DIR");
  const std::string saved = old ? old : "";
  setenv("TOKENSCOPE_FONT_DIR", (dir / "no-fonts").c_str(), 1);
  CHECK(run_cli({"plot-loss", "--log", log, "--out", png}, &err) == 1);
  CHECK(err.find("font not found") != std::string::npos);
  if (old) {
    setenv("TOKENSCOPE_FONT_DIR", saved.c_str(), 1);
  } else {
    unsetenv("TOKENSCOPE_FONT_DIR");
  }
}
