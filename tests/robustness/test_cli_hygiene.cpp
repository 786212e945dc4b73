// Hygiene of what reaches the terminal and the exit codes: text from a file is escaped (no raw
// escape sequence), --seed takes an unsigned range and says so, a bad_alloc anywhere in a
// command is one line and exit 1, and a missing or malformed --script makes the app exit 1.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "cli/cli_common.h"
#include "cli_run.h"
#include "formats/gguf_model.h"
#include "fuzz/seed_models.h"
#include "raw_gguf.h"
#ifdef TS_HAVE_APP
#include "app/app.h"
#endif

namespace ts {

TEST_CASE("terminal output: control characters and C1 controls from files are escaped") {
  CHECK(cli::terminal_safe("a\x1B[31mb\n\tc\x7F") == "a\\x1B[31mb\n\tc\\x7F");
  CHECK(cli::terminal_safe("x\xC2\x9B" "2J \xC3\xA9") == "x\\u009B2J \xC3\xA9");
  // general.name with an escape sequence: info shows it escaped.
  GgufWriter w;
  REQUIRE(model_to_gguf(fuzz::small_model("llama", 40), fuzz::small_spm(40, false, "\xE2\x96\x81"),
                        {}, GgmlType::F32, w)
              .ok());
  w.set("general.name", GgufValue::str("evil\x1B]0;owned\x07\x1B[2J"));
  const std::string p = test::write_scratch("escape.gguf", w.to_bytes().value());
  const test::CliRun r = test::cli({"info", "--model", p});
  CHECK(r.code == 0);
  CHECK(r.out.find('\x1B') == std::string::npos);
  CHECK(r.out.find("evil\\x1B]0;owned") != std::string::npos);
}

TEST_CASE("--seed is an unsigned range: -1 is refused by name, the largest seed accepted") {
  const test::CliRun neg = test::cli({"generate", "--seed", "-1", "--max-tokens", "1"});
  CHECK(neg.code == 2);
  CHECK(neg.err.find("--seed: must be an unsigned integer in 0..18446744073709551615, got '-1'") !=
        std::string::npos);
  CHECK(test::cli({"generate", "--seed", "1e3"}).code == 2);
  CHECK(test::cli({"generate", "--seed", "18446744073709551616"}).code == 2);
  const std::string help = test::cli({"generate", "--help"}).out;
  CHECK(help.find("0..18446744073709551615") != std::string::npos);
}

#ifdef TS_HAVE_APP
TEST_CASE("app: a missing or malformed --script exits 1 with the reason") {
  const std::string bad = test::write_scratch_text("bad.script", "step\nfrobnicate 3\n");
  for (const std::string& script : {std::string("/nonexistent/x.script"), bad,
                                    std::string("/dev/zero")}) {
    INFO("script " << script);
    AppOptions o;
    o.use_settings = false;
    o.synchronous = true;
    o.script = script;
    o.model = test::write_scratch(
        "app-script.gguf",
        fuzz::gguf_bytes(fuzz::small_model("llama", 40), fuzz::small_spm(40, false, "\xE2\x96\x81")));
    App app(o);
    app.start();
    CHECK(app.exit_code() == 1);
    CHECK(app.wants_quit());
    REQUIRE_FALSE(app.errors().empty());
  }
}

TEST_CASE("app: a damaged settings file is reported on screen and the prompt is kept") {
  const std::filesystem::path dir = test::scratch_dir() / "app-settings";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "settings.json").string();
  { std::ofstream(path) << "{\"session\": {\"prompt\": \"my saved prompt\", \"max_tokens\": "; }
  AppOptions o;
  o.use_settings = true;
  o.settings_path = path;
  o.synchronous = true;
  o.model = test::write_scratch(
      "app-settings.gguf",
      fuzz::gguf_bytes(fuzz::small_model("llama", 40), fuzz::small_spm(40, false, "\xE2\x96\x81")));
  {
    App app(o);
    app.start();
    CHECK(app.ui().prompt.prompt_edit == "my saved prompt");
    CHECK(app.ui().status.message.find("moved to " + path + ".bad-") != std::string::npos);
  }  // the app saves on exit: a fresh file with the prompt; the damaged one stays aside
  std::ifstream f(path);
  const std::string text((std::istreambuf_iterator<char>(f)), {});
  CHECK(text.find("my saved prompt") != std::string::npos);
  std::filesystem::remove_all(dir);
}
#endif

}  // namespace ts
