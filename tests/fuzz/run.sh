#!/usr/bin/env bash
# Runs libFuzzer targets for a bounded time each, two at a time, niced:
#   tests/fuzz/run.sh BUILD_DIR SECONDS TARGET...
# Each target starts from the committed corpus (tests/fuzz/corpus/<t>/, replayed first: every
# past crash is a regression test) and writes new inputs to BUILD_DIR/corpus/<t>/ only, crashes
# to BUILD_DIR/crashes/<t>/. Prints one line per target; exits 1 if any target found a crash.
set -uo pipefail
build=$1; seconds=$2; shift 2
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../.." && pwd)

run_one() {
  local t=$1
  local out="$build/corpus/$t" crashes="$build/crashes/$t" log="$build/logs/$t.log"
  mkdir -p "$out" "$crashes" "$build/logs"
  local extra=()
  [ "$t" = lesson ] && extra+=("$root/lessons")
  [ "$t" = chat ] && extra+=("$root/tests/chat/templates")
  local start=$SECONDS
  nice -n 10 "$build/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="$crashes/" -print_final_stats=1 "$out" "$src/corpus/$t" "${extra[@]}" \
    > "$log" 2>&1
  local rc=$?
  local runs
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ok, ${runs:-?} inputs in $((SECONDS - start)) s (log: $log)"
  else
    echo "fuzz $t: FAILED (exit $rc) after $((SECONDS - start)) s; reproducer(s) in $crashes/:"
    ls "$crashes" | sed 's/^/  /'
    grep -m3 -E 'ERROR|property violated|runtime error' "$log" | sed 's/^/  /'
    echo "  keep the reproducer in tests/fuzz/corpus/$t/ and fix the bug (tests/README.md)"
    return 1
  fi
}
export -f run_one
export build seconds src root

printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'run_one {}'
