#!/usr/bin/env bash
# The web page in a real browser: Debian's Chromium, headless, opens build-web/tokenscope.html
# from file:// (no server; any network request fails the test) with a script in the URL (the
# --script verbs), and reads what the page reports on its console (tools/web-test/page.mjs).
# Checked: the file's size (<= 27 MB); the page steps, forces a token and takes screenshots
# whose PNGs agree with the drawn-items JSON (chips, the chosen bar, the strip, the timeline
# cursor have the theme's colours where the JSON says they are); the browser's own screenshot
# of the page agrees with the last JSON too; a tap on the touch screen steps, so does the Right arrow key; settings chosen in
# one visit are there at the next; a model chosen in the browser's file picker loads; a lesson opens in the projector theme at 28 px and
# walks to its last page with its checks passing; every lesson's checks pass in the page; the
# tokens the page generates are the desktop app's (same model, same seed). Reported, not
# asserted (timings): the first frame's time and the page's steps per second.
# Usage: smoke.sh PAGE.html OUTPUT_DIR [DESKTOP_TOKENSCOPE]
set -euo pipefail
page=${1:?usage: smoke.sh PAGE.html OUTPUT_DIR [DESKTOP_TOKENSCOPE]}
out=${2:?usage: smoke.sh PAGE.html OUTPUT_DIR [DESKTOP_TOKENSCOPE]}
desktop=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json "$out"/*.txt

[[ -f $page ]] || { echo "FAIL: no page at $page (make web)"; exit 1; }
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (scripts/web-setup.sh)"; exit 1; }
command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ] ||
  { echo "FAIL: node >= 20 is needed to drive the browser"; exit 1; }
if [[ ! -d $root/tools/web-test/node_modules/playwright-core ]]; then
  echo "web smoke: installing playwright-core from npm into tools/web-test/ (no browser download)"
  (cd "$root/tools/web-test" && npm ci --no-audit --no-fund --silent)
fi

urlenc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
drive() {  # drive NAME QUERY SIZE WAIT_TAG: the page once; its report in $out/NAME.result.json
  node "$root/tools/web-test/page.mjs" "$page" "$out" "$1" "$2" "$3" "$4" 180 \
    >"$out/$1.driver.txt" 2>&1 || { echo "FAIL: $1:"; cat "$out/$1.driver.txt"; tail -20 "$out/$1.console.txt" 2>/dev/null; exit 1; }
}

main_script=$'step 3\nscreenshot /01-steps.png\nforce " the"\nstep 2\nscreenshot /02-forced.png\nquit'
drive main "no-settings&prompt=$(urlenc 'Once upon a time')&script=$(urlenc "$main_script")" 1600x900 TS_QUIT
lesson=$root/lessons/01_tokens.md
pages=$(grep -c '^## ' "$lesson")
asks=$(grep -c '^```ask' "$lesson" || true)  # on a page with a question, Next first reveals
lesson_script="screenshot /lesson-first.png"
for ((i = 1; i < pages + asks; ++i)); do lesson_script+=$'\nnext'; done
lesson_script+=$'\nscreenshot /lesson-last.png\nquit'
drive lesson "no-settings&lesson=01_tokens.md&theme=projector&font-size=28&script=$(urlenc "$lesson_script")" \
  1280x720 TS_QUIT
# A tablet: tap the Step button (a touch, not a click) and the page takes one more step; then
# the Right arrow key, one more.
TAP=button:step KEY=ArrowRight drive touch "no-settings&script=$(urlenc $'step 2\nscreenshot /touch.png')" 1280x720 TS_SHOT
# Open model: the browser's file picker (the page starts on a missing model, so the picker's
# button is on screen); english-4m chosen from disk is read into the page and loaded.
CLICK="button:choose model file" FILE="$root/models/english-4m.gguf" \
  drive picker "no-settings&model=/missing.gguf&script=$(urlenc 'screenshot /no-model.png')" 1280x720 TS_SHOT
# Settings survive a visit: the dark theme and a 24 px font chosen in one visit are there at
# the next (local storage).
AGAIN="script=$(urlenc 'screenshot /next-visit.png')" \
  drive settings "script=$(urlenc $'theme dark\nfont 24\nscreenshot /first-visit.png')" 1280x720 TS_SHOT
drive lessons "no-settings&check-lessons=1" 1280x720 TS_LESSONS
drive bench "no-settings&bench=1" 1280x720 TS_BENCH

# The desktop app's tokens for the same prompt and script (agreement: web vs desktop).
if [[ -n $desktop && -x $desktop ]]; then
  printf 'step 3\nforce " the"\nstep 2\n' >"$out/desktop.script.txt"
  XDG_CONFIG_HOME="$out/config-desktop" timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" \
    "$desktop" --no-settings --size 1600x900 --prompt 'Once upon a time' \
    --script "$out/desktop.script.txt" --screenshot "$out/desktop.png" >/dev/null 2>&1 ||
    { echo "FAIL: the desktop app did not run the agreement script"; exit 1; }
fi

python3 "$here/check_page.py" "$out" "$lesson" "$page" "$root/tests/window"
