#!/bin/sh
# The Node 24 that CI runs the whole test command on: npm's node package (its binary and headers come from the npm
# registry), in tests/node24 with its own lockfile, so it is first in PATH only where a script puts it there. Prints the
# folder that holds bin/node and include/node (npm_config_nodedir for native builds). Installs only when missing or stale.
set -eu
dir="$(cd "$(dirname "$0")/../tests/node24" && pwd)"
installed="$dir/node_modules/.package-lock.json"
if ! { [ -x "$dir/node_modules/node/bin/node" ] && [ "$installed" -nt "$dir/package-lock.json" ]; }; then
  echo "[node24] npm ci in tests/node24 (npm's node package)" >&2
  npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >&2
fi
for home in "$dir"/node_modules/node/node_modules/node-*; do
  if [ -x "$home/bin/node" ] && [ -f "$home/include/node/node.h" ]; then
    echo "$home"
    exit 0
  fi
done
echo "[node24] no node binary with headers under $dir/node_modules/node/node_modules" >&2
exit 1
