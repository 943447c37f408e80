"""Reference implementation of PROTOCOL.md part 1, written from the text alone.

It exists to compute the expected outputs of the program vectors independently of the C core
and of the Swift model, so it is deliberately built differently from both:
- loops are expanded into a timeline of (time, instruction) before playing;
- ramps are evaluated with the closed form of 1.9 at every tick (no incremental state);
- pulse voices are kept as (start, length) intervals and tested per tick.
Plain Python, unbounded integers, no speed concerns.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from hbwire import crc16  # noqa: E402,F401  (CRC-16/CCITT-FALSE; also ref.crc16 for the generators)

OPS = ["SET_A", "RAMP_A", "SET_S", "RAMP_S", "PULSE", "LOOP", "ENDLOOP", "END"]

ERR = {
    "OK": 0,
    "HEADER_TRUNCATED": 1, "BAD_MAGIC": 2, "BAD_VERSION": 3, "BAD_FLAGS": 4, "BAD_RATE": 5,
    "TOO_LARGE": 6, "LENGTH_MISMATCH": 7, "BAD_CRC": 8,
    "TRUNCATED": 16, "VARINT_TOO_LONG": 17, "VARINT_NONCANONICAL": 18, "NO_SHARP_CHANNEL": 19,
    "LOOP_COUNT_ZERO": 20, "LOOP_TOO_DEEP": 21, "ENDLOOP_WITHOUT_LOOP": 22, "LOOP_IN_STREAM": 23,
    "TICKS_OVERFLOW": 24, "LOOP_EMPTY": 25, "RUN_TOO_LONG": 26, "LOOP_UNTERMINATED": 27,
    "END_NOT_LAST": 28, "TICKS_MISMATCH": 29, "END_MISSING": 30,
    "UNDERRUN": 48, "SAFETY_LIMIT": 49,
}

TIME_MAX = 2**32 - 1
FORMAT_VERSION = 2
TICK_LIMIT = 9  # 1.6 (d), (e): most instructions one tick executes
BRAKE = (0, 0, 1)
IDLE = (0, 0, 0)


class Config:
    def __init__(self, rate=1000, max_body=4096, brake=20, threshold=224, safety=30000):
        self.rate, self.max_body, self.brake = rate, max_body, brake
        self.threshold, self.safety = threshold, safety

    def line(self):
        return (f"rate={self.rate} max_body={self.max_body} brake={self.brake} "
                f"threshold={self.threshold} safety={self.safety}")


class Reject(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.code = ERR[name]


def le(data):
    return sum(b << (8 * i) for i, b in enumerate(data))


def parse_header(program, cfg):
    """Header rules 1-5."""
    if len(program) < 16:
        raise Reject("HEADER_TRUNCATED")
    if program[0:2] != b"HP":
        raise Reject("BAD_MAGIC")
    header = {"version": program[2], "flags": program[3], "rate": le(program[4:6]),
              "body_length": le(program[6:10]), "total": le(program[10:14]), "crc": le(program[14:16])}
    if header["version"] != FORMAT_VERSION:
        raise Reject("BAD_VERSION")
    if header["flags"] & 0xFE:
        raise Reject("BAD_FLAGS")
    if header["rate"] != cfg.rate:
        raise Reject("BAD_RATE")
    return header


def decode(body, body_length, written, pos):
    """Decodes one instruction at pos. `written` bytes of the body are available."""
    def byte(i):
        if i >= body_length:
            raise Reject("TRUNCATED")
        if i >= written:
            raise Reject("UNDERRUN")
        return body[i]

    def varint(i):
        value = 0
        for n in range(4):
            b = byte(i + n)
            value |= (b & 0x7F) << (7 * n)
            if not b & 0x80:
                if n > 0 and b == 0:
                    raise Reject("VARINT_NONCANONICAL")
                return value, i + n + 1
        raise Reject("VARINT_TOO_LONG")

    if pos >= body_length:
        raise Reject("END_MISSING")
    first = byte(pos)
    op, delay, i = OPS[first >> 5], first & 31, pos + 1
    if delay == 31:
        extra, i = varint(i)
        delay = 31 + extra
    ins = {"op": op, "delay": delay, "pos": pos}
    if op in ("SET_A", "SET_S", "LOOP"):
        ins["value"] = byte(i)
        i += 1
    elif op in ("RAMP_A", "RAMP_S"):
        ins["value"] = byte(i)
        ins["dur"], i = varint(i + 1)
    elif op == "PULSE":
        ins["value"], ins["sharp"] = byte(i), byte(i + 1)
        i += 2
    ins["end"] = i
    return ins


class Checker:
    """Rules (b)-(e) and the END rules of 1.6, instruction by instruction in byte order.
    Heads (e) are counted by looking back over the instructions checked so far (a LOOP's head is
    complete by its ENDLOOP, the program's first run by an END with T > 0), not by 1.6's
    open-head bookkeeping."""

    def __init__(self, header, streamed):
        self.h, self.streamed = header, streamed
        self.t, self.stack, self.run = 0, [], 0
        self.seen = []

    def leading(self, i):
        """Instructions from index i of those checked, before the first with a nonzero delay."""
        n = 0
        while i + n < len(self.seen) and self.seen[i + n]["delay"] == 0:
            n += 1
        return n

    def check(self, ins):
        op = ins["op"]
        if op in ("SET_S", "RAMP_S") and not self.h["flags"] & 1:
            raise Reject("NO_SHARP_CHANNEL")
        if self.streamed and op in ("LOOP", "ENDLOOP"):
            raise Reject("LOOP_IN_STREAM")
        if op == "LOOP" and ins["value"] == 0:
            raise Reject("LOOP_COUNT_ZERO")
        if op == "LOOP" and len(self.stack) == 4:
            raise Reject("LOOP_TOO_DEEP")
        if op == "ENDLOOP" and not self.stack:
            raise Reject("ENDLOOP_WITHOUT_LOOP")
        self.seen.append(ins)
        self.advance(self.t + ins["delay"])
        if op == "ENDLOOP":
            start, count, at = self.stack.pop()
            period = self.t - start
            if period == 0:
                raise Reject("LOOP_EMPTY")
            self.advance(start + period * count)
        self.run = self.run + 1 if ins["delay"] == 0 else 1
        if self.run > TICK_LIMIT:
            raise Reject("RUN_TOO_LONG")
        if op == "ENDLOOP" and self.run + self.leading(at + 1) > TICK_LIMIT:
            raise Reject("RUN_TOO_LONG")  # the jump's tick: this run, then the body's head
        if op == "END":
            if self.stack:
                raise Reject("LOOP_UNTERMINATED")
            if ins["end"] != self.h["body_length"]:
                raise Reject("END_NOT_LAST")
            if self.t != self.h["total"]:
                raise Reject("TICKS_MISMATCH")
            if self.t > 0 and self.run + self.leading(0) > TICK_LIMIT:
                raise Reject("RUN_TOO_LONG")  # a looped play's restart: this run, then tick 0
        if op == "LOOP":
            self.stack.append((self.t, ins["value"], len(self.seen) - 1))

    def advance(self, t):
        if t > TIME_MAX:
            raise Reject("TICKS_OVERFLOW")
        if t > self.h["total"]:
            raise Reject("TICKS_MISMATCH")
        self.t = t


def validate(program, cfg):
    """Returns (header, instructions in byte order); raises Reject."""
    header = parse_header(program, cfg)
    if header["body_length"] > cfg.max_body:
        raise Reject("TOO_LARGE")
    if len(program) != 16 + header["body_length"]:
        raise Reject("LENGTH_MISMATCH")
    body = program[16:]
    if crc16(body) != header["crc"]:
        raise Reject("BAD_CRC")
    checker, pos, instructions = Checker(header, False), 0, []
    while True:
        ins = decode(body, len(body), len(body), pos)
        checker.check(ins)
        instructions.append(ins)
        pos = ins["end"]
        if ins["op"] == "END":
            return header, instructions


def loop_tree(instructions):
    """The instructions as a tree: ("ins", ins) or ("loop", LOOP, body nodes, ENDLOOP), END included."""
    def tree(i):
        nodes = []
        while i < len(instructions):
            ins = instructions[i]
            if ins["op"] == "LOOP":
                body, j = tree(i + 1)
                nodes.append(("loop", ins, body, instructions[j]))
                i = j + 1
            elif ins["op"] == "ENDLOOP":
                return nodes, i
            else:
                nodes.append(("ins", ins))
                i += 1
        return nodes, i
    return tree(0)[0]


def timeline(instructions):
    """Expands loops: [(time, instruction)] in execution order, END last."""
    return expand(loop_tree(instructions))[0]


def expand(nodes, loops=False):
    """The executions of loop_tree's nodes from time 0, loops expanded: ([(time, ins)], the time
    after them); with loops=True the LOOP and ENDLOOP executions too (format 3's seek counts them)."""
    out = []

    def play(items, t):
        for node in items:
            if node[0] == "ins":
                t += node[1]["delay"]
                out.append((t, node[1]))
                continue
            _, loop, body, end = node
            t += loop["delay"]
            if loops:
                out.append((t, loop))
            for _ in range(loop["value"]):
                t = play(body, t)
                t += end["delay"]
                if loops:
                    out.append((t, end))
        return t
    return out, play(nodes, 0)


def ramp_value(seg, n):
    v0, v1, t0, d = seg
    k = n - t0
    if d == 0 or k >= d:
        return v1
    sign = 1 if v1 > v0 else -1
    return v0 + sign * ((abs(v1 - v0) * k + d // 2) // d)


def pulse_length(sharp):
    return 20 - ((sharp * 10 + 128) >> 8)


def stream_fault(body, header, cfg, initial, capacity, feeds):
    """For a streamed program: (tick, code) of the fault its fetches meet, or None.
    feeds: [(tick, byte count)] in order. Also checks that no feed overflows the ring."""
    checker, crc_bytes = Checker(header, True), bytearray()
    pos, fetch_tick, prev_time, released = 0, 0, 0, 0
    written, pending = initial, list(feeds)
    assert initial <= capacity, "initial bytes exceed the ring"
    while True:
        while pending and pending[0][0] <= fetch_tick:
            written += pending.pop(0)[1]
            assert written - released <= capacity, "feed overflows the ring"
            assert written <= len(body), "feed past the end of the body"
        try:
            ins = decode(body, header["body_length"], min(written, len(body)), pos)
            checker.check(ins)
        except Reject as r:
            return fetch_tick, r.code
        crc_bytes += body[pos:ins["end"]]
        pos = released = ins["end"]
        if ins["op"] == "END":
            return (fetch_tick, ERR["BAD_CRC"]) if crc16(crc_bytes) != header["crc"] else None
        prev_time += ins["delay"]
        fetch_tick = prev_time


def run(program, cfg, events, ticks, stream=None):
    """Loads `program` (stream = (capacity, initial) for a streamed load), then steps `ticks`
    times applying events [(tick, kind, arg)] before each step.
    Returns (load result code, [samples], (mode, error, program tick))."""
    scale, offset = 255, 0
    fault = None
    try:
        if stream is None:
            header, instructions = validate(program, cfg)
            plan = timeline(instructions)
        else:
            header = parse_header(program[:16], cfg)
            capacity, initial = stream
            feeds = [(t, a) for (t, k, a) in events if k == "feed"]
            body = program[16:]
            fault = stream_fault(body, header, cfg, initial, capacity, feeds)
            instructions, pos = [], 0
            while True:  # what plays before any fault: the well-formed prefix
                try:
                    ins = decode(body, header["body_length"], len(body), pos)
                except Reject:
                    break
                instructions.append(ins)
                pos = ins["end"]
                if ins["op"] == "END" or ins["op"] in ("LOOP", "ENDLOOP"):
                    break
            plan, t = [], 0
            for ins in instructions:
                t += ins["delay"]
                plan.append((t, ins))
        load = 0
        mode, error, brake_left = "playing", 0, 0
    except Reject as r:
        load, header, plan = r.code, {"flags": 0}, []
        mode, error = ("braking", r.code) if cfg.brake else ("idle", r.code)
        brake_left = cfg.brake

    n, idx, full = 0, 0, 0
    seg_a, seg_s, voices = (0, 0, 0, 0), (0, 0, 0, 0), []
    samples = []

    def enter_brake():
        nonlocal mode, brake_left
        brake_left = cfg.brake
        mode = "braking" if cfg.brake else "idle"

    def brake_sample():
        nonlocal mode, brake_left
        if mode != "braking":
            return IDLE
        brake_left -= 1
        if brake_left == 0:
            mode = "idle"
        return BRAKE

    for k in range(ticks):
        for (t, kind, arg) in events:
            if t != k:
                continue
            if kind == "scale":
                scale = arg
            elif kind == "offset":
                offset = arg
            elif kind == "stop":
                if arg == "nobrake":
                    mode = "idle"
                elif mode == "playing":
                    enter_brake()
        if mode != "playing":
            samples.append(brake_sample())
            continue
        if fault is not None and fault[0] == n:
            error = fault[1]
            enter_brake()
            samples.append(brake_sample())
            continue
        ended = False
        while idx < len(plan) and plan[idx][0] == n:
            ins = plan[idx][1]
            idx += 1
            op = ins["op"]
            if op == "SET_A":
                seg_a = (ins["value"], ins["value"], n, 0)
            elif op == "RAMP_A":
                seg_a = (ramp_value(seg_a, n), ins["value"], n, ins["dur"])
            elif op == "SET_S":
                seg_s = (ins["value"], ins["value"], n, 0)
            elif op == "RAMP_S":
                seg_s = (ramp_value(seg_s, n), ins["value"], n, ins["dur"])
            elif op == "PULSE":
                voices = [v for v in voices if v[0] + v[1] > n]
                if len(voices) == 4:
                    voices.pop(0)
                voices.append((n, pulse_length(ins["sharp"]), ins["value"], ins["sharp"]))
            elif op == "END":
                ended = True
                break
        if ended:
            enter_brake()
            samples.append(brake_sample())
            continue
        amp, sharp = ramp_value(seg_a, n), ramp_value(seg_s, n)
        for (start, length, pamp, psharp) in voices:
            if start <= n < start + length and pamp >= amp:
                amp, sharp = pamp, psharp
        m = scale + (scale >> 7)
        amp = (amp * m + 128) >> 8
        sharp = min(max(sharp + offset, 0), 255)
        if not header["flags"] & 1 or amp == 0:
            sharp = 0
        full = full + 1 if amp >= cfg.threshold else 0
        if full > cfg.safety:
            error = ERR["SAFETY_LIMIT"]
            enter_brake()
            samples.append(brake_sample())
            continue
        samples.append((amp, sharp, 0))
        n += 1
    return load, samples, (mode, error, n)
