"""Checks what tests/web/smoke.sh collected from the web page (see there): the page's size, the
screenshots against their drawn-items JSON, the browser's own screenshot against the last JSON,
the lesson walk, every lesson's checks, web vs desktop tokens; prints the timings.
  usage: check_page.py OUT_DIR LESSON_FILE PAGE_HTML WINDOW_TEST_DIR"""
import json
import os
import sys

out, lesson_file, page_file, window_dir = sys.argv[1:5]
sys.path.insert(0, window_dir)
from png_check import read_png, pixel, close, items, run_checks  # noqa: E402  tests/window/png_check.py

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def result(name):
    return json.load(open(os.path.join(out, name + ".result.json")))


size_mb = os.path.getsize(page_file) / 1e6
# 25 MB until the draft model (1.4 MB, lesson 15) joined the page, 27 MB until the chat model
# (7.9 MB, 9.7 MB in the page: gzip barely shrinks F16 weights; lesson 16)
if size_mb > 37:
    fail(f"the page is {size_mb:.1f} MB, over 37 MB")


def check_png(label, png, rep, size, checks):
    run_checks(label, read_png(png), rep, size, checks, fail)


def shot(res, name):
    png = os.path.join(out, res["name"] + "-" + name)
    if png not in res["shots"] or not os.path.exists(png + ".json"):
        fail(f"{res['name']}: the page reported no screenshot {name}")
        return None, None
    return png, json.load(open(png + ".json"))


def chips(kind, key, minimum):
    def check(label, rep, img, pal):
        found = items(rep, kind)
        if len(found) < minimum:
            fail(f"{label}: {len(found)} {kind} drawn, expected at least {minimum}")
        for it in found:
            x, y, w, h = it["rect"]
            got = pixel(img, x + w / 2, y + h - 3)
            if not close(got, pal[key]):
                fail(f"{label}: {kind} '{it['label']}' has colour {got}, expected {pal[key]}")
    return check


def coloured(kind, what, key, where, tol=8):
    """The first drawn item of `kind` has palette colour `key` at where(x, y, w, h)."""
    def check(label, rep, img, pal):
        found = items(rep, kind)
        if not found:
            fail(f"{label}: no {what} drawn")
            return
        if not close(pixel(img, *where(*found[0]["rect"])), pal[key], tol):
            fail(f"{label}: the {what} is not the {key} colour")
    return check


chosen_bar = coloured("bar:chosen", "chosen bar", "accent",
                      lambda x, y, w, h: (x + min(w / 2, 3), y + h / 2))
strip = coloured("strip_chosen", "chosen strip segment", "accent",
                 lambda x, y, w, h: (x + min(1, w / 2), y + 2))
cursor = coloured("scrub_cursor", "timeline cursor cell", "decode",
                  lambda x, y, w, h: (x + w / 2, y + h / 2), 12)


def attention_map(label, rep, img, pal):
    grids = items(rep, "attention_grid")
    if not grids:
        fail(f"{label}: no attention map drawn")
        return
    x, y, w, h = grids[0]["rect"]
    seen = {pixel(img, x + w * fx, y + h * fy) for fx in (0.1, 0.3, 0.5, 0.7, 0.9)
            for fy in (0.2, 0.5, 0.8)}
    if len(seen) < 3:
        fail(f"{label}: the attention map is a flat area ({len(seen)} colours)")


main = result("main")
png1, rep1 = shot(main, "01-steps.png")
if rep1:
    check_png("01-steps", png1, rep1, (1600, 900),
              [chips("prompt_chip", "prompt_chip", 3), chosen_bar, strip, cursor, attention_map])
    if rep1["session"].get("cursor") != 2:
        fail(f"01-steps: cursor {rep1['session'].get('cursor')}, expected 2")
png2, rep2 = shot(main, "02-forced.png")
if rep2:
    check_png("02-forced", png2, rep2, (1600, 900),
              [chips("prompt_chip", "prompt_chip", 3), chips("forced_chip", "forced_chip", 1)])
    if "␣the" not in rep2["session"].get("tokens", []):
        fail(f"02-forced: the forced token ␣the is not in {rep2['session'].get('tokens')}")
    # The browser's own screenshot of the page, after the script, shows the same state.
    check_png("page screenshot", main["page_png"], rep2, (1600, 900),
              [chips("prompt_chip", "prompt_chip", 3), chips("forced_chip", "forced_chip", 1)])
if main.get("quit") != 0:
    fail(f"main: the page's script ended with {main.get('quit')}")

# Web vs desktop: the same model, prompt, seed and commands give the same tokens.
desk = os.path.join(out, "desktop.png.json")
if os.path.exists(os.path.join(out, "desktop.script.txt")) and not os.path.exists(desk):
    fail("the desktop app wrote no screenshot report for the agreement run")
if rep2 and os.path.exists(desk):
    dt = json.load(open(desk))["session"].get("tokens")
    if dt != rep2["session"].get("tokens"):
        fail(f"web and desktop tokens differ:\n  web     {rep2['session'].get('tokens')}\n"
             f"  desktop {dt}")
    else:
        print(f"web = desktop: {len(dt)} tokens identical")

touch = result("touch")
_, rep_t = shot(touch, "touch.png")
if rep_t:
    before = rep_t["session"].get("cursor")
    after = (touch.get("state") or {}).get("cursor")
    tapped = (touch.get("state_before_key") or {}).get("cursor")
    if tapped != before + 1:
        fail(f"touch: a tap on Step moved the cursor from {before} to {tapped}, expected {before + 1}")
    if after != before + 2:
        fail(f"keyboard: the Right arrow moved the cursor from {tapped} to {after}, expected {before + 2}")

picker = result("picker")
st = picker.get("state") or {}
if st.get("model") != "/uploads/english-4m.gguf":
    fail(f"file picker: the page's model is {st.get('model')!r} (error {st.get('error')!r}), "
         f"expected the chosen /uploads/english-4m.gguf")

visits = result("settings")
_, first = shot(visits, "first-visit.png")
_, again = shot(visits, "next-visit.png")
if first and again:
    if (again.get("theme"), again.get("font_size")) != ("dark", 24):
        fail(f"settings: the next visit shows {again.get('theme')} at {again.get('font_size')} px, "
             f"expected dark at 24 (kept in local storage)")

les = result("lesson")
headings = [l[3:].strip() for l in open(lesson_file, encoding="utf-8") if l.startswith("## ")]
for name, want in (("lesson-first.png", 0), ("lesson-last.png", len(headings) - 1)):
    png, rep = shot(les, name)
    if not rep:
        continue
    check_png(name, png, rep, (1280, 720), [])
    l = rep.get("lesson") or {}
    if l.get("page") != want or l.get("page_title") != headings[want]:
        fail(f"{name}: page {l.get('page')} '{l.get('page_title')}', expected {want} "
             f"'{headings[want]}'")
    if l.get("checks_passed") != l.get("checks"):
        fail(f"{name}: {l.get('checks_passed')} of {l.get('checks')} page checks pass")
    if rep.get("theme") != "projector" or rep.get("font_size") != 28:
        fail(f"{name}: theme {rep.get('theme')} at {rep.get('font_size')} px, expected projector 28")

lessons = result("lessons")
passed, failed = (int(x) for x in (lessons.get("lessons_summary") or "0 1").split())
n_files = len([f for f in os.listdir(os.path.dirname(lesson_file)) if f[:1].isdigit()])
if failed or passed != n_files:
    fail(f"lessons in the page: {passed} passed, {failed} failed, {n_files} lesson files")

bench = result("bench").get("bench") or {}
if not bench.get("ok"):
    fail(f"the in-page bench did not run: {bench.get('error')}")

print(f"page: {size_mb:.1f} MB; first frame {main.get('first_frame_ms')} ms after opening; "
      f"lessons {passed}/{n_files} pass in the page")
print(f"in-page speed (tales-4m, one thread): {bench.get('steps_per_s', 0):.0f} steps/s "
      f"(the app's default record, full), {bench.get('summary_steps_per_s', 0):.0f} at record summary, "
      f"bare forward {bench.get('forward_per_s', 0):.0f} passes/s")
if failures:
    print(f"web smoke: {len(failures)} problem(s)")
    sys.exit(1)
print("web smoke: ok")
