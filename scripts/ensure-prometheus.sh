#!/bin/sh
# The metrics spec scrapes `npm start` with Debian's Prometheus; install it once when missing (root + apt only).
set -e
sh "$(dirname "$0")/ensure-apt.sh" prometheus prometheus e2e
exec sh "$(dirname "$0")/ensure-apt.sh" promtool prometheus e2e
