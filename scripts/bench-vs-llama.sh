#!/usr/bin/env bash
# tokenscope's speed next to llama.cpp's (node-llama-cpp's prebuilt CPU binary) on the same GGUF
# files: the random-weight roofline shapes 15M, 42M and 110M (F32) or 0.5B (Qwen2-0.5B's shape,
# Q8_0; not in the default list: ~2 minutes more), written by `bench --write-shape`, and the
# shipped models/tales-4m.gguf. Per file, one after the other: `tokenscope bench
# --roofline --shapes model --model FILE --json` at 2 threads, then tools/interop/speed.mjs on the
# same file with the same prefill length; then one table of prefill and decode tokens/s (record
# off) and the ratios tokenscope / llama.cpp. Builds nothing:
#   scripts/bench-vs-llama.sh path/to/tokenscope [SHAPE | FILE.gguf]...   (default: the four)
# Installs tools/interop/node_modules like scripts/interop.sh (scripts/interop_npm.sh). The files
# go into a temporary folder removed at the end. Takes several minutes; run it on a quiet machine.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: scripts/bench-vs-llama.sh path/to/tokenscope [SHAPE | FILE.gguf]..." >&2; exit 2; fi
bin=$(realpath "$1")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- 15M 42M 110M "$root/models/tales-4m.gguf"
tools=$root/tools/interop
threads=2
start=$SECONDS

# shellcheck source=scripts/interop_npm.sh
. "$root/scripts/interop_npm.sh"
interop_npm_install "$tools" bench-vs-llama || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts-bench-vs-llama.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

names=()
for item in "$@"; do
  i=${#names[@]}
  if [ -f "$item" ]; then
    file=$item
    names+=("$(basename "$item" .gguf)")
  else
    file=$tmp/$item.gguf
    names+=("random $item")
    echo "bench-vs-llama: ${names[i]}: bench --write-shape $item"
    "$bin" bench --write-shape "$item" --out "$file" >/dev/null
  fi
  echo "bench-vs-llama: ${names[i]}: tokenscope bench --roofline"
  "$bin" bench --roofline --shapes model --model "$file" --threads "$threads" --json \
    >"$tmp/$i.ts.json" 2>"$tmp/ts.log" || { cat "$tmp/ts.log" >&2; exit 1; }
  # llama.cpp prefills as many tokens as tokenscope's longest prefill.
  prefill=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1])).roofline.shapes[0].prefill.at(-1).tokens' \
    "$tmp/$i.ts.json")
  echo "bench-vs-llama: ${names[i]}: llama.cpp (tools/interop/speed.mjs, prefill $prefill tokens)"
  NODE_LLAMA_CPP_SKIP_DOWNLOAD=true node "$tools/speed.mjs" "$file" --threads "$threads" \
    --prefill "$prefill" >"$tmp/$i.llama.json"
  if [ "$file" = "$tmp/$item.gguf" ]; then rm -f "$file"; fi
done

# The table: per file, tokens/s of tokenscope and llama.cpp and their ratio, for the prefill and
# for the decode at 2 threads and at 1 thread.
echo
node - "$tmp" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "${names[@]}" <<'EOF'
const fs = require("fs");
const [dir, loadBefore, loadAfter, ...names] = process.argv.slice(2);
const read = (f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8"));
const rows = names.map((name, i) => ({name, ts: read(`${i}.ts.json`).roofline, ll: read(`${i}.llama.json`)}));
const {ts: ts0, ll: ll0} = rows[0];
console.log(`machine: ${ts0.machine}; load average before ${loadBefore}, after ${loadAfter}`);
console.log(`tokenscope (record off, each file in its own type) vs ${ll0.engine}, ggml CPU build ${ll0.cpu_variant}, F32 KV cache`);
// Columns: the file, then three groups of tokenscope / llama.cpp / ratio.
const fmt = (cells) => cells.map((c, k) => (k === 0 ? c.padEnd(18) : c.padStart(k % 3 === 0 ? 7 : 10))).join(" ");
const title = (t) => t.padEnd(28);
console.log(`${"tokens/s".padEnd(18)}  ${title("prefill")}  ${title(`decode, ${ts0.threads} threads`)}  decode, 1 thread`);
console.log(fmt(["file (prefill)", ...Array(3).fill(["tokenscope", "llama.cpp", "ratio"]).flat()]));
const cell = (r) => `${Math.round(r.tokens_per_s)}${r.flash_attention ? " fa" : ""}`;
for (const {name, ts, ll} of rows) {
  const s = ts.shapes[0], p = s.prefill.at(-1), d = s.decode_tokens_per_s;
  const group = (mine, theirs) => [`${Math.round(mine)}`, cell(theirs), `${(mine / theirs.tokens_per_s).toFixed(2)}x`];
  console.log(fmt([`${name} (${p.tokens})`, ...group(p.tokens_per_s, ll.prefill), ...group(d.off, ll.decode),
                   ...group(d.off_1_thread, ll.decode_1_thread)]));
}
const steps = [...new Set(rows.map((r) => r.ts.shapes[0].decode_steps))].join("/");
console.log(`ratio = tokenscope / llama.cpp. (prefill): prompt length in ids; decode: ${steps} greedy steps after a 16-token`);
console.log("prompt. Best of a few runs each (tokenscope's decode: one run). llama.cpp timed by its own counters");
console.log("(llama_decode alone, no JavaScript), the faster of its flash attention off and on (fa: on).");
console.log("node-llama-cpp gives llama.cpp no thread pool: at 2 threads ggml starts a worker thread inside every");
console.log("llama_decode, which a single-token decode step feels most; the 1-thread decode has no such cost.");
EOF
echo "bench-vs-llama: done in $((SECONDS - start)) s"
