#!/usr/bin/env bash
# Screenshots for looking at the classroom layout by eye: a lesson page (default: lesson 8,
# page 4, whose narration talks about the KV cache) at 1024x768, 1280x720, 1600x900 and
# 1920x1080 in the light, dark and projector themes, under Xvfb. Prints each picture's focus
# panel and whatever its JSON report lists as clipped. Not part of ctest (nothing is asserted).
# Usage: presentation_shots.sh TOKENSCOPE OUTPUT_DIR [LESSON [NEXTS]]
set -euo pipefail
exe=${1:?usage: presentation_shots.sh TOKENSCOPE OUTPUT_DIR [LESSON [NEXTS]]}
out=${2:?usage: presentation_shots.sh TOKENSCOPE OUTPUT_DIR [LESSON [NEXTS]]}
here=$(cd "$(dirname "$0")" && pwd)
lesson=${3:-$here/../../lessons/08_kv_cache.md}
nexts=${4:-3}
mkdir -p "$out"
script="$out/script.txt"
: >"$script"
for ((i = 0; i < nexts; ++i)); do echo next >>"$script"; done
for size in 1024x768 1280x720 1600x900 1920x1080; do
  for theme in light dark projector; do
    png="$out/$size-$theme.png"
    timeout 120 xvfb-run -a -s "-screen 0 1920x1080x24" "$exe" --no-settings --lesson "$lesson" \
      --script "$script" --size "$size" --theme "$theme" --screenshot "$png" >/dev/null 2>&1 ||
      { echo "$size $theme: the app failed"; continue; }
    python3 - "$png.json" "$size" "$theme" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
clipped = "; ".join(f"{c['panel']}: {c['text'][:40]}" for c in rep["clipped"]) or "nothing"
print(f"{sys.argv[2]:>9} {sys.argv[3]:<9} {rep['font_size']:.0f} px  focus {rep['focus']}  clipped: {clipped}")
PY
  done
done
