#!/usr/bin/env bash
# Real-window smoke test: runs the tokenscope app under Xvfb (1600x900) with a --script that
# steps, forces a token, steps into an iteration and takes screenshots, then checks the PNGs
# against the JSON report the app writes beside each one: the window size, and pixels inside the
# token chips, the chosen probability bar, the drawn segment of the cumulative strip and the
# timeline cursor must have the theme's colours. Also: the projector theme at a large font, and a
# missing model shown as a message instead of a crash, and a lesson walked from first to last page
# in the presentation layout (focus panel large, nothing clipped there or in the lesson). Runs on
# the shipped model (models/tales-4m.gguf): its absence is a failure, never a skip.
# Usage: smoke.sh /path/to/tokenscope OUTPUT_DIR
set -euo pipefail
exe=${1:?usage: smoke.sh TOKENSCOPE OUTPUT_DIR}
out=${2:?usage: smoke.sh TOKENSCOPE OUTPUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../../models/tales-4m.gguf
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json "$out"/*.txt

[[ -f $model ]] || { echo "FAIL: the shipped model is missing: $model"; exit 1; }
command -v xvfb-run >/dev/null || { echo "FAIL: xvfb-run not installed"; exit 1; }

run() {  # run NAME ARGS...: the app under a fresh X server, settings isolated in $out
  local name=$1; shift
  XDG_CONFIG_HOME="$out/config-$name" timeout 120 \
    xvfb-run -a -s "-screen 0 1600x900x24" "$exe" --size 1600x900 "$@" \
    >"$out/$name.stdout.txt" 2>"$out/$name.stderr.txt" || {
      echo "FAIL: $name exited with $?"; cat "$out/$name.stderr.txt"; exit 1; }
}

cat >"$out/main.script.txt" <<SCRIPT
# step through the prefill and two decodes, force a token, step into the next iteration
step 3
screenshot $out/01-steps.png
force " the"
step 2
screenshot $out/02-forced.png
into
into
into
into
into
into
into
into
into
into
into
screenshot $out/03-into.png
quit
SCRIPT
run main --model "$model" --prompt "A dream of a red bird" --font-size 18 \
  --script "$out/main.script.txt"
cat >"$out/knobs.script.txt" <<SCRIPT
# the sampler's knobs: top-k cuts the tail, the histogram of 1,000 draws, a larger font
sampler temp=0.8 top-k=5
step 3
view top-k
sample 1000
screenshot $out/06-top-k.png
font 28
view final
screenshot $out/07-font-28.png
quit
SCRIPT
run knobs --model "$model" --prompt "A dream of a red bird" --font-size 18 \
  --script "$out/knobs.script.txt"
printf 'step 4\n' >"$out/projector.script.txt"
run projector --model "$model" --prompt "A dream" --theme projector --font-size 28 \
  --script "$out/projector.script.txt" \
  --screenshot "$out/04-projector.png"
# a lesson walked from its first page to its last (the app finds models/ in the source tree)
lesson=$here/../../lessons/01_tokens.md
pages=$(grep -c '^## ' "$lesson")
asks=$(grep -c '^```ask' "$lesson" || true)  # on a page with a question, Next first reveals
{
  echo "screenshot $out/08-lesson-first.png"
  for ((i = 1; i < pages + asks; ++i)); do echo next; done
  echo "screenshot $out/09-lesson-last.png"
  echo quit
} >"$out/lesson.script.txt"
run lesson --lesson "$lesson" --font-size 18 --script "$out/lesson.script.txt"
run nomodel --model /nonexistent/model.gguf --prompt "typed text survives" \
  --screenshot "$out/05-no-model.png"

python3 - "$out" "$lesson" "$here" <<'PY'
import json, struct, sys, zlib, os
sys.path.insert(0, sys.argv[3])

out, lesson_file = sys.argv[1], sys.argv[2]
failures = []

def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)

from png_check import read_png, pixel, close, items, run_checks  # tests/window/png_check.py


def check_shot(name, checks):
    png = os.path.join(out, name)
    if not os.path.exists(png) or not os.path.exists(png + ".json"):
        fail(f"{name}: screenshot or its report is missing"); return None, None
    rep = json.load(open(png + ".json"))
    img = read_png(png)
    run_checks(name, img, rep, (1600, 900), checks, fail)
    return rep, img

def chips_have_colour(kind, key, minimum):
    def check(name, rep, img, pal):
        found = items(rep, kind)
        if len(found) < minimum:
            fail(f"{name}: {len(found)} {kind} drawn, expected at least {minimum}"); return
        for it in found:
            x, y, w, h = it["rect"]
            got = pixel(img, x + w / 2, y + h - 3)
            if not close(got, pal[key]):
                fail(f"{name}: {kind} '{it['label']}' at {x:.0f},{y:.0f} has colour {got}, "
                     f"expected {pal[key]}")
    return check

def chosen_bar_is_accent(name, rep, img, pal):
    bars = items(rep, "bar:chosen")
    if not bars: fail(f"{name}: no chosen bar drawn"); return
    x, y, w, h = bars[0]["rect"]
    if not close(pixel(img, x + min(w / 2, 3), y + h / 2), pal["accent"]):
        fail(f"{name}: chosen bar is not the accent colour")
    if rep["session"].get("chosen") != bars[0]["label"] and not rep["session"].get("forced"):
        fail(f"{name}: chosen bar '{bars[0]['label']}' is not the chosen token "
             f"'{rep['session'].get('chosen')}'")

def strip_and_needle(name, rep, img, pal):
    seg = items(rep, "strip_chosen")
    if not seg: fail(f"{name}: the cumulative strip has no chosen segment"); return
    x, y, w, h = seg[0]["rect"]
    if not close(pixel(img, x + min(1, w / 2), y + 2), pal["accent"]):
        fail(f"{name}: the chosen strip segment is not the accent colour")
    needle = items(rep, "u_needle")
    if needle:
        nx = needle[0]["rect"][0] + 1
        if not (x - 2 <= nx <= x + w + 2):
            fail(f"{name}: u needle at {nx:.0f} is outside the chosen segment [{x:.0f}, {x + w:.0f}]")

def scrubber_cursor(step_kind):
    def check(name, rep, img, pal):
        cur = items(rep, "scrub_cursor")
        if not cur: fail(f"{name}: the timeline has no cursor cell"); return
        x, y, w, h = cur[0]["rect"]
        got = pixel(img, x + w / 2, y + h / 2)
        if not close(got, pal[step_kind], 12):
            fail(f"{name}: cursor cell colour {got}, expected {step_kind} {pal[step_kind]}")
    return check

def session_is(**want):
    def check(name, rep, img, pal):
        for k, v in want.items():
            if rep["session"].get(k) != v:
                fail(f"{name}: session {k} = {rep['session'].get(k)!r}, expected {v!r}")
    return check

def has_item(kind):
    def check(name, rep, img, pal):
        if not items(rep, kind): fail(f"{name}: nothing of kind {kind} drawn")
    return check

check_shot("01-steps.png", [chips_have_colour("prompt_chip", "prompt_chip", 3),
                            chosen_bar_is_accent, strip_and_needle, scrubber_cursor("decode"),
                            session_is(cursor=2, forced=False), has_item("button")])
rep, _ = check_shot("02-forced.png", [chips_have_colour("prompt_chip", "prompt_chip", 3),
                                      chips_have_colour("forced_chip", "forced_chip", 1),
                                      session_is(cursor=4), scrubber_cursor("decode")])
if rep and "␣the" not in rep["session"].get("tokens", []):
    fail(f"02-forced.png: the forced token ␣the is not in the sequence {rep['session'].get('tokens')}")
check_shot("03-into.png", [has_item("phase_current"), session_is(cursor=5)])
check_shot("04-projector.png", [chips_have_colour("prompt_chip", "prompt_chip", 2),
                                chosen_bar_is_accent, session_is(cursor=3)])
rep, _ = check_shot("05-no-model.png", [session_is(has_model=False)])
if rep and "load model" not in rep.get("message", ""):
    fail(f"05-no-model.png: no load error shown (message: {rep.get('message')!r})")

def cut_bars_greyed(name, rep, img, pal):
    cut = items(rep, "bar:cut")
    if not cut: fail(f"{name}: no cut (greyed) bars under top-k"); return
    for it in cut:
        x, y, w, h = it["rect"]
        if not close(pixel(img, x + min(w / 2, 2), y + h / 2), pal["bar_cut"]):
            fail(f"{name}: cut bar '{it['label']}' is not greyed")
    kept = items(rep, "bar:kept") + items(rep, "bar:chosen")
    if not kept or len(kept) > 5:
        fail(f"{name}: {len(kept)} kept bars after top-k=5")
    if max(k["rect"][1] for k in kept) > min(c["rect"][1] for c in cut):
        fail(f"{name}: a cut bar is drawn above a kept one (the cut line must separate them)")

def histogram_drawn(name, rep, img, pal):
    hist = items(rep, "hist_bar")
    if len(hist) < 2: fail(f"{name}: no histogram bars after 'sample 1000'")

rep6, _ = check_shot("06-top-k.png", [cut_bars_greyed, histogram_drawn,
                                      chips_have_colour("prompt_chip", "prompt_chip", 3)])
rep7, _ = check_shot("07-font-28.png", [chips_have_colour("prompt_chip", "prompt_chip", 3),
                                        chosen_bar_is_accent])
if rep6 and rep7:
    h6 = items(rep6, "prompt_chip")[0]["rect"][3]
    h7 = items(rep7, "prompt_chip")[0]["rect"][3]
    if rep7["font_size"] != 28 or not h7 > h6 * 1.3:
        fail(f"07-font-28.png: the font did not grow (chip height {h6:.0f} -> {h7:.0f})")

# The lesson walk: first and last page, titles as written in the file, every check of the last
# page passing in the app, and the lesson panel showing different pages in the two pictures.
headings = [l[3:].strip() for l in open(lesson_file, encoding="utf-8") if l.startswith("## ")]
def lesson_page(index):
    def check(name, rep, img, pal):
        les = rep.get("lesson")
        if not les: fail(f"{name}: no lesson open"); return
        if les["page_count"] != len(headings):
            fail(f"{name}: {les['page_count']} pages, the file has {len(headings)}")
        want = index % len(headings)
        if les["page"] != want or les["page_title"] != headings[want]:
            fail(f"{name}: page {les['page']} '{les['page_title']}', expected {want} "
                 f"'{headings[want]}'")
        if les["checks_passed"] != les["checks"]:
            fail(f"{name}: {les['checks_passed']} of {les['checks']} page checks pass in the app")
        if "Lesson" not in rep["panels"]: fail(f"{name}: the lesson panel is not shown")
    return check
# Presenting: the page's focus panel covers >= 35% of the window, its title bar in the accent
# colour, nothing clipped in the lesson panel, nothing cut or broken in the focus panel.
def presenting(name, rep, img, pal):
    focus = rep.get("focus")
    if not focus or focus not in rep["panels"]: fail(f"{name}: no panel in focus"); return
    x, y, w, h = rep["panels"][focus]["rect"]
    W, H = rep["window"]
    if w * h < 0.35 * W * H: fail(f"{name}: the focus panel {focus} covers {w * h / (W * H):.2f}")
    if not close(pixel(img, x + 5, y + 10), pal["accent"], 24):
        fail(f"{name}: the focus panel's title bar is not the accent colour")
    for c in rep.get("clipped", []):
        if c["panel"] == "Lesson" or (c["panel"] == focus and c["how"] != "shortened"):
            fail(f"{name}: {c['how']} in {c['panel']}: {c['text']!r}")
r8, i8 = check_shot("08-lesson-first.png", [lesson_page(0), has_item("button"), presenting])
r9, i9 = check_shot("09-lesson-last.png", [lesson_page(-1), presenting,
                                          chips_have_colour("prompt_chip", "prompt_chip", 1)])
if r8 and r9 and "Lesson" in r8["panels"]:
    x, y, w, h = r8["panels"]["Lesson"]["rect"]
    diff = sum(pixel(i8, xx, yy) != pixel(i9, xx, yy)
               for xx in range(int(x) + 4, int(x + w) - 4, 7) for yy in range(int(y) + 30, int(y + h) - 4, 5))
    if diff < 50: fail(f"lesson: the lesson panel looks the same on the first and last page ({diff})")

if failures:
    print(f"{len(failures)} check(s) failed"); sys.exit(1)
print("window smoke: all checks passed")
PY
