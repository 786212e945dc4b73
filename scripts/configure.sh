#!/usr/bin/env bash
# Configures a build folder: scripts/configure.sh DIR [cmake options...]. A new folder gets the
# Ninja generator when ninja is installed (it compiles a target's files while the libraries it
# links are still being built, which keeps both cores busy); an existing folder keeps the
# generator it was made with. The output goes to DIR.configure.log, shown only on failure.
set -euo pipefail
dir=$1; shift
gen=()
if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
cmake -S . -B "$dir" "${gen[@]}" "$@" >"$dir.configure.log" 2>&1 || {
  cat "$dir.configure.log"; exit 1; }
