// Parsing of the app's command line (see app_options.h).
#include "app/app_options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace ts {

const char* app_usage() {
  return "usage: tokenscope [options]            open the app\n"
         "app options:\n"
         "  --model FILE          a .gguf model, or a llama2.c checkpoint (with --tokenizer);\n"
         "                        without it, the last model or models/tales-4m.gguf\n"
         "  --tokenizer FILE      the tokenizer.bin of a llama2.c checkpoint\n"
         "  --prompt TEXT         the prompt to start with\n"
         "  --lesson FILE         open a lesson (lessons/*.md) at its first page\n"
         "  --theme NAME          light, dark or projector (projector: 28 px text, like the\n"
         "                        Theme menu's preset, unless --font-size says otherwise)\n"
         "  --font-size N         text size in pixels, 10 to 64\n"
         "  --size WxH            window size, e.g. 1280x720\n"
         "  --fullscreen          fill the whole screen (a projector); F11 toggles it\n"
         "  --script FILE         run one command a line: step [N], back [N], seek N, into,\n"
         "                        force PIECE, prompt TEXT, sampler SPEC, ablate SET [from|at],\n"
         "                        view raw|final|STAGE|receipt|intervention|map, sample [N],\n"
         "                        select N, rival PIECE|#ID, font N, theme NAME, focus PANEL|none,\n"
         "                        lesson FILE, next, back-page, screenshot FILE, measure,\n"
         "                        open-trace FILE, poll-open, poll-close,\n"
         "                        poll-wait N [SECONDS], quit\n"
         "  --screenshot FILE     write the window as PNG (after the script) and quit; FILE.json\n"
         "                        lists the panels, the focus and any clipped text\n"
         "  --settings FILE       read and write settings there (default\n"
         "                        ~/.config/tokenscope/settings.json)\n"
         "  --no-settings         neither read nor write the settings file\n"
         "  --poll ADDR:PORT      start the class poll: students open http://ADDR:PORT on\n"
         "                        their phones (0.0.0.0:8080 = every address of this machine;\n"
         "                        port 0 = any free port); off unless given or started from\n"
         "                        the Poll menu (desktop only)\n"
         "  --poll-code NNNN      the poll's 4-digit class code (default: a random one)\n"
         "  --app-help            this text\n"
         "keys: Space play/pause, Right step, Shift+Right step into, Left back, Home/End,\n"
         "  1-9 and 0 put a panel in focus (again or Escape: every panel), PageDown/PageUp\n"
         "  lesson pages, R reveal, Ctrl +/- text size, F11 full screen, Ctrl+Q quit.\n";
}

Result<AppOptions> parse_app_options(int argc, char** argv) {
  AppOptions o;
  if (argc > 0 && argv[0]) o.exe_path = argv[0];
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&](const char* name) -> Result<std::string> {
      if (i + 1 >= argc) return Error{std::string(name) + " needs a value"};
      return std::string(argv[++i]);
    };
    if (a == "--model" || a == "--tokenizer" || a == "--prompt" || a == "--script" ||
        a == "--screenshot" || a == "--theme" || a == "--settings" || a == "--lesson" ||
        a == "--poll" || a == "--poll-code") {
      Result<std::string> v = value(argv[i]);
      if (!v.ok()) return v.error();
      if (a == "--model") o.model = v.value();
      if (a == "--tokenizer") o.tokenizer = v.value();
      if (a == "--prompt") {
        o.prompt = v.value();
        o.has_prompt = true;
      }
      if (a == "--script") o.script = v.value();
      if (a == "--lesson") o.lesson = v.value();
      if (a == "--screenshot") o.screenshot = v.value();
      if (a == "--settings") o.settings_path = v.value();
      if (a == "--poll") o.poll_address = v.value();
      if (a == "--poll-code") {
        o.poll_code = v.value();
        const bool digits = o.poll_code.size() == 4 &&
                            o.poll_code.find_first_not_of("0123456789") == std::string::npos;
        if (!digits) return Error{"--poll-code must be four digits, not '" + o.poll_code + "'"};
      }
      if (a == "--theme") {
        o.theme = v.value();
        if (o.theme != "light" && o.theme != "dark" && o.theme != "projector")
          return Error{"--theme must be light, dark or projector, not '" + o.theme + "'"};
      }
    } else if (a == "--size") {
      Result<std::string> v = value("--size");
      if (!v.ok()) return v.error();
      int w = 0, h = 0;
      char x = 0;
      if (std::sscanf(v.value().c_str(), "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X') ||
          w < 320 || h < 240 || w > 16384 || h > 16384)
        return Error{"--size must be WIDTHxHEIGHT (at least 320x240), not '" + v.value() + "'"};
      o.width = w;
      o.height = h;
    } else if (a == "--font-size") {
      Result<std::string> v = value("--font-size");
      if (!v.ok()) return v.error();
      char* end = nullptr;
      const float f = std::strtof(v.value().c_str(), &end);
      if (!end || *end != 0 || !(f >= 10 && f <= 64))
        return Error{"--font-size must be a number from 10 to 64, not '" + v.value() + "'"};
      o.font_size = f;
    } else if (a == "--no-settings") {
      o.use_settings = false;
    } else if (a == "--fullscreen") {
      o.fullscreen = true;
    } else if (a == "-h" || a == "--app-help") {
      o.help = true;
    } else {
      return Error{"unknown option '" + std::string(a) + "' (tokenscope --app-help lists them)"};
    }
  }
  return o;
}

}  // namespace ts
