#!/bin/sh
# Playwright runs against Debian's chromium; install it once when missing (root + apt only).
# A small CJK font comes along so the Chinese FAQ screenshots show text, not boxes.
set -e
have_cjk() { command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh 2>/dev/null | head -n 1)" ]; }
can_apt() { [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; }

if [ -x /usr/bin/chromium ]; then
  if ! have_cjk && can_apt; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null 2>&1 || echo "[e2e] no CJK font; Chinese screenshots will show boxes" >&2
  fi
  exit 0
fi
if can_apt; then
  echo "[e2e] installing chromium with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei || echo "[e2e] no CJK font; Chinese screenshots will show boxes" >&2
  exit 0
fi
echo "[e2e] /usr/bin/chromium is missing; install the Debian chromium package (apt-get install -y chromium)" >&2
exit 1
