#!/bin/sh
# The official MCP conformance suite and the Node 22 it runs on, in tests/conformance with their own package.json
# and lockfile: installed beside the site, the node package's `node` would come first in PATH in every npm script
# and run the site (and its native better-sqlite3 build) on Node 22. Installs only when missing or out of date.
set -eu
dir="$(cd "$(dirname "$0")/../tests/conformance" && pwd)"
installed="$dir/node_modules/.package-lock.json"
if [ -x "$dir/node_modules/.bin/conformance" ] && [ -x "$dir/node_modules/node/bin/node" ] && [ "$installed" -nt "$dir/package-lock.json" ]; then
  exit 0
fi
echo "[conformance] npm ci in tests/conformance (the conformance suite and Node 22)"
npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
