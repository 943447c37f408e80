#!/bin/sh
# Your own AHAP files on the real firmware, checked tick by tick. For each .ahap file of a folder:
# serve the simulated ATmega328P with a trace (`haptic emulate --mcu atmega328p --trace T`), play
# the file on it as a host would (`haptic play FILE --port PTY`, compiled for the board it
# reports), stop the board, and check its trace against what the firmware model says that file
# must produce (`haptic verify FILE --trace T`). One board per file: each trace is one session.
# Exit status 0 only when every file played to its end and every tick of every play is right.
#
#   Examples/verify-corpus.sh [DIR] [EXTRA EMULATE OPTIONS...]
#   DIR: default $HAPTIC_CORPUS, else Examples/corpus.
#   VERIFY_MAX_SECONDS=S skips files longer than S seconds (the board runs in real time).
#   Extra options go to `haptic emulate`: `--mcu cortex-m` serves the micro:bit in QEMU instead
#   (the last --mcu given wins).
#   e.g. HAPTIC_CORPUS=~/my-haptics Examples/verify-corpus.sh
set -eu

dir=${1:-${HAPTIC_CORPUS:-Examples/corpus}}
[ $# -gt 0 ] && shift
[ -d "$dir" ] || { echo "verify-corpus: no such folder: $dir" >&2; exit 1; }
work=$(mktemp -d)
emulator=
trap '[ -n "$emulator" ] && kill "$emulator" 2>/dev/null; rm -rf "$work"' EXIT

# The files to play (and their order in the trace).
: >"$work/files"
for file in "$dir"/*.ahap; do
    [ -e "$file" ] || continue
    if [ -n "${VERIFY_MAX_SECONDS:-}" ]; then
        seconds=$(haptic inspect "$file" --json | sed -n 's/.*"duration" : \([0-9.e+-]*\).*/\1/p' | head -n 1)
        if [ -n "$seconds" ] && awk "BEGIN { exit !($seconds > $VERIFY_MAX_SECONDS) }"; then
            echo "skip $(basename "$file"): ${seconds} s, longer than VERIFY_MAX_SECONDS=$VERIFY_MAX_SECONDS"
            continue
        fi
    fi
    echo "$file" >>"$work/files"
done
count=$(wc -l <"$work/files" | tr -d ' ')
[ "$count" -gt 0 ] || { echo "verify-corpus: no .ahap files to play in $dir" >&2; exit 1; }

emulator=
serve() {
    # The board: it prints the pty it serves on (after building its firmware the first time).
    # The last board's output goes first, or its pty path could be read before this one's.
    rm -f "$work/emulate.out" "$work/trace.jsonl"
    haptic emulate --mcu atmega328p --trace "$work/trace.jsonl" "$@" >"$work/emulate.out" 2>&1 &
    emulator=$!
    port=
    for _ in $(seq 1 1200); do
        port=$(grep -Eo '/dev/(pts/[0-9]+|ttys[0-9]+)' "$work/emulate.out" 2>/dev/null | head -n 1)
        [ -n "$port" ] && return 0
        kill -0 "$emulator" 2>/dev/null || break
        sleep 0.1
    done
    cat "$work/emulate.out" >&2
    echo "verify-corpus: no port from haptic emulate" >&2
    exit 1
}

failed=0
while IFS= read -r file; do
    name=$(basename "$file")
    serve "$@"
    # The host: exit 0 only when the play finished.
    played=yes
    if ! haptic play "$file" --port "$port" --no-plot >"$work/play.out" 2>&1; then
        cat "$work/play.out" >&2
        echo "verify-corpus: $name did not play to its end" >&2
        failed=$((failed + 1))
        played=no
    fi
    # Stop the board once it has run past the brake's last ticks: on SIGINT it writes the trace.
    sleep 0.2
    kill -INT "$emulator"
    wait "$emulator" || { cat "$work/emulate.out" >&2; exit 1; }
    emulator=
    # The golden check: every tick of the play, brake included, as the model says.
    if [ "$played" = no ]; then
        continue
    elif haptic verify "$file" --trace "$work/trace.jsonl" >"$work/verify.out" 2>&1; then
        echo "equal $name: $(sed -n 's/^equal: //p' "$work/verify.out")"
    else
        cat "$work/emulate.out" "$work/verify.out" >&2
        failed=$((failed + 1))
    fi
done <"$work/files"
[ "$failed" -eq 0 ] || { echo "verify-corpus: $failed of $count files failed" >&2; exit 1; }
echo "verify-corpus: $count files from $dir played on the simulated board (haptic emulate --mcu atmega328p $*) exactly as the model says"
