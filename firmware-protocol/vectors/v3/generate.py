#!/usr/bin/env python3
"""Writes the protocol 3 vectors (format in README.md): programs.txt, trim.txt and one
sessions/*.txt per device session, from the independent reference (program3.py, player3.py,
device3.py) of PROTOCOL-3.md.

Run: python3 firmware-protocol/vectors/v3/generate.py [DIR]   (DIR: where to write; default here)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import device3 as d3  # noqa: E402
import player3 as pl  # noqa: E402
import program3 as p3  # noqa: E402
import session3 as s3  # noqa: E402
from program3 import ref  # noqa: E402

prog, play, stop, control, set_param = s3.prog, s3.play, s3.stop, s3.control, s3.set_param
u32 = s3.u32

RUMBLE = prog([("SET_S", 0, 40), ("RAMP_A", 0, 160, 10), ("RAMP_A", 60, 0, 10), ("END", 10)])      # T = 70
TAP = prog([("PULSE", 2, 255, 255), ("END", 12)])                                                  # T = 14
LOUD = prog([("SET_A", 0, 200), ("END", 40)])                                                      # T = 40
HEARTBEAT = prog([("SET_S", 0, 90), ("LOOP", 0, 4), ("RAMP_A", 0, 220, 4), ("RAMP_A", 6, 0, 6),
                  ("PULSE", 8, 200, 120), ("ENDLOOP", 20), ("END", 5)])                            # T = 141
OPEN_LOOP = prog([("LOOP", 0, 3), ("RAMP_A", 0, 200, 10), ("ENDLOOP", 5), ("END", 1)])          # error 31
FORMAT_2 = s3.pg.program([("SET_A", 0, 9), ("END", 3)])[0]                                   # version 2


# ---- programs.txt ----

PROGRAMS = [
    ("rumble", RUMBLE), ("tap", TAP), ("loud", LOUD), ("heartbeat", HEARTBEAT),
    ("open_loop", OPEN_LOOP), ("format_2", FORMAT_2),
    ("closed_nested", prog([("LOOP", 1, 5), ("LOOP", 0, 3), ("SET_A", 0, 100), ("PULSE", 0, 50, 255),
                            ("SET_A", 4, 0), ("ENDLOOP", 6), ("RAMP_S", 0, 80, 2), ("ENDLOOP", 3), ("END", 2)])),
    ("pulse_across_end", prog([("LOOP", 0, 2), ("PULSE", 0, 100, 0), ("ENDLOOP", 10), ("END", 30)])),
    ("ramp_ends_at_boundary", prog([("LOOP", 0, 9), ("RAMP_A", 0, 200, 5), ("ENDLOOP", 5), ("END", 0)])),
    ("inner_ramp_open", prog([("LOOP", 0, 2), ("LOOP", 0, 2), ("RAMP_A", 0, 90, 3), ("ENDLOOP", 2),
                              ("ENDLOOP", 20), ("END", 0)])),
    ("run_9_restart", prog([("SET_A", 0, 1), ("SET_A", 0, 2), ("SET_A", 0, 3), ("SET_A", 0, 4),
                            ("SET_A", 5, 0), ("SET_A", 0, 1), ("SET_A", 0, 2), ("SET_A", 0, 3),
                            ("END", 0)])),
    ("run_10_restart", prog([("SET_A", 0, 1), ("SET_A", 0, 2), ("SET_A", 0, 3), ("SET_A", 0, 4),
                             ("SET_A", 5, 0), ("SET_A", 0, 1), ("SET_A", 0, 2), ("SET_A", 0, 3),
                             ("SET_A", 0, 4), ("END", 0)])),
]


def write_programs(folder):
    lines = ["# Format 3 programs (PROTOCOL-3.md 3.1): the load result with the device defaults (rate 1000,",
             "# max_body 4096), and for valid ones T, the peak (3.1) and the seek bound X (3.5).",
             "# program <name> <hex>",
             "# expect: ok total <T> peak <P> seek_bound <X>   or   expect: error <code>"]
    for name, program in PROGRAMS:
        lines.append(f"program {name} {program.hex()}")
        try:
            header, instructions = p3.validate3(program, ref.Config())
            lines.append(f"expect: ok total {header['total']} peak {p3.peak(instructions)} "
                         f"seek_bound {p3.seek_cost_bound(instructions)}")
        except ref.Reject as r:
            lines.append(f"expect: error {r.code}")
    with open(os.path.join(folder, "programs.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


# ---- trim.txt ----

TRIMS = [
    ("atmega328p_plus_5000", 16000, [(0, 5000)], 2000),
    ("atmega328p_minus_10000", 16000, [(0, -10000)], 2000),
    ("changes_keep_the_accumulator", 16000, [(0, 333), (7, -333), (13, 9999), (20, 0)], 40),
    ("virtual_device_ns", 1000000, [(0, -1)], 3000),
    ("odd_period", 12345, [(0, 77)], 1000),
]


def write_trim(folder):
    lines = ["# Tick trim (PROTOCOL-3.md 3.10): nominal period P in timer counts, trim changes (tick: ppm, in",
             "# force from that tick on), and the board time at which tick k starts, for every k listed.",
             "# trim <name> period=<P> changes=<tick:ppm,...> ticks=<n>",
             "# start <k> <counts>"]
    for name, period, changes, ticks in TRIMS:
        trims, tau, pending = [], 0, dict(changes)
        for k in range(ticks):
            tau = pending.get(k, tau)
            trims.append(tau)
        starts = pl.tick_mapping(period, trims, ticks)
        lines.append(f"trim {name} period={period} changes={','.join(f'{t}:{v}' for t, v in changes)} ticks={ticks}")
        shown = sorted(set(list(range(0, min(ticks, 25) + 1)) + list(range(0, ticks + 1, max(1, ticks // 20)))
                           + [ticks]))
        lines += [f"start {k} {starts[k]}" for k in shown]
    with open(os.path.join(folder, "trim.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


# ---- sessions ----

SESSIONS = []


def session(about, **cfg):
    def register(script):
        def run(folder):
            channels = cfg.pop("channels", 2)
            ch_cfg = cfg.pop("channel_cfg", [{} for _ in range(channels)])
            s = s3.Session(d3.Config3(channels=channels, channel_cfg=ch_cfg, **cfg))
            cfg.update(channels=channels, channel_cfg=ch_cfg)
            script(s)
            s.write(script.__name__, about, folder)
        SESSIONS.append(run)
        return script
    return register


@session("HELLO 3.0 -> INFO (52 bytes + name), HELLO 2.0 -> VERSION_INCOMPATIBLE 0x0300, INFO in parts, "
         "DESCRIBE per channel (out of range ignored), SET_CONFIG fade, trim in and out of range, sync refused",
         channels=2, channel_cfg=[{}, {"actuator": 2, "stage": 2, "profile_id": 9, "profile_name": "erm-coin",
                                      "brake": 10, "threshold": 200, "safety": 5000, "caps": 0}])
def hello_and_describe(s):
    s.command("HELLO", bytes([3, 0]))
    s.command("HELLO", bytes([2, 0]))
    s.command("HELLO", bytes([3, 0, 6]))
    s.command("HELLO", bytes([3, 0, 7]))
    s.message("DESCRIBE", bytes([0]), seq=40)
    s.message("DESCRIBE", bytes([1]), seq=41)
    s.message("DESCRIBE", bytes([2]), seq=42)
    s.run(2)
    s.command("SET_CONFIG", bytes([3]) + u32(4))
    s.command("SET_CONFIG", bytes([4]) + u32(-2500 & 0xFFFFFFFF))
    s.command("SET_CONFIG", bytes([4]) + u32(10001))
    s.command("SET_CONFIG", bytes([5]) + u32(1 | 100 << 16))
    s.command("HELLO", bytes([3, 0]))
    s.run(2)
    s.note("a v2 host that ignored the NACK: its PLAY (10 bytes) and STOP (1 byte) are too short")
    s.command("PLAY", bytes([0, 0]) + u32(0) + bytes([255, 0, 1, 0]))
    s.command("STOP", bytes([1]))
    s.message("SET_PARAM", bytes([128, 0]))
    s.run(2)


@session("one PLAY on channels 0 and 2 of 3 with a cold stage (W = 20): both start at tick 20, "
         "STARTED for each channel, the same samples on both, channel 1 idle", channels=3, wake=20)
def group_start(s):
    s.upload(0, RUMBLE)
    s.command("PLAY", play(1, 0b101, 0))
    s.run(130)


@session("two plays alongside on channel 0, SUM (saturating) then MAX, a third on channel 1: the "
         "transient does not cut the rumble; the weighted sharpness")
def alongside_sum_and_max(s):
    s.upload(0, RUMBLE)
    s.upload(1, TAP)
    s.command("PLAY", play(1, 0b01, 0, sum=True))
    s.run(15)
    s.command("PLAY", play(2, 0b01, 1, sum=True, scale=160))
    s.command("PLAY", play(3, 0b10, 1))
    s.run(30)
    s.command("PLAY", play(4, 0b01, 0, scale=100))                 # MAX next to the SUM rumble
    s.command("PLAY", play(5, 0b01, 1, scale=120))
    s.run(100)


@session("priority and duck: a tap of priority 1 ducks the rumble to m'(64) with the fade (R = 8) "
         "and hands it back when it ends; a tap with duck 0 pre-empts it; equal priorities mix")
def duck_and_hand_back(s):
    s.upload(0, RUMBLE)
    s.upload(1, TAP)
    s.command("PLAY", play(1, 1, 0, loops=0))
    s.run(20)
    s.command("PLAY", play(2, 1, 1, priority=1, duck=64))
    s.run(40)
    s.command("PLAY", play(3, 1, 1, priority=1, duck=0))
    s.run(40)
    s.command("PLAY", play(4, 1, 1))
    s.run(30)
    s.command("STOP", stop())
    s.run(25)


@session("a seek's fade and ducking: while a higher play fades out and in for a SEEK it does not "
         "sound, so the rumble under it rises back toward 256; from the tick its new position is "
         "output (the ACK value) it sounds and ducks again", channels=1)
def seek_fade_ducks(s):
    s.upload(0, RUMBLE)
    s.command("PLAY", play(1, 1, 0, loops=0))
    s.run(20)
    s.command("PLAY", play(2, 1, 0, loops=0, priority=1, duck=64))
    s.run(30)
    s.command("CONTROL", control(2, 1, "SEEK", 10))
    s.run(40)
    s.command("STOP", stop())
    s.run(25)


@session("replacing and cutting: a PLAY with a running id replaces it (STOPPED 1, no brake); "
         "one with CUT ends every other play on its channels (STOPPED 2); a pending play of the "
         "same id is replaced without notice")
def replace_and_cut(s):
    s.upload(0, RUMBLE)
    s.upload(1, TAP)
    s.command("PLAY", play(1, 0b11, 0, loops=0))
    s.command("PLAY", play(2, 0b01, 1, loops=0))
    s.run(10)
    s.command("PLAY", play(1, 0b01, 1, loops=0))                   # replaces play 1 on channel 0 only
    s.run(10)
    s.command("PLAY", play(7, 0b10, 1, at=s.now + 30))
    s.command("PLAY", play(7, 0b10, 0, at=s.now + 20, cut=True))  # replaces the pending one
    s.run(40)
    s.command("STOP", stop(brake=True))
    s.run(25)


@session("pause and resume, at once and scheduled: the held sample fades out over R = 8 ticks, "
         "zero while paused, the program resumes where it stopped fading in; a third scheduled "
         "control is SCHEDULE_FULL; STOP of a paused play brakes")
def pause_and_resume(s):
    s.upload(0, HEARTBEAT)
    s.command("PLAY", play(1, 0b11, 0))
    s.run(30)
    s.command("CONTROL", control(1, 0b01, "PAUSE"))
    s.run(20)
    s.command("CONTROL", control(1, 0b01, "RESUME"))
    s.command("CONTROL", control(1, 0b10, "PAUSE", at=s.now + 10))
    s.command("CONTROL", control(1, 0b10, "RESUME", at=s.now + 40))
    s.command("CONTROL", control(1, 0b10, "PAUSE", at=s.now + 50))
    s.run(60)
    s.command("CONTROL", control(1, 0b01, "PAUSE"))
    s.run(12)
    s.command("STOP", stop(1, 0b01))
    s.run(100)


@session("seek: a PLAY from tick 37 equals the play with its first 37 ticks dropped; SEEK while "
         "sounding fades out, lands at the ACKed tick and fades in; SEEK while paused moves at "
         "once; SEEK_RANGE and NO_SUCH_PLAY", channels=1)
def seek(s):
    s.upload(0, HEARTBEAT)
    s.command("PLAY", play(1, 1, 0, start=37))
    s.run(140)
    s.command("PLAY", play(2, 1, 0))
    s.run(20)
    s.command("CONTROL", control(2, 1, "SEEK", 100))
    s.run(30)
    s.command("CONTROL", control(2, 1, "PAUSE"))
    s.run(10)
    s.command("CONTROL", control(2, 1, "SEEK", 3))
    s.command("CONTROL", control(2, 1, "RESUME"))
    s.command("CONTROL", control(2, 1, "SEEK", 141))               # T: SEEK_RANGE
    s.command("CONTROL", control(9, 1, "SEEK", 5))                 # no such play
    s.command("CONTROL", control(2, 1, "SEEK", 5, at=s.now + 9))   # AT on SEEK: BAD_PARAM
    s.run(200)


@session("rate: 0.25x, 0.5x, 2x, 4x on one program (decimation and hold), a RATE control "
         "mid-play keeps the phase, WORK_LIMIT for a rate the budget cannot take", channels=4, players=6,
         work_budget=30)
def rate(s):
    s.upload(0, RUMBLE)
    s.command("PLAY", play(1, 0b0001, 0, rate=64))
    s.command("PLAY", play(2, 0b0010, 0, rate=128))
    s.command("PLAY", play(3, 0b0100, 0, rate=512))
    s.command("PLAY", play(4, 0b1000, 0, rate=1024))
    s.run(10)
    s.command("CONTROL", control(2, 0b0010, "RATE", 300))
    s.command("CONTROL", control(1, 0b0001, "RATE", 1024))         # 3 * 4 with the others: 36 > 30
    s.run(300)


@session("loop end and count: loops 3 with loop end 30 plays 0..29, 0..29, 0..79; LOOPS 0 loops "
         "until stopped; LOOP_END changed mid-play; loops 0 then LOOPS 1 ends at T", channels=2)
def loops(s):
    s.upload(0, RUMBLE)
    s.command("PLAY", play(1, 0b01, 0, loops=3, loop_end=30))
    s.command("PLAY", play(2, 0b10, 0, loops=0, loop_end=40))
    s.run(100)
    s.command("CONTROL", control(2, 0b10, "LOOP_END", 50))
    s.run(60)
    s.command("CONTROL", control(2, 0b10, "LOOPS", 1))
    s.run(120)
    s.command("QUERY", bytes([1, 0]))


@session("mute: the gain falls to 0 and rises on unmute while program time runs; a muted play "
         "does not duck; a play that starts muted starts silent", channels=1)
def mute(s):
    s.upload(0, RUMBLE)
    s.upload(1, TAP)
    s.command("PLAY", play(1, 1, 0, loops=0))
    s.run(20)
    s.command("CONTROL", control(1, 1, "MUTE", 1))
    s.run(20)
    s.command("CONTROL", control(1, 1, "MUTE", 0))
    s.run(20)
    s.command("PLAY", play(2, 1, 1, priority=3, duck=0, muted=True))
    s.run(20)
    s.command("STOP", stop())
    s.run(22)


@session("refusals in order: short PLAY, reserved flag, play 0xFF, empty mask, rate 63 and 1025, "
         "BAD_CHANNEL, BAD_SLOT, NOT_COMMITTED, SEEK_RANGE, NO_PLAYER, WORK_LIMIT; COMMIT of a loop "
         "that is not closed (31) and of a format 2 program (3); bad CONTROL", channels=2, players=2,
         work_budget=3)
def refusals(s):
    s.upload(0, TAP)
    s.command("PLAY", play(1, 1, 0)[:24])
    s.command("PLAY", play(1, 1, 0)[:4] + bytes([0x10]) + play(1, 1, 0)[5:])
    s.command("PLAY", play(0xFF, 1, 0))
    s.command("PLAY", play(1, 0, 0))
    s.command("PLAY", play(1, 1, 0, rate=63))
    s.command("PLAY", play(1, 1, 0, rate=1025))
    s.command("PLAY", play(1, 0b100, 0))
    s.command("PLAY", play(1, 1, 5))
    s.command("PLAY", play(1, 1, 1))
    s.command("PLAY", play(1, 1, 0, start=14))
    s.command("PLAY", play(1, 1, 0, loop_end=15))
    s.command("PLAY", play(1, 0b11, 0))                            # 2 players, peak 1 + 1: fits
    s.command("PLAY", play(2, 0b01, 0))                            # no free player
    s.command("STOP", stop())
    s.command("PLAY", play(2, 0b01, 0, rate=1024))                 # 1 * 4 > 3
    s.upload(1, OPEN_LOOP)
    s.upload(1, FORMAT_2)
    s.command("CONTROL", control(1, 1, "PAUSE")[:12])
    s.command("CONTROL", bytes([1, 1, 0, 9, 0]) + u32(0) + u32(0))
    s.command("CONTROL", control(1, 0b100, "PAUSE"))
    s.run(5)


@session("the limiter counts each channel's mixed output: two SUM plays of 200 at scale 160 (126 each) sum to 252 on channel 0 "
         "and fault 49 there after 30 ticks (both plays FAULT, one brake), channel 1 plays on; "
         "a transient ending over a rumble does not brake it", channels=2,
         channel_cfg=[{"safety": 30, "brake": 4}, {"safety": 30, "brake": 4}])
def limiter_and_brake(s):
    s.upload(0, LOUD)
    s.upload(1, TAP)
    s.command("PLAY", play(1, 0b11, 0, sum=True, scale=160))
    s.command("PLAY", play(2, 0b01, 0, sum=True, scale=160))
    s.run(50)
    s.command("PLAY", play(3, 0b01, 0, scale=100))
    s.run(3)
    s.command("PLAY", play(4, 0b01, 1))
    s.run(50)


@session("QUERY and STATUS: a pending play (state 2, position = from), playing (position, rate, "
         "flags), paused, finished with its iterations, stopped; an unknown play", channels=2, wake=10)
def status(s):
    s.upload(0, RUMBLE)
    s.command("PLAY", play(5, 0b10, 0, start=4, rate=512, loops=2))
    s.message("QUERY", bytes([5, 1]), seq=90)
    s.run(15)
    s.message("QUERY", bytes([5, 1]), seq=91)
    s.command("CONTROL", control(5, 0b10, "PAUSE"))
    s.message("QUERY", bytes([5, 1]), seq=92)
    s.command("CONTROL", control(5, 0b10, "RESUME"))
    s.run(100)
    s.message("QUERY", bytes([5, 1]), seq=93)
    s.command("PLAY", play(6, 0b01, 0, loops=0))
    s.run(10)
    s.command("STOP", stop(6, 0b01, brake=False))
    s.message("QUERY", bytes([6, 0]), seq=94)
    s.message("QUERY", bytes([7, 0]), seq=95)
    s.run(3)


@session("the watchdog ends every play (FAULT 50: playing ones brake, a pending one gets a record); a "
         "stage fault on channel 1 ends only its plays, is reported once (0xFE when nothing plays on "
         "it), makes a group play start without that channel, and is reported anew after it clears",
         channels=2, watchdog=60)
def watchdog_and_faults(s):
    s.upload(0, RUMBLE)
    s.command("PLAY", play(1, 0b11, 0, loops=0))
    s.command("PLAY", play(2, 0b01, 0, at=200))
    s.run(70)
    s.command("PLAY", play(3, 0b11, 0, loops=0))
    s.run(10)
    s.fault(1, 62)
    s.run(5)
    s.message("PING", u32(7), seq=50)
    s.fault(1, 62, "the same fault again: not reported again")
    s.run(5)
    s.command("STOP", stop())
    s.run(25)
    s.fault(1, 0, "channel 1's fault clears")
    s.run(2)
    s.fault(1, 63, "a new fault with nothing playing on channel 1: play 0xFE")
    s.run(2)
    s.command("PLAY", play(4, 0b11, 0))
    s.run(3)
    s.message("QUERY", bytes([4, 1]), seq=51)
    s.message("QUERY", bytes([4, 0]), seq=52)
    s.run(2)
    s.command("STOP", stop())
    s.run(22)


@session("a device without SEEK (capability bit 9 clear, 3.13): INFO says so; PLAY from 37, and from "
         "500 (UNSUPPORTED comes before SEEK_RANGE), and CONTROL SEEK are UNSUPPORTED, a SEEK for no play "
         "NO_SUCH_PLAY; a loop that is not closed (rule (f)) is accepted at COMMIT and plays to its end; "
         "PLAY from 0 plays", channels=1, caps=0x86)
def no_seek(s):
    s.command("HELLO", bytes([3, 0]))
    s.upload(0, HEARTBEAT)
    s.upload(1, OPEN_LOOP)
    s.command("PLAY", play(1, 1, 0, start=37))
    s.command("PLAY", play(1, 1, 0, start=500))
    s.command("PLAY", play(1, 1, 0, loop_end=142))                 # from 0: SEEK_RANGE as with SEEK
    s.command("PLAY", play(1, 1, 1))
    s.run(25)
    s.command("PLAY", play(2, 1, 0))
    s.run(20)
    s.command("CONTROL", control(2, 1, "SEEK", 100))
    s.command("CONTROL", control(9, 1, "SEEK", 100))
    s.command("CONTROL", control(2, 1, "PAUSE"))
    s.run(10)
    s.command("CONTROL", control(2, 1, "RESUME"))
    s.run(150)


STREAMED = prog([("SET_S", 0, 70)] + [("RAMP_A", 3, (37 * i) % 256, 3) for i in range(60)]
                + [("PULSE", 1, 200, 30), ("END", 20)])                          # 185 body bytes, T = 201


@session("the stream on one player (3.12): STREAM_OPEN of a format 3 header, credits, PLAY 0xFF on "
         "channel 1 mixed with a slot play there; the stream's refusals (two channels, a rate, SEEK, "
         "RATE, STREAM_OPEN while it plays); a paused stream releases nothing and cannot underrun; "
         "then a starved stream faults with 48 on its channel only", channels=2, stream=64)
def stream(s):
    body = STREAMED[16:]
    s.upload(0, RUMBLE)
    s.command("STREAM_OPEN", STREAMED[:2] + bytes([2]) + STREAMED[3:16])     # a format 2 header: error 3
    s.command("STREAM_OPEN", STREAMED[:16])
    sent = s.stream_to_credit(body, 0, 40)
    s.command("PLAY", play(1, 0b11, 0xFF))                                 # two channels
    s.command("PLAY", play(1, 0b10, 0xFF, rate=512))                       # not 1x
    s.command("PLAY", play(1, 0b10, 0xFF, sum=True))
    s.command("PLAY", play(2, 0b10, 0, sum=True, scale=90, loops=0))
    s.command("STREAM_OPEN", STREAMED[:16])                                # playing: SLOT_BUSY
    for _ in range(30):
        s.run(2)
        sent = s.stream_to_credit(body, sent, 40)
    s.command("CONTROL", control(1, 0b10, "SEEK", 5))
    s.command("CONTROL", control(1, 0b10, "RATE", 300))
    s.command("CONTROL", control(1, 0b10, "PAUSE"))
    s.run(60)                                                               # paused: no fetch, no underrun
    s.command("CONTROL", control(1, 0b10, "RESUME"))
    while s.now < 400:
        s.run(2)
        sent = s.stream_to_credit(body, sent, 40)
    s.command("STREAM_OPEN", STREAMED[:16])
    sent = s.stream_to_credit(body, 0, 40)
    s.command("PLAY", play(3, 0b01, 0xFF))
    s.run(120)                                                              # nothing more sent: underrun
    s.command("STOP", stop())
    s.run(25)


def write_all(folder=HERE):
    os.makedirs(os.path.join(folder, "sessions"), exist_ok=True)
    for old in os.listdir(os.path.join(folder, "sessions")):
        if old.endswith(".txt"):
            os.remove(os.path.join(folder, "sessions", old))
    write_programs(folder)
    write_trim(folder)
    for run in SESSIONS:
        run(os.path.join(folder, "sessions"))
    return len(SESSIONS)


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else HERE
    count = write_all(target)
    print(f"programs.txt, trim.txt and {count} sessions written to {os.path.relpath(target)}")
