#!/usr/bin/env bash
# Interop check: GGUF files written by tokenscope, read by other GGUF readers installed from npm
# (@huggingface/gguf; llama.cpp through node-llama-cpp's prebuilt CPU binary). Builds nothing:
#   scripts/interop.sh path/to/tokenscope [MODELS_DIR]
# Installs tools/interop/node_modules with `npm ci` when it is missing or the lock file changed
# (the only network use; scripts/interop_npm.sh). Writes its GGUF files into a temporary folder:
# the shipped models as they are, tales-4m re-written by `convert --type` for each type, a tiny
# model trained here with rows of 256 (so the K-quants are used, not their fallback) and exported
# through a checkpoint, a random tiny model of every model family, and, when ../shared/golden is
# present, llama2.c checkpoints (SentencePiece, GQA).
# Prints PASS / FAIL per check; exits 1 on any failure (tools/interop/README.md).
set -uo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: scripts/interop.sh path/to/tokenscope [MODELS_DIR]" >&2; exit 2; fi
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
models=$(realpath "${2:-$root/models}")
tools=$root/tools/interop
golden=${TS_GOLDEN_DIR:-$root/../shared/golden}
start=$SECONDS

# shellcheck source=scripts/interop_npm.sh
. "$root/scripts/interop_npm.sh"
interop_npm_install "$tools" interop || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-interop.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ts() { "$bin" "$@" >"$tmp/last.log" 2>&1 || { echo "interop: tokenscope $* failed:" >&2; cat "$tmp/last.log" >&2; exit 2; }; }

echo "interop: writing GGUF files into $tmp"
files=()
# As shipped: trained in fp32, written as F16 (`convert --type f16`); the type is read from the
# file, so a model shipped as F32 is checked at the F32 tolerance.
for m in "$models"/*.gguf; do
  if "$bin" info --quick --model "$m" | grep -q "^tensors:.* F16"; then files+=("$m=f16"); else files+=("$m=f32"); fi
done
for t in f32 f16 q8_0 q4_0 q4_k q5_k q6_k; do
  ts convert --model "$models/tales-4m.gguf" -o "$tmp/tales-4m.$t.gguf" --type "$t"
  files+=("$tmp/tales-4m.$t.gguf=$t")
done
# d_model 256, d_ff 512: every matrix row fills whole K-quant blocks. Stopped and resumed, so
# the export goes through a checkpoint as the shipped models' did.
train=(train --dim 256 --ff 512 --layers 2 --heads 4 --vocab 512 --stories 400 --steps 80 --ctx 64
       --batch 8 --warmup 10 --lr 0.003 --eval-every 1000 --eval-windows 2 --log-every 1000
       --threads 2 --name interop-kquant --out "$tmp/kquant.gguf" --checkpoint "$tmp/kquant.ckpt")
ts "${train[@]}" --stop-after 40
ts "${train[@]}" --resume
files+=("$tmp/kquant.gguf=f32")
for t in q4_k q5_k q6_k; do
  ts convert --model "$tmp/kquant.gguf" -o "$tmp/kquant.$t.gguf" --type "$t"
  files+=("$tmp/kquant.$t.gguf=$t")
done
# One small random model per family of the family table (`info --families`: llama, qwen2, gpt2,
# stablelm, ...), biases and norm gains random too, so each block's columns are checked against
# llama.cpp's own graph for that architecture.
for arch in $("$bin" info --families | awk '{print $1}'); do
  ts bench --write-shape "tiny-$arch" --out "$tmp/tiny-$arch.gguf"
  files+=("$tmp/tiny-$arch.gguf=f32")
done
if [ -f "$golden/llama2c/aidreams260K.bin" ]; then
  l2c=$golden/llama2c
  ts convert --model "$l2c/aidreams260K.bin" --tokenizer "$l2c/tok512.bin" -o "$tmp/aidreams260K.gguf"
  ts convert --model "$l2c/aidreams260K.bin" --tokenizer "$l2c/tok512.bin" -o "$tmp/aidreams260K.q4_0.gguf" --type q4_0
  # stories260K has grouped-query attention (8 heads, 4 kv heads); its own tokenizer is not
  # available, so it borrows tok512 (same size): the text is nonsense, the numbers still compare.
  ts convert --model "$l2c/stories260K.bin" --tokenizer "$l2c/tok512.bin" -o "$tmp/stories260K-gqa.gguf"
  files+=("$tmp/aidreams260K.gguf=f32" "$tmp/aidreams260K.q4_0.gguf=q4_0" "$tmp/stories260K-gqa.gguf=f32")
else
  echo "interop: $golden/llama2c absent: the llama2.c (SentencePiece, GQA) files are skipped"
fi

status=0
node "$tools/check_gguf.mjs" "$bin" "${files[@]}" || status=1
NODE_LLAMA_CPP_SKIP_DOWNLOAD=true node "$tools/check_llama.mjs" "$bin" "${files[@]}" || status=1
echo
if [ $status -eq 0 ]; then
  echo "interop: PASS (${#files[@]} files, $((SECONDS - start)) s)"
else
  echo "interop: FAIL (see the FAIL lines above; ${#files[@]} files, $((SECONDS - start)) s)"
fi
exit $status
