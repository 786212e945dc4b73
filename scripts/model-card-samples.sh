#!/usr/bin/env bash
# Prints the measured parts of a model card (models/*.md): the `tokenscope eval` report over a
# prompt file (uncertainty, loops, dictionary words, bits per byte on held-out text) and the
# Samples section (greedy and sampled continuations of a few prompts, in the form
# tests/models/test_models.cpp checks token for token).
#   usage: scripts/model-card-samples.sh MODEL EVAL_PROMPTS N_TOKENS [VAL_TEXT] -- PROMPT...
set -euo pipefail
cd "$(dirname "$0")/.."
model="$1" prompts="$2" n="$3"
shift 3
val=()
if [ "${1:-}" != "--" ]; then val=(--val-text "$1"); shift; fi
[ "${1:-}" = "--" ] && shift
ts=./build/tokenscope
echo '```text'
"$ts" eval --model "$model" --prompts "$prompts" "${val[@]}" | sed -n '/^ *steps/,/most frequent/p;/bits\/byte/p'
echo '```'
echo
echo "## Samples"
echo
for p in "$@"; do
  echo "**Prompt:** \`$p\`"
  echo
  echo 'Greedy (`--temperature 0`):'
  echo
  echo '```text'
  "$ts" generate --model "$model" --prompt "$p" --temperature 0 --max-tokens "$n" 2>/dev/null
  echo '```'
  echo
  echo 'Sampled (`--temperature 1 --seed 1`):'
  echo
  echo '```text'
  "$ts" generate --model "$model" --prompt "$p" --temperature 1 --seed 1 --max-tokens "$n" 2>/dev/null
  echo '```'
  echo
done
