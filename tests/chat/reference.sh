#!/usr/bin/env bash
# Makes the reference the chat template engine is compared with (test_chat's "agrees with
# Python's jinja2" case):  tests/chat/reference.sh OUT_DIR
#  1. the chat templates real models ship, as llama.cpp keeps them (models/templates/*.jinja):
#     taken at test time from the npm package node-llama-cpp, which carries llama.cpp's source as
#     a git bundle (llama/gitRelease.bundle); installed into tools/interop/ by `npm ci` as the
#     interop check installs it (scripts/interop_npm.sh), nothing is committed;
#  2. this folder's own templates (tests/chat/templates/*.jinja) and the shipped chat model's
#     (models/*.jinja);
#  3. every one rendered by Python's jinja2 (Debian's python3-jinja2) for every conversation of
#     conversations.json, add_generation_prompt on and off, and 1,500 random expression templates
#     for two of them (jinja_reference.py).
# Writes OUT_DIR/reference.json. Without node >= 20 and npm it writes OUT_DIR/skipped (the reason)
# and exits 77, as `make test` skips the interop check there; without python3-jinja2 it fails.
set -uo pipefail
out=${1:?usage: tests/chat/reference.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
rm -f "$out/skipped" "$out/reference.json"
skip() { echo "chat reference: skipped: $1"; echo "$1" >"$out/skipped"; exit 77; }

py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c 'import jinja2' 2>/dev/null || {
  echo "chat reference: python3-jinja2 is missing (scripts/setup.sh installs it)" >&2; exit 1; }
command -v git >/dev/null || { echo "chat reference: needs git" >&2; exit 1; }

# shellcheck source=scripts/interop_npm.sh
. "$root/scripts/interop_npm.sh"
if ! command -v node >/dev/null || ! command -v npm >/dev/null ||
   [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  skip "node >= 20 and npm are needed to install the templates' package (node-llama-cpp)"
fi
interop_npm_install "$root/tools/interop" "chat reference" || exit 1
bundle=$root/tools/interop/node_modules/node-llama-cpp/llama/gitRelease.bundle
[ -f "$bundle" ] || { echo "chat reference: $bundle is missing" >&2; exit 1; }

# The templates, extracted once per bundle (the stamp is the bundle's size and head).
tdir=$out/templates
stamp="$(stat -c %s "$bundle") $(git bundle list-heads "$bundle" 2>/dev/null | head -1)"
if [ "$(cat "$tdir/.stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$tdir" "$out/bundle.git"
  mkdir -p "$tdir"
  git clone -q --bare "$bundle" "$out/bundle.git" || { echo "chat reference: cannot read $bundle" >&2; exit 1; }
  git --git-dir="$out/bundle.git" ls-tree --name-only HEAD models/templates/ | grep '\.jinja$' |
    while read -r f; do git --git-dir="$out/bundle.git" show "HEAD:$f" >"$tdir/$(basename "$f")"; done
  rm -rf "$out/bundle.git"
  echo "$stamp" >"$tdir/.stamp"
fi
n=$(find "$tdir" -name '*.jinja' | wc -l)
[ "$n" -gt 0 ] || { echo "chat reference: no templates found in $bundle" >&2; exit 1; }
echo "chat reference: $n templates from node-llama-cpp's llama.cpp bundle, $(ls "$here"/templates/*.jinja "$root"/models/*.jinja | wc -l) of our own"
"$py" "$here/jinja_reference.py" --random 1500 --out "$out/reference.json" \
  "$tdir"/*.jinja "$here"/templates/*.jinja "$root"/models/*.jinja
