#!/bin/sh
# npm test: format, lint, layer graph, types, vitest, then build + Playwright; ends with one summed closing line.
# The four static checks each use one core: format, lint and the layer graph run beside the type check (two
# lanes on two cores); their output is printed in the usual order. vitest and Playwright use both cores alone:
# test:unit asks vitest for two workers (its default is one fewer than the cores), since many files wait on real
# clocks (a lock going stale, a slot lapsing, a second probe) more than they compute.
set -u
log=$(mktemp)
dir=$(mktemp -d)
status=0
run() { npm run --silent "$1" >"$dir/$1.out" 2>&1 || echo "$1" >>"$dir/failed"; }
show() {
  echo
  echo "=== [test] npm run $1"
  cat "$dir/$1.out"
  cat "$dir/$1.out" >>"$log"
}
(run format:check && run lint && run deps) &
run typecheck
wait
for s in format:check lint deps typecheck; do show "$s"; done
for s in test:unit test:e2e; do
  run "$s"
  show "$s"
done
[ -s "$dir/failed" ] && status=1
passed=$(grep -E '^(vitest|playwright): [0-9]+ passed' "$log" | sed -E 's/^[a-z]+: ([0-9]+) passed.*/\1/' | awk '{s+=$1} END {print s+0}')
failed=$(grep -E '^(vitest|playwright): [0-9]+ passed, [0-9]+ failed' "$log" | sed -E 's/.* ([0-9]+) failed.*/\1/' | awk '{s+=$1} END {print s+0}')
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
rm -rf "$log" "$dir"
echo
echo "all: $passed passed, $failed failed"
exit $status
