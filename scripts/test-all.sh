#!/bin/sh
# npm test: format, lint, layer graph, types, vitest, then build + Playwright; ends with one summed closing line.
set -u
log=$(mktemp)
status=0
step() {
  echo
  echo "=== [test] npm run $1"
  if ! npm run --silent "$1" >"$log.out" 2>&1; then status=1; fi
  cat "$log.out"
  cat "$log.out" >>"$log"
}
step format:check
step lint
step deps
step typecheck
step test:unit
step test:e2e
passed=$(grep -E '^(vitest|playwright): [0-9]+ passed' "$log" | sed -E 's/^[a-z]+: ([0-9]+) passed.*/\1/' | awk '{s+=$1} END {print s+0}')
failed=$(grep -E '^(vitest|playwright): [0-9]+ passed, [0-9]+ failed' "$log" | sed -E 's/.* ([0-9]+) failed.*/\1/' | awk '{s+=$1} END {print s+0}')
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
rm -f "$log" "$log.out"
echo
echo "all: $passed passed, $failed failed"
exit $status
