#!/bin/sh
# A loopback test for any CI, with nothing but the `haptic` binary on PATH:
# serve the virtual device with a trace, play a pattern on it as a host would,
# stop the device, and check the trace against what the firmware model says
# that pattern must produce. Exit status 0 only when every tick is right.
#
#   Examples/loopback-ci.sh [PATTERN] [EXTRA EMULATE OPTIONS...]
#   e.g. Examples/loopback-ci.sh preset:notification.success --faults drop=0.01,corrupt=0.01,seed=7
set -eu

pattern=${1:-preset:impact.medium}
[ $# -gt 0 ] && shift
work=$(mktemp -d)
trap 'kill "$emulator" 2>/dev/null || true; rm -rf "$work"' EXIT

# 1. The device: it prints the pty it serves on (the virtual device "... on /dev/pts/N", the
# simulated board "serial port: /dev/pts/N (...)", after building its firmware the first time).
haptic emulate --trace "$work/trace.jsonl" "$@" >"$work/emulate.out" 2>&1 &
emulator=$!
port=
for _ in $(seq 1 1200); do
    port=$(grep -Eo '/dev/(pts/[0-9]+|ttys[0-9]+)' "$work/emulate.out" | head -n 1)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$work/emulate.out" >&2; echo "no port from haptic emulate" >&2; exit 1; }

# 2. The host: play the pattern on that port (exit 1 unless the play finished).
haptic play "$pattern" --port "$port" --no-plot

# 3. Stop the device: on SIGINT it writes the trace and exits 0.
kill -INT "$emulator"
wait "$emulator"
cat "$work/emulate.out"

# 4. The golden check: exit 1 and the first differing tick on any difference.
haptic verify "$pattern" --trace "$work/trace.jsonl"
