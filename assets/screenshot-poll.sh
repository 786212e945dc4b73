#!/usr/bin/env bash
# Makes assets/screenshot-poll.png: the app under Xvfb with the class poll on 127.0.0.1:18573
# (code 4711), and 24 simulated students posting their guesses with curl on 127.0.0.1 only,
# each retrying until the question is open. Run from the repository root after a build:
#   bash assets/screenshot-poll.sh [build/tokenscope]
set -euo pipefail
app=${1:-build/tokenscope}
port=18573
names=(Ana Ben Chloé Dev Eli Finn Gus Hana Ivo Jun Kai Lea Max Nia Omar Pia Quinn Rae Sam Tao Uma
       Vic Wen Zoe)
guesses=(Lily Lily Lily Lily Lily Mia Mia Mia Sue Sue Lucy Lucy Lucy Lucy Tim " Anna" Anna Anna
         "<b>Bob</b>" "%s%n" Lily Mia Sara Lily)
students() {
  for i in "${!names[@]}"; do
    for _ in $(seq 1 100); do
      code=$(curl -s -o /dev/null -w "%{http_code}" --max-time 3 --data-urlencode code=4711 \
        --data-urlencode "name=${names[$i]}" --data-urlencode "guess=${guesses[$i]}" \
        "http://127.0.0.1:$port/guess" || true)
      [ "$code" = 200 ] && break
      sleep 0.3
    done
  done
}
students &
xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --no-settings --poll 127.0.0.1:$port \
  --poll-code 4711 --script assets/screenshot-poll.script --size 1280x720 --theme projector \
  --font-size 28
wait
