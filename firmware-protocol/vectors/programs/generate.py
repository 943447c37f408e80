#!/usr/bin/env python3
"""Writes the program vectors (*.txt next to this file; format in README.md).

Programs are written in a small assembly (below); expected outputs come from reference.py, an
implementation of PROTOCOL.md part 1 independent of the C core and the Swift model.
Run: python3 firmware-protocol/vectors/programs/generate.py
Random differential run (not committed): generate.py --random SEED COUNT DIR writes COUNT random
valid programs with live events as vectors into DIR, for
hardware/firmware/build/test_programs DIR.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- assembler ----


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def ins(op, delay, *operands):
    """One instruction; RAMP operands are (value, dur)."""
    code = ref.OPS.index(op)
    if delay < 31:
        out = bytearray([code << 5 | delay])
    else:
        out = bytearray([code << 5 | 31]) + varint(delay - 31)
    if op in ("RAMP_A", "RAMP_S"):
        out += bytes([operands[0]]) + varint(operands[1])
    else:
        out += bytes(operands)
    return bytes(out)


def asm(lines):
    """lines: [(op, delay, operands...)] -> (body bytes, listing)."""
    body, listing = bytearray(), []
    for line in lines:
        op, delay, operands = line[0], line[1], line[2:]
        encoded = ins(op, delay, *operands)
        listing.append(f"{len(body):4d}: {op} +{delay} {' '.join(str(o) for o in operands)}".rstrip()
                       + f"    [{encoded.hex()}]")
        body += encoded
    return bytes(body), listing


def header(body, total, flags=1, rate=1000, version=ref.FORMAT_VERSION, magic=b"HP", crc=None, body_length=None):
    return (magic + bytes([version, flags]) + rate.to_bytes(2, "little")
            + (len(body) if body_length is None else body_length).to_bytes(4, "little")
            + total.to_bytes(4, "little")
            + (ref.crc16(body) if crc is None else crc).to_bytes(2, "little"))


def total_of(body, flags=1):
    """The END time of a well-formed body, from the reference's own loop expansion."""
    instructions, pos = [], 0
    while True:
        one = ref.decode(body, len(body), len(body), pos)
        instructions.append(one)
        pos = one["end"]
        if one["op"] == "END":
            return ref.timeline(instructions)[-1][0]


def program(lines, flags=1, total=None, **kw):
    body, listing = asm(lines)
    if total is None:
        total = total_of(body, flags)
    return header(body, total, flags=flags, **kw) + body, listing


# ---- vectors ----

VECTORS = []


def vector(name, about, prog, cfg=None, events=(), ticks=None, stream=None, listing=None):
    """prog: program bytes or (bytes, listing)."""
    if isinstance(prog, tuple):
        prog, listing = prog
    cfg = cfg or ref.Config(brake=3)
    events = list(events)
    if ticks is None:  # play to the end, brake, then two idle ticks
        try:
            h = ref.parse_header(prog[:16], cfg)
            ticks = min(h["total"], 5000) + cfg.brake + 2
        except ref.Reject:
            ticks = cfg.brake + 2
    VECTORS.append((name, about, prog, cfg, events, ticks, stream, listing))


def rle(samples):
    lines, start = [], 0
    for i in range(1, len(samples) + 1):
        if i == len(samples) or samples[i] != samples[start]:
            a, s, f = samples[start]
            span = f"{start}" if i - 1 == start else f"{start}-{i - 1}"
            lines.append(f"{span}: {a} {s} {f}")
            start = i
    return lines


def write_all(folder=HERE):
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        if old.endswith(".txt"):
            os.remove(os.path.join(folder, old))
    for (name, about, prog, cfg, events, ticks, stream, listing) in VECTORS:
        load, samples, (mode, error, tick) = ref.run(prog, cfg, events, ticks, stream)
        assert name.startswith("err_") == (load != 0), f"{name}: load result {load}"
        out = [f"# {line}" for line in about.strip().splitlines()]
        if listing:
            out.append("#")
            out += [f"# {line}" for line in listing]
        out.append(f"config: {cfg.line()}")
        out.append(f"program: {prog.hex()}")
        if stream:
            out.append(f"stream: capacity={stream[0]} initial={stream[1]}")
        out.append("expect: ok" if load == 0 else f"expect: error {load}")
        for (t, kind, arg) in events:
            out.append(f"event: {t} {kind} {arg}")
        out.append(f"ticks: {ticks}")
        out += rle(samples)
        out.append(f"final: mode {mode} error {error} tick {tick}")
        with open(os.path.join(folder, f"{name}.txt"), "w") as f:
            f.write("\n".join(out) + "\n")
    print(f"{len(VECTORS)} vectors written to {os.path.relpath(folder)}")


def define():
    E = ref.ERR

    # -- opcodes and timing --
    vector("op_end_only", "END at time 0: nothing plays; the END tick is the first brake tick.",
           program([("END", 0)]))
    vector("op_set_a", "SET_A steps; SHARP set but the S channel stays 0.",
           program([("SET_A", 0, 200), ("SET_A", 5, 50), ("SET_A", 4, 255), ("END", 6)]))
    vector("op_set_s", "SET_S with the amplitude on; the S channel shows only while amp > 0.",
           program([("SET_S", 0, 77), ("SET_A", 3, 100), ("SET_S", 3, 250), ("SET_A", 3, 0),
                    ("SET_A", 2, 9), ("END", 2)]))
    vector("op_ramp_a", "RAMP_A up 0->255 over 10 ticks, hold, RAMP_A down over 5.",
           program([("RAMP_A", 0, 255, 10), ("RAMP_A", 14, 0, 5), ("END", 8)]))
    vector("op_ramp_s", "RAMP_S under a constant amplitude.",
           program([("SET_A", 0, 120), ("RAMP_S", 0, 200, 8), ("RAMP_S", 10, 10, 3), ("END", 6)]))
    vector("op_pulse", "A single PULSE, sharp 0 (20 ticks).",
           program([("PULSE", 2, 180, 0), ("END", 30)]))
    vector("op_loop", "LOOP 3 around a step pattern of period 4.",
           program([("LOOP", 1, 3), ("SET_A", 0, 100), ("SET_A", 2, 0), ("ENDLOOP", 2), ("END", 3)]))
    vector("op_flags_no_sharp", "SHARP clear: PULSE still sets its length, output sharp is always 0.",
           program([("SET_A", 0, 60), ("PULSE", 3, 200, 255), ("END", 15)], flags=0))
    vector("delay_extended",
           "Delays 30, 31 (d=31, varint 0), 32, 158 (one varint byte 127) and 159 (two bytes).",
           program([("SET_A", 30, 1), ("SET_A", 31, 2), ("SET_A", 32, 3), ("SET_A", 158, 4),
                    ("SET_A", 159, 5), ("END", 3)]))
    vector("delay_long", "A delay of 100000 ticks (3-byte varint); output sampled over 40 ticks only.",
           program([("SET_A", 0, 10), ("SET_A", 100000, 20), ("END", 1)]), ticks=40)
    vector("same_tick_order", "Instructions at one tick run in order: the last SET wins.",
           program([("SET_A", 2, 10), ("SET_A", 0, 20), ("SET_A", 0, 30), ("END", 3)]))

    # -- ramps --
    vector("ramp_even_up", "0 -> 100 over D=10 (even): exact line, rounding half up at every tick.",
           program([("RAMP_A", 0, 100, 10), ("END", 13)]))
    vector("ramp_odd_up", "0 -> 100 over D=7 (odd).",
           program([("RAMP_A", 0, 100, 7), ("END", 10)]))
    vector("ramp_odd_down", "255 -> 4 over D=9 (odd), rounding away from v0.",
           program([("SET_A", 0, 255), ("RAMP_A", 1, 4, 9), ("END", 12)]))
    vector("ramp_even_down", "200 -> 3 over D=6.",
           program([("SET_A", 0, 200), ("RAMP_A", 0, 3, 6), ("END", 9)]))
    vector("ramp_rounding_half", "0 -> 1 over D=2: floor((k+1)/2) gives 0, 1, 1; and 0 -> 3 over 2.",
           program([("RAMP_A", 0, 1, 2), ("SET_A", 4, 0), ("RAMP_A", 1, 3, 2), ("END", 4)]))
    vector("ramp_d0", "D=0 is a step, at the instruction's own tick.",
           program([("SET_A", 0, 10), ("RAMP_A", 3, 90, 0), ("END", 3)]))
    vector("ramp_d1", "D=1: the start tick still shows v0, the next shows v1.",
           program([("SET_A", 0, 10), ("RAMP_A", 3, 90, 1), ("END", 3)]))
    vector("ramp_d_equals_dv", "0 -> 8 over D=8: one code per tick.",
           program([("RAMP_A", 0, 8, 8), ("END", 10)]))
    vector("ramp_small_dv_long_d", "0 -> 3 over D=1000: steps at 167, 500, 834 (half-up of k*3/1000).",
           program([("RAMP_A", 0, 3, 1000), ("END", 1002)]))
    vector("ramp_long_d_varint", "10 -> 250 over D=20000 (3-byte varint duration).",
           program([("SET_A", 0, 10), ("RAMP_A", 0, 250, 20000), ("END", 20005)]),
           ticks=20005 + 5)
    vector("ramp_full_scale_fast", "0 -> 255 over D=3 then 255 -> 0 over D=2.",
           program([("RAMP_A", 0, 255, 3), ("RAMP_A", 3, 0, 2), ("END", 4)]))
    vector("ramp_flat", "A ramp to the current value changes nothing.",
           program([("SET_A", 0, 70), ("RAMP_A", 1, 70, 9), ("END", 10)]))
    vector("ramp_interrupted_by_ramp", "0 -> 200 over 20, interrupted at k=7 by a ramp to 0 over 5.",
           program([("RAMP_A", 0, 200, 20), ("RAMP_A", 7, 0, 5), ("END", 8)]))
    vector("ramp_interrupted_by_set", "A ramp interrupted by SET at k=4.",
           program([("RAMP_A", 0, 200, 10), ("SET_A", 4, 33), ("END", 4)]))
    vector("ramp_same_tick_set_then_ramp", "SET_A 100 then RAMP_A at the same tick ramps from 100.",
           program([("SET_A", 0, 5), ("SET_A", 2, 100), ("RAMP_A", 0, 200, 4), ("END", 6)]))
    vector("ramp_same_tick_two_ramps", "Two ramps at one tick: the second starts from the first's v0.",
           program([("SET_A", 0, 50), ("RAMP_A", 1, 250, 10), ("RAMP_A", 0, 0, 5), ("END", 8)]))
    vector("ramp_both_channels", "Independent ramps on A and S with different durations.",
           program([("RAMP_A", 0, 255, 11), ("RAMP_S", 0, 255, 4), ("RAMP_S", 6, 0, 9),
                    ("RAMP_A", 7, 1, 3), ("END", 10)]))
    vector("ramp_to_zero_sharp_zero", "When the amplitude ramps to 0 the sharpness code is 0 too.",
           program([("SET_S", 0, 99), ("RAMP_A", 0, 6, 3), ("RAMP_A", 5, 0, 3), ("END", 5)]))

    # -- loops --
    vector("loop_count_1", "LOOP 1 plays its body once.",
           program([("LOOP", 0, 1), ("SET_A", 1, 40), ("SET_A", 2, 0), ("ENDLOOP", 1), ("END", 2)]))
    vector("loop_count_255", "LOOP 255 with a 2-tick period: 510 ticks.",
           program([("LOOP", 0, 255), ("SET_A", 0, 200), ("SET_A", 1, 0), ("ENDLOOP", 1), ("END", 0)]))
    vector("loop_nested_2", "Two nested loops (3 x 2) with ramps.",
           program([("LOOP", 0, 3), ("RAMP_A", 0, 100, 4), ("LOOP", 0, 2), ("SET_S", 1, 50),
                    ("SET_S", 1, 150), ("ENDLOOP", 0), ("ENDLOOP", 2), ("END", 1)]))
    vector("loop_nested_4", "Four nested loops (the maximum depth), 2 x 2 x 2 x 3.",
           program([("LOOP", 0, 2), ("LOOP", 0, 2), ("LOOP", 1, 2), ("LOOP", 0, 3),
                    ("PULSE", 0, 90, 255), ("SET_A", 1, 20), ("ENDLOOP", 1), ("ENDLOOP", 1),
                    ("SET_A", 0, 0), ("ENDLOOP", 2), ("ENDLOOP", 1), ("END", 1)]))
    vector("loop_body_delay_0", "The body's first instruction has delay 0: it runs at the ENDLOOP's tick.",
           program([("LOOP", 2, 4), ("SET_A", 0, 10), ("RAMP_A", 0, 60, 3), ("ENDLOOP", 3),
                    ("END", 4)]))
    vector("loop_ramp_crosses_iterations", "A ramp longer than the loop period keeps running into the "
           "next iteration until interrupted.",
           program([("SET_A", 0, 0), ("LOOP", 0, 3), ("RAMP_A", 1, 255, 10), ("ENDLOOP", 3),
                    ("END", 12)]))
    vector("loop_back_to_back", "Two loops in sequence, the second starting at the first's end tick.",
           program([("LOOP", 0, 2), ("SET_A", 0, 30), ("ENDLOOP", 2), ("LOOP", 0, 3),
                    ("SET_A", 0, 60), ("SET_A", 1, 0), ("ENDLOOP", 1), ("END", 1)]))
    vector("loop_end_at_loop_end", "END with delay 0 right after a loop: T is the loop's end.",
           program([("LOOP", 0, 5), ("PULSE", 0, 255, 255), ("ENDLOOP", 12), ("END", 0)]))
    vector("loop_9_per_tick", "The per-tick bound (1.15): at tick 4, 5 instructions up to the "
           "ENDLOOP (its run), then the jump and the 4 zero-delay instructions heading the body (its "
           "head): 9, the most rule (e) allows.",
           program([("LOOP", 1, 2)] + [("SET_A", 0, 5 + i) for i in range(4)]
                   + [("SET_A", 3, 100)] + [("SET_A", 0, 101 + i) for i in range(3)]
                   + [("ENDLOOP", 0), ("END", 2)]))
    vector("loop_head_nested", "Heads of nested loops (1.6 (e)): the outer head counts the inner "
           "LOOP and its head (1 + 4); at the outer jump 4 + 5 = 9 execute.",
           program([("LOOP", 1, 2), ("LOOP", 0, 2)] + [("SET_A", 0, 10 * i) for i in range(4)]
                   + [("PULSE", 3, 200, 255), ("SET_S", 0, 9), ("ENDLOOP", 0), ("SET_A", 2, 0),
                      ("SET_S", 0, 3), ("SET_A", 0, 1), ("ENDLOOP", 0), ("END", 3)]))

    # -- pulses --
    for sharp, length in ((0, 20), (12, 20), (13, 19), (128, 15), (243, 11), (244, 10), (255, 10)):
        assert ref.pulse_length(sharp) == length
        vector(f"pulse_length_sharp_{sharp}", f"PULSE with sharp {sharp} lasts {length} ticks.",
               program([("PULSE", 1, 150, sharp), ("END", 25)]))
    vector("pulse_over_envelope", "A pulse above the envelope wins with its sharpness.",
           program([("SET_A", 0, 100), ("SET_S", 0, 10), ("PULSE", 2, 200, 220), ("END", 14)]))
    vector("pulse_under_envelope", "A pulse below the envelope is hidden.",
           program([("SET_A", 0, 100), ("SET_S", 0, 10), ("PULSE", 2, 60, 220), ("END", 14)]))
    vector("pulse_tie_envelope", "Equal amp: the pulse wins the tie (its sharpness shows).",
           program([("SET_A", 0, 100), ("SET_S", 0, 10), ("PULSE", 2, 100, 220), ("END", 14)]))
    vector("pulse_under_ramp", "A ramp overtakes a pulse midway.",
           program([("SET_S", 0, 5), ("RAMP_A", 0, 250, 20), ("PULSE", 2, 120, 200), ("END", 22)]))
    vector("pulse_overlap_two", "Two overlapping pulses: max amp, its sharpness.",
           program([("PULSE", 0, 100, 0), ("PULSE", 5, 180, 255), ("END", 25)]))
    vector("pulse_tie_newest", "Equal amps: the newest pulse's sharpness shows.",
           program([("PULSE", 0, 100, 0), ("PULSE", 3, 100, 128), ("PULSE", 3, 100, 255), ("END", 22)]))
    vector("pulse_tie_same_tick", "Equal amps started at one tick: the later instruction wins.",
           program([("PULSE", 1, 90, 40), ("PULSE", 0, 90, 60), ("END", 22)]))
    vector("pulse_five_voices", "Five overlapping pulses: the fifth evicts the oldest (the loudest).",
           program([("PULSE", 0, 250, 0), ("PULSE", 1, 50, 0), ("PULSE", 1, 60, 0),
                    ("PULSE", 1, 70, 0), ("PULSE", 1, 80, 100), ("END", 22)]))
    vector("pulse_five_same_tick", "Five pulses at one tick: the first is evicted.",
           program([("PULSE", 0, 255, 0), ("PULSE", 0, 10, 1), ("PULSE", 0, 20, 2), ("PULSE", 0, 30, 3),
                    ("PULSE", 0, 40, 4), ("END", 22)]))
    vector("pulse_free_voice_reuse", "A voice whose pulse ended is free: no eviction (oldest short pulse "
           "ends first).",
           program([("PULSE", 0, 200, 255), ("PULSE", 1, 50, 0), ("PULSE", 1, 60, 0), ("PULSE", 1, 70, 0),
                    ("PULSE", 7, 80, 0), ("END", 20)]))
    vector("pulse_evict_oldest_not_shortest", "With 4 voices busy the oldest goes, even when another "
           "ends sooner.",
           program([("PULSE", 0, 200, 0), ("PULSE", 1, 150, 255), ("PULSE", 1, 60, 0), ("PULSE", 1, 70, 0),
                    ("PULSE", 1, 10, 0), ("END", 22)]))
    vector("pulse_zero_amp", "A zero-amp pulse takes a voice (evicting the oldest) and ties with a zero "
           "envelope.",
           program([("PULSE", 0, 200, 0), ("PULSE", 0, 1, 0), ("PULSE", 0, 2, 0), ("PULSE", 0, 3, 0),
                    ("PULSE", 2, 0, 255), ("END", 22)]))
    vector("pulse_cut_by_end", "END cuts a running pulse.",
           program([("PULSE", 0, 180, 0), ("END", 7)]))
    vector("pulse_in_loop", "Pulses repeated by a loop, period 12 (shorter than sharp-0 pulses' 20).",
           program([("LOOP", 0, 4), ("PULSE", 0, 200, 0), ("PULSE", 6, 100, 255), ("ENDLOOP", 6),
                    ("END", 20)]))

    # -- live controls --
    busy = program([("SET_S", 0, 128), ("RAMP_A", 0, 255, 20), ("PULSE", 25, 255, 64), ("END", 20)])
    for m in (0, 1, 127, 128, 129, 200, 254, 255):
        vector(f"live_scale_{m}", f"Master scale {m} from tick 0 (m' = m + (m >> 7)).", busy,
               events=[(0, "scale", m)])
    vector("live_scale_changes", "Scale changed mid-ramp and mid-pulse.", busy,
           events=[(5, "scale", 128), (12, "scale", 64), (27, "scale", 255), (30, "scale", 10)])
    for o in (-128, -50, 50, 127):
        vector(f"live_offset_{o}".replace("-", "minus_"), f"Sharpness offset {o}, clamped to 0..255.",
               busy, events=[(0, "offset", o)])
    vector("live_offset_changes", "Offset changes over a sharpness ramp.",
           program([("SET_A", 0, 90), ("RAMP_S", 0, 255, 20), ("END", 24)]),
           events=[(3, "offset", 30), (10, "offset", -100), (18, "offset", 0)])
    vector("live_offset_no_sharp", "Offset with SHARP clear: sharpness stays 0.",
           program([("SET_A", 0, 90), ("PULSE", 2, 100, 200), ("END", 10)], flags=0),
           events=[(0, "offset", 100)])
    vector("live_scale_to_zero_sharp", "Scale 0 makes amp 0, so sharp 0.",
           program([("SET_A", 0, 90), ("SET_S", 0, 90), ("END", 10)]), events=[(4, "scale", 0)])
    vector("live_in_idle", "Controls set while braking and idle are kept (no output change).",
           program([("SET_A", 0, 90), ("END", 3)]),
           events=[(4, "scale", 10), (7, "offset", 5)], ticks=10)

    # -- stop and end --
    ramp_long = program([("SET_S", 0, 40), ("RAMP_A", 0, 200, 30), ("END", 40)])
    vector("stop_brake", "Stop with brake mid-ramp: brake_ticks brake samples, then idle.", ramp_long,
           events=[(10, "stop", "brake")], ticks=20)
    vector("stop_nobrake", "Stop without brake mid-ramp: idle at once.", ramp_long,
           events=[(10, "stop", "nobrake")], ticks=15)
    vector("stop_brake_while_braking", "Stop with brake during the brake: no change.", ramp_long,
           events=[(10, "stop", "brake"), (12, "stop", "brake")], ticks=20)
    vector("stop_nobrake_while_braking", "Stop without brake cuts a running brake.", ramp_long,
           events=[(10, "stop", "brake"), (11, "stop", "nobrake")], ticks=16)
    vector("stop_at_tick_0", "Stop before the first tick.", ramp_long, events=[(0, "stop", "brake")],
           ticks=8)
    vector("stop_when_idle", "Stop requests when idle do nothing.", program([("END", 1)]),
           events=[(6, "stop", "brake"), (7, "stop", "nobrake")], ticks=9)
    vector("end_brake_0", "brake_ticks = 0: END goes straight to idle.",
           program([("SET_A", 0, 250), ("END", 5)]), cfg=ref.Config(brake=0))
    vector("end_brake_20", "Default brake_ticks 20 after END.",
           program([("SET_A", 0, 250), ("END", 5)]), cfg=ref.Config())
    vector("stop_brake_0", "brake_ticks = 0: stop with brake goes idle at once.", ramp_long,
           cfg=ref.Config(brake=0), events=[(10, "stop", "brake")], ticks=14)
    vector("end_after_silence", "END long after the last output change.",
           program([("SET_A", 0, 5), ("SET_A", 3, 0), ("END", 40)]))

    # -- safety limiter --
    vector("safety_exact_limit", "Threshold 224, limit 5: exactly 5 full-scale ticks are allowed.",
           program([("SET_A", 0, 224), ("SET_A", 5, 100), ("END", 3)]),
           cfg=ref.Config(brake=3, safety=5))
    vector("safety_fault", "The 6th consecutive tick >= 224 faults: brake, error 49.",
           program([("SET_A", 0, 255), ("END", 20)]), cfg=ref.Config(brake=3, safety=5))
    vector("safety_reset_by_dip", "One tick below the threshold resets the count.",
           program([("SET_A", 0, 230), ("SET_A", 5, 223), ("SET_A", 1, 230), ("END", 5)]),
           cfg=ref.Config(brake=3, safety=5))
    vector("safety_scaled_below", "The limiter counts scaled output: scale 200 keeps 255 below 224.",
           program([("SET_A", 0, 255), ("END", 20)]), cfg=ref.Config(brake=3, safety=5),
           events=[(0, "scale", 200)])
    vector("safety_pulses_count", "Pulses count toward the limit like the envelope.",
           program([("SET_A", 0, 200), ("PULSE", 1, 240, 255), ("PULSE", 10, 240, 255), ("END", 20)]),
           cfg=ref.Config(brake=2, safety=12))
    vector("safety_threshold_custom", "Threshold 100, limit 0: the first tick at 100 faults.",
           program([("SET_A", 0, 99), ("SET_A", 3, 100), ("END", 3)]),
           cfg=ref.Config(brake=2, threshold=100, safety=0))

    # -- validation errors (1.6), one or more per code --
    body, listing = asm([("SET_A", 0, 10), ("END", 1)])
    good = header(body, 1) + body
    vector("err_header_truncated", "15 bytes.", good[:15])
    vector("err_header_empty", "No bytes at all.", b"")
    vector("err_bad_magic", "Magic 'HQ'.", header(body, 1, magic=b"HQ") + body)
    vector("err_bad_version", "Version 1 (a 1.0 program, valid there): error 3.", header(body, 1, version=1) + body)
    vector("err_bad_version_3", "Version 3.", header(body, 1, version=3) + body)
    vector("err_bad_flags", "Flag bit 1 set.", header(body, 1, flags=3) + body)
    vector("err_bad_rate", "Rate 500 on a 1000 Hz device.", header(body, 1, rate=500) + body)
    vector("err_too_large", "Body longer than max_body (3 > 2).", good, cfg=ref.Config(brake=3, max_body=2))
    vector("max_body_exact_ok", "A body of exactly max_body bytes is accepted.", good,
           cfg=ref.Config(brake=3, max_body=3))
    vector("err_length_short", "Header says 4 body bytes, 3 follow.", good[:-1])
    vector("err_length_long", "One byte more than the header says.", good + b"\x00")
    vector("err_bad_crc", "CRC off by one.", header(body, 1, crc=ref.crc16(body) ^ 1) + body)
    vector("err_bad_rate_before_crc", "Header errors come before the CRC check.",
           header(body, 1, rate=999, crc=0) + body)

    def raw(body_bytes, total, flags=1):
        return header(body_bytes, total, flags=flags) + body_bytes

    vector("err_truncated_operand", "SET_A without its value.", raw(bytes([0x00]), 0))
    vector("err_truncated_pulse", "PULSE with one operand byte.", raw(bytes([0x80, 0x10]), 0))
    vector("err_truncated_ramp_dur", "RAMP_A whose duration varint is cut.", raw(bytes([0x20, 0x10, 0x85]), 0))
    vector("err_truncated_delay_varint", "Extended delay whose varint is missing.", raw(bytes([0xFF]), 31))
    vector("err_varint_too_long", "Delay varint with 4 continuation bytes.",
           raw(bytes([0xFF, 0x80, 0x80, 0x80, 0x80, 0x01]), 0))
    vector("err_varint_too_long_dur", "Ramp duration varint of 5 bytes.",
           raw(bytes([0x20, 0x10, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0xE0]), 0))
    vector("err_varint_noncanonical", "Delay varint 0x80 0x00 (zero in two bytes).",
           raw(bytes([0x1F, 0x80, 0x00, 0x05, 0xE0]), 31))
    vector("err_varint_noncanonical_dur", "Ramp duration 0x81 0x80 0x00.",
           raw(bytes([0x20, 0x10, 0x81, 0x80, 0x00, 0xE0]), 0))
    vector("varint_max_ok", "The largest 4-byte varint delay (31 + 2^28 - 1) is valid; 20 ticks shown.",
           raw(bytes([0x00, 0x44, 0x1F, 0xFF, 0xFF, 0xFF, 0x7F, 0x07, 0xE0]), 31 + 2**28 - 1), ticks=20)
    vector("err_no_sharp_set_s", "SET_S with SHARP clear.",
           program([("SET_A", 0, 1), ("SET_S", 0, 1), ("END", 1)], flags=0))
    vector("err_no_sharp_ramp_s", "RAMP_S with SHARP clear.",
           program([("RAMP_S", 0, 1, 4), ("END", 1)], flags=0))
    vector("err_loop_count_zero", "LOOP 0.", raw(bytes([0xA0, 0x00, 0xC1, 0xE0]), 1))
    vector("err_loop_too_deep", "Five nested loops.",
           raw(asm([("LOOP", 0, 2)] * 5 + [("SET_A", 1, 1)] + [("ENDLOOP", 0)] * 5 + [("END", 0)])[0], 32))
    vector("err_endloop_without_loop", "ENDLOOP with no open loop.",
           raw(asm([("SET_A", 0, 1), ("ENDLOOP", 1), ("END", 0)])[0], 1))
    vector("err_loop_empty", "A loop whose iteration takes 0 ticks.",
           raw(asm([("LOOP", 1, 3), ("SET_A", 0, 9), ("ENDLOOP", 0), ("END", 1)])[0], 2))
    vector("err_loop_unterminated", "END inside a loop.",
           raw(asm([("LOOP", 0, 2), ("SET_A", 1, 9), ("END", 1)])[0], 2))
    vector("err_end_not_last", "A byte after END.", raw(asm([("SET_A", 0, 9), ("END", 1)])[0] + b"\x00", 1))
    vector("err_end_missing", "The body ends without END.", raw(asm([("SET_A", 0, 9)])[0], 0))
    vector("err_end_missing_empty_body", "Empty body.", raw(b"", 0))
    vector("err_ticks_mismatch_end_early", "END at 5, header says 6.",
           raw(asm([("SET_A", 0, 9), ("END", 5)])[0], 6))
    vector("err_ticks_mismatch_late", "An instruction after total_ticks fails at that instruction, "
           "before the later END_NOT_LAST.",
           raw(asm([("SET_A", 0, 9), ("SET_A", 9, 0), ("END", 0)])[0] + b"\x00", 5))
    vector("err_ticks_mismatch_loop", "A loop expanding past total_ticks (3 x 4 = 12 > 10).",
           raw(asm([("LOOP", 0, 3), ("SET_A", 1, 9), ("ENDLOOP", 3), ("END", 0)])[0], 10))
    vector("err_ticks_overflow_delay", "Delays summing past 2^32 - 1.",
           raw(asm([("SET_A", 2**28 + 30, 1)] * 16 + [("SET_A", 2**28 + 30, 1), ("END", 0)])[0],
               2**32 - 1))
    vector("err_ticks_overflow_loop", "A loop of 255 x 2^28 ticks.",
           raw(asm([("LOOP", 0, 255), ("SET_A", 2**28, 1), ("ENDLOOP", 0), ("END", 0)])[0], 2**32 - 1))
    vector("err_run_too_long", "10 instructions at one time.",
           raw(asm([("SET_A", 0, i) for i in range(10)] + [("END", 1)])[0], 1))
    vector("run_9_t0_ok", "9 instructions at time 0, END among them: T = 0 is never restarted, so "
           "rule (e) does not apply.",
           program([("SET_A", 0, i * 10) for i in range(8)] + [("END", 0)]))
    vector("run_9_after_delay_ok", "A run counts the first (delayed) instruction: 1 + 8 zero-delay.",
           program([("SET_A", 1, 1), ("SET_A", 1, 2)] + [("SET_A", 0, i) for i in range(8)] + [("END", 1)]))
    vector("err_run_10_after_delay", "1 + 9 zero-delay instructions: error 26.",
           raw(asm([("SET_A", 1, 1), ("SET_A", 1, 2)] + [("SET_A", 0, i) for i in range(9)]
                   + [("END", 1)])[0], 3))
    vector("run_restart_9_ok", "8 instructions at tick 0 and END alone at T: a looped play's restart "
           "executes 1 + 8 = 9.",
           program([("SET_A", 0, i * 10) for i in range(4)] + [("PULSE", 0, 50 + i, 0) for i in range(4)]
                   + [("END", 30)]))
    vector("err_run_restart_10", "8 instructions at tick 0, SET_A and END at T: the restart's tick "
           "would execute 2 + 8 (rule (e) at END): error 26.",
           raw(asm([("SET_A", 0, i * 10) for i in range(8)] + [("SET_A", 30, 0), ("END", 0)])[0], 30))
    vector("err_run_jump_10", "A jump's tick: the ENDLOOP's run (5) and the body's head (5): error 26 "
           "at the ENDLOOP.",
           raw(asm([("LOOP", 1, 2)] + [("SET_A", 0, i) for i in range(5)] + [("SET_A", 3, 0)]
                   + [("SET_A", 0, i) for i in range(3)] + [("ENDLOOP", 0), ("END", 2)])[0], 9))
    vector("err_run_jump_count_1", "Rule (e) holds at every ENDLOOP, even one of a loop that never "
           "jumps (count 1).",
           raw(asm([("LOOP", 1, 1)] + [("SET_A", 0, i) for i in range(5)] + [("SET_A", 3, 0)]
                   + [("SET_A", 0, i) for i in range(3)] + [("ENDLOOP", 0), ("END", 2)])[0], 6))
    vector("err_run_jump_nested", "Heads nest: the outer head (the inner LOOP and its 6) and the "
           "outer ENDLOOP's run (3) make 10.",
           raw(asm([("LOOP", 1, 2), ("LOOP", 0, 2)] + [("SET_A", 0, i) for i in range(6)]
                   + [("SET_A", 4, 0), ("ENDLOOP", 0), ("ENDLOOP", 0), ("END", 1)])[0], 18))
    vector("err_run_jump_before_empty", "An ENDLOOP whose iteration is empty: error 25 comes first "
           "(the head is still open).",
           raw(asm([("LOOP", 1, 2)] + [("SET_A", 0, i) for i in range(8)] + [("ENDLOOP", 0), ("END", 1)])[0], 2))
    vector("err_order_first_wins", "Two errors: the earlier instruction's (LOOP 0) is reported, not "
           "the missing END.", raw(bytes([0xA0, 0x00, 0x01, 0x05]), 1))
    vector("err_invalid_while_playing", "A rejected program still brakes (from idle here).",
           raw(bytes([0xC0, 0xE0]), 0), cfg=ref.Config(brake=4))

    # -- streamed programs (1.14) --
    s_lines = [("SET_A", 0, 100), ("RAMP_A", 2, 200, 4), ("PULSE", 3, 250, 255), ("SET_A", 5, 0),
               ("END", 3)]
    s_prog, s_listing = program(s_lines)
    s_body = s_prog[16:]
    vector("stream_all_present", "Streamed, whole body written before tick 0: plays like flat.",
           (s_prog, s_listing), stream=(16, len(s_body)))
    vector("stream_fed_in_time", "Streamed in pieces, each instruction written by the tick it is "
           "fetched (the tick the previous one executes).",
           (s_prog, s_listing), stream=(8, 2), events=[(0, "feed", 3), (2, "feed", 3), (5, "feed", 3)])
    vector("stream_underrun", "The PULSE is not written when the RAMP executes at tick 2: "
           "underrun there.",
           (s_prog, s_listing), stream=(8, 2), events=[(0, "feed", 3), (3, "feed", 6)])
    vector("stream_underrun_first", "Nothing written at tick 0: underrun at once.",
           (s_prog, s_listing), stream=(8, 0), events=[(1, "feed", 8)])
    vector("stream_loop", "LOOP in a streamed program: error 23 at its fetch.",
           program([("SET_A", 0, 50), ("LOOP", 2, 2), ("SET_A", 1, 0), ("ENDLOOP", 1), ("END", 0)]),
           stream=(16, 9))
    vector("stream_bad_crc", "A streamed program with a wrong CRC plays, then faults at END's fetch.",
           header(s_body, 13, crc=ref.crc16(s_body) ^ 0x8000) + s_body, stream=(16, len(s_body)),
           listing=s_listing)
    vector("stream_end_missing", "A streamed body without END: error 30 when the fetch reaches its end.",
           raw(asm([("SET_A", 0, 80), ("SET_A", 4, 20)])[0], 9), stream=(8, 4))
    vector("stream_truncated", "A streamed instruction cut by the body's end: error 16.",
           raw(asm([("SET_A", 0, 80)])[0] + b"\x20\x05", 9), stream=(8, 4))
    vector("stream_ticks_late", "A streamed instruction later than total_ticks: error 29 at its fetch.",
           raw(asm([("SET_A", 0, 80), ("SET_A", 6, 10), ("END", 0)])[0], 4), stream=(8, 5))
    vector("err_stream_bad_rate", "A streamed header with a wrong rate is rejected at load.",
           header(s_body, 13, rate=2000) + s_body, stream=(16, len(s_body)))
    vector("stream_ignores_max_body", "max_body does not limit a stream (body 13 > max_body 8).",
           (s_prog, s_listing), cfg=ref.Config(brake=3, max_body=8), stream=(16, len(s_body)))
    vector("stream_stop", "Stop with brake while streaming: no underrun is reported afterwards.",
           (s_prog, s_listing), stream=(8, 2), events=[(0, "feed", 3), (1, "stop", "brake")])


def define_random(seed, count):
    """Random valid programs (nested loops, ramps, pulses, both channels) of at most 3000 ticks,
    with random scale / offset / stop events and configurations."""
    import random
    rng = random.Random(seed)

    def block(depth):
        lines = []
        for _ in range(rng.randint(1, 6)):
            k, d = rng.random(), rng.choice([0, 0, 1, 2, 3, 5, 8, 13, 31, 40])
            if k < 0.12 and depth < 4:
                lines += [("LOOP", d, rng.choice([1, 2, 3, 7]))] + block(depth + 1) + [("ENDLOOP", rng.randint(1, 9))]
            elif k < 0.3:
                lines.append(("SET_A", d, rng.randrange(256)))
            elif k < 0.5:
                lines.append(("RAMP_A", d, rng.randrange(256), rng.choice([0, 1, 2, 3, 7, 10, 33, 300])))
            elif k < 0.6:
                lines.append(("SET_S", d, rng.randrange(256)))
            elif k < 0.7:
                lines.append(("RAMP_S", d, rng.randrange(256), rng.choice([0, 1, 5, 64])))
            else:
                lines.append(("PULSE", d, rng.randrange(256), rng.randrange(256)))
        return lines

    made = 0
    while made < count:
        prog, listing = program(block(0) + [("END", rng.randint(0, 20))])
        try:
            total = ref.validate(prog, ref.Config())[0]["total"]
        except ref.Reject:
            continue  # e.g. more than 9 instructions at one tick
        if total > 3000:
            continue
        events = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice(["scale", "offset", "stop"])
            arg = {"scale": lambda: rng.randrange(256), "offset": lambda: rng.randrange(-128, 128),
                   "stop": lambda: rng.choice(["brake", "nobrake"])}[kind]()
            events.append((rng.randrange(total + 5), kind, arg))
        events.sort(key=lambda e: e[0])
        cfg = ref.Config(brake=rng.choice([0, 3]), safety=rng.choice([30000, 7, 40]),
                         threshold=rng.choice([224, 150]))
        vector(f"random_{made:05d}", f"random program, seed {seed}", (prog, listing), cfg=cfg, events=events)
        made += 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--random":
        define_random(int(sys.argv[2]), int(sys.argv[3]))
        write_all(sys.argv[4])
    else:
        define()
        write_all()
