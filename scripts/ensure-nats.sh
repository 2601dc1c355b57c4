#!/bin/sh
# The regions tests start Debian's nats-server with a configuration of their own; install it once when missing.
exec sh "$(dirname "$0")/ensure-apt.sh" nats-server nats-server test
