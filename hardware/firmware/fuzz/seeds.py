#!/usr/bin/env python3
"""Writes the seed corpora (corpus/<target>/) from a few valid program vectors, each with the
target's input prefix (see the comment at the top of each fuzz_<target>.c).
Run: python3 hardware/firmware/fuzz/seeds.py"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "..", "..", "firmware-protocol", "vectors", "programs")
PROGRAMS = ["op_ramp_a", "op_flags_no_sharp", "delay_extended", "ramp_both_channels", "loop_nested_4",
            "loop_9_per_tick", "pulse_five_voices", "live_scale_128", "safety_pulses_count",
            "stream_fed_in_time"]
LOOP_FREE = ["op_ramp_a", "ramp_both_channels", "pulse_five_voices", "live_scale_128", "stream_fed_in_time"]

PREFIXES = {
    # brake 3, threshold 224, safety 5 ticks (c3 bit 0 set); or brake 20, default safety, all fix-ups
    "program": [bytes([3, 224, 5, 1]), bytes([20, 224, 0, 14])],
    # ring 2^(4+2) = 64 bytes; all at once / chunked; brake 3
    "stream": [bytes([2, 0, 3]), bytes([2, 7, 0x73])],
    # brake 3; events: scale 128 at 5, offset -40 8 later, stop with brake 6 later
    "live": [bytes([3, 3, 5, 0, 128, 8, 1, 216, 6, 2, 0]), bytes([0x70, 1, 4, 3, 0])],
}


def program_of(name):
    with open(os.path.join(VECTORS, name + ".txt")) as f:
        for line in f:
            if line.startswith("program:"):
                return bytes.fromhex(line.split(":", 1)[1].strip())
    raise ValueError(name)


for target, prefixes in PREFIXES.items():
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        os.remove(os.path.join(folder, old))
    names = LOOP_FREE if target == "stream" else PROGRAMS
    for name in names:
        for i, prefix in enumerate(prefixes):
            with open(os.path.join(folder, f"{name}-{i}"), "wb") as f:
                f.write(prefix + program_of(name))
    print(f"corpus/{target}: {len(names) * len(prefixes)} seeds")
