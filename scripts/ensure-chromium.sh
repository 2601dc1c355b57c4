#!/bin/sh
# Playwright runs against Debian's chromium; install it once when missing (root + apt only).
set -e
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[e2e] installing chromium with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  exit 0
fi
echo "[e2e] /usr/bin/chromium is missing; install the Debian chromium package (apt-get install -y chromium)" >&2
exit 1
