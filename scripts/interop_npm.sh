# shellcheck shell=bash
# Sourced by scripts/interop.sh and scripts/bench-vs-llama.sh: checks for node >= 20 and npm, and
# installs tools/interop/node_modules with `npm ci` when it is missing or was installed from
# another lock file (tools/interop/.npmrc: no optional packages, no install scripts). The only
# network use of either script.
#   interop_npm_install TOOLS_DIR NAME   (NAME prefixes the messages); returns 2 on failure.
interop_npm_install() {
  local tools=$1 name=$2
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "$name: needs node (>= 20) and npm" >&2
    return 2
  fi
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 20 ]; then
    echo "$name: node $(node --version) is too old: @huggingface/gguf and node-llama-cpp need node >= 20" >&2
    return 2
  fi
  # The stamp is the lock file the installed tree came from.
  if ! cmp -s "$tools/package-lock.json" "$tools/node_modules/.interop-lock" 2>/dev/null; then
    echo "$name: npm ci in tools/interop (no optional packages, no install scripts)"
    local t0=$SECONDS
    (cd "$tools" && npm ci --no-fund --no-audit --loglevel=error) || {
      echo "$name: npm ci failed" >&2; return 2; }
    cp "$tools/package-lock.json" "$tools/node_modules/.interop-lock"
    echo "$name: installed in $((SECONDS - t0)) s ($(du -sh "$tools/node_modules" | cut -f1))"
  fi
}
