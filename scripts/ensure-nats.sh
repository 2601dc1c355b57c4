#!/bin/sh
# The regions tests start Debian's nats-server with a configuration of their own; install it once when missing
# (root + apt only). The package starts no service of its own on these machines; a policy-rc.d makes sure.
set -e
if command -v nats-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] installing nats-server with apt-get" >&2
  added=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    added=1
  fi
  status=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server; } || status=$?
  [ -n "$added" ] && rm -f /usr/sbin/policy-rc.d
  [ "$status" = "0" ] && command -v nats-server >/dev/null 2>&1 && exit 0
fi
echo "[test] nats-server is missing; install the Debian nats-server package (apt-get install -y nats-server)" >&2
exit 1
