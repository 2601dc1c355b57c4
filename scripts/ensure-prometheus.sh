#!/bin/sh
# The metrics spec scrapes `npm start` with Debian's Prometheus; install it once when missing (root + apt only).
# Its package would start a system-wide server; a policy-rc.d stops that for the install.
set -e
if [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[e2e] installing prometheus with apt-get" >&2
  added=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    added=1
  fi
  status=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus; } || status=$?
  [ -n "$added" ] && rm -f /usr/sbin/policy-rc.d
  [ "$status" = "0" ] && [ -x /usr/bin/prometheus ] && exit 0
fi
echo "[e2e] /usr/bin/prometheus is missing; install the Debian prometheus package (apt-get install -y prometheus)" >&2
exit 1
