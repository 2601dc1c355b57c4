#!/bin/sh
# npm test on Node 24, in a clone of this checkout's HEAD with node_modules of its own: better-sqlite3 is compiled
# there by Node 24 against Node 24.18.1's headers (tests/node24/headers says why; nothing is downloaded but npm
# packages), and .next is built by Node 24.
# The checkout's own node_modules stay built for the machine's Node, so the README's commands keep working beside it.
# Nothing is installed twice: when this checkout's node_modules were installed from HEAD's lockfile, the clone gets
# a copy of them (and of the conformance suite's) and only better-sqlite3, the one module built for one Node, is
# rebuilt; otherwise the clone runs npm ci.
# Usage: sh scripts/test-node24.sh [all|unit|e2e|prepare] [files…]: the whole test command (default), or only its
# vitest part or its build + Playwright part (one `next build` per run); files after unit or e2e narrow that part to
# them; prepare only makes the clone and its node_modules (CI does that while it installs system packages).
# NODE24_TREE=<folder> keeps the clone there (reused, with its node_modules, when it is a clone of this checkout).
set -eu
part="${1:-all}"
[ "$#" -gt 0 ] && shift
case "$part" in
  all) script=test ;;
  unit) script=test:unit ;;
  e2e) script=test:e2e ;;
  prepare) script= ;;
  *)
    echo "usage: sh scripts/test-node24.sh [all|unit|e2e|prepare]" >&2
    exit 2
    ;;
esac
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
git -C "$tree" checkout -q -f --detach FETCH_HEAD

cd "$tree"
PATH="$home/bin:$PATH"
npm_config_nodedir="$headers"
export PATH npm_config_nodedir
echo "[node24] $(node -v) at $(command -v node); npm $(npm -v); native builds against $headers; tree $tree at $(git rev-parse --short HEAD)"
started=$(date +%s)
# better-sqlite3 compiles from source without first trying a download from outside the npm registry.
locks="$(cat package-lock.json tests/conformance/package-lock.json | cksum)"
if [ -f node_modules/.node24-built ] && [ "$(cat node_modules/.node24-built)" = "$locks" ]; then
  echo "[node24] node_modules already built with Node $(node -v) for these lockfiles"
elif [ -f "$root/node_modules/.package-lock.json" ] && git -C "$root" diff --quiet HEAD -- package-lock.json tests/conformance/package-lock.json &&
  cmp -s "$root/package-lock.json" package-lock.json; then
  rm -rf node_modules tests/conformance/node_modules
  # Hard links where the file system allows (seconds instead of a minute for 900 MB): nothing in node_modules is
  # written in place but better-sqlite3's build, which gets a copy of its own, and the tools' caches, dropped here.
  link=-al
  cp -al "$root/node_modules" node_modules 2>/dev/null || { rm -rf node_modules && link=-a && cp -a "$root/node_modules" node_modules; }
  rm -rf node_modules/better-sqlite3 node_modules/.cache node_modules/.vite node_modules/.node24-built
  cp -a "$root/node_modules/better-sqlite3" node_modules/better-sqlite3
  if [ -d "$root/tests/conformance/node_modules" ]; then
    cp $link "$root/tests/conformance/node_modules" tests/conformance/node_modules
    # The clone's lockfile is newer than the copied install record: mark the copy as current for ensure-conformance.sh.
    rm -f tests/conformance/node_modules/.package-lock.json
    cp "$root/tests/conformance/node_modules/.package-lock.json" tests/conformance/node_modules/.package-lock.json
  fi
  env "prebuild-install_buildFromSource=true" npm rebuild better-sqlite3 --no-audit --no-fund
  echo "[node24] node_modules from $root (cp $link), better-sqlite3 rebuilt with Node $(node -v) in $(($(date +%s) - started)) s"
else
  env "prebuild-install_buildFromSource=true" npm ci --no-audit --no-fund
  echo "[node24] npm ci with Node $(node -v) in $(($(date +%s) - started)) s"
fi
echo "$locks" >node_modules/.node24-built
node -e "const D = require('better-sqlite3'); new D(':memory:').close(); console.log('[node24] better-sqlite3 loads on Node ' + process.version + ' (ABI ' + process.versions.modules + ')')"
if [ "$part" = prepare ]; then
  exit 0
elif [ "$part" = all ]; then
  npm test
else
  # The same closing line as npm test's, so .ci/run and a reader see one figure per part.
  npm run --silent "$script" -- "$@"
fi
