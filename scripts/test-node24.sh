#!/bin/sh
# npm test on Node 24, in a clone of this checkout's HEAD with node_modules of its own: better-sqlite3 is compiled
# there by Node 24 against Node 24.18.1's headers (tests/node24/headers says why; nothing is downloaded but npm
# packages), and .next is built by Node 24.
# The checkout's own node_modules stay built for the machine's Node, so the README's commands keep working beside it.
# NODE24_TREE=<folder> keeps the clone there (reused, with its node_modules, when it is a clone of this checkout).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
node24="$(sh "$root/scripts/ensure-node24.sh")"
home="$(echo "$node24" | sed -n 1p)"
headers="$(echo "$node24" | sed -n 2p)"
keep="${NODE24_TREE:-}"
tree="${keep:-$(mktemp -d "${TMPDIR:-/tmp}/mcp-status-node24.XXXXXX")/repo}"
cleanup() { [ -n "$keep" ] || rm -rf "$(dirname "$tree")"; }
trap cleanup EXIT INT TERM

if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "[node24] note: uncommitted changes in $root are not in the Node 24 run (it tests HEAD)"
fi
[ -d "$tree/.git" ] || git clone -q "$root" "$tree"
git -C "$tree" fetch -q "$root" HEAD
git -C "$tree" checkout -q --detach FETCH_HEAD

cd "$tree"
PATH="$home/bin:$PATH"
npm_config_nodedir="$headers"
export PATH npm_config_nodedir
echo "[node24] $(node -v) at $(command -v node); npm $(npm -v); native builds against $headers; tree $tree at $(git rev-parse --short HEAD)"
started=$(date +%s)
# better-sqlite3 compiles from source without first trying a download from outside the npm registry.
env "prebuild-install_buildFromSource=true" npm ci --no-audit --no-fund
echo "[node24] npm ci with Node $(node -v) in $(($(date +%s) - started)) s"
node -e "const D = require('better-sqlite3'); new D(':memory:').close(); console.log('[node24] better-sqlite3 loads on Node ' + process.version + ' (ABI ' + process.versions.modules + ')')"
npm test
