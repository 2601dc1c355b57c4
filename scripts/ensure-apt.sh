#!/bin/sh
# Usage: sh scripts/ensure-apt.sh <command> <package> <scope>. Installs a Debian package once when its command is
# missing (root + apt only), with a policy-rc.d so the package starts no system-wide service; fails with a message
# otherwise. The ensure-*.sh scripts call it for what the tests start themselves.
set -e
cmd="$1"; pkg="$2"; scope="$3"
if command -v "$cmd" >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[$scope] installing $pkg with apt-get" >&2
  added=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    added=1
  fi
  status=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg"; } || status=$?
  [ -n "$added" ] && rm -f /usr/sbin/policy-rc.d
  [ "$status" = "0" ] && command -v "$cmd" >/dev/null 2>&1 && exit 0
fi
echo "[$scope] $cmd is missing; install the Debian $pkg package (apt-get install -y $pkg)" >&2
exit 1
