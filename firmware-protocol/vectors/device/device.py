"""Reference implementation of PROTOCOL.md part 2 (the device side), written from the text.

It computes the expected outputs of the device vectors independently of the C core (hb_device*.c)
and of the Swift model (DeviceModel). It reuses the program reference (../programs/reference.py)
for validation, decoding and the closed-form ramp rule, and is built differently from both
implementations where it can be:
- frames are cut at each 0x00 and decoded whole (not byte by byte);
- flat programs play from reference.timeline (loops expanded), ramps by the closed form each tick;
- the stream keeps every body byte received (no ring), asserting the credit rule instead;
- messages are dicts, replies are built from field lists.
Plain Python, no speed concerns.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import reference as ref  # noqa: E402
from hbwire import cobs, crc16  # noqa: E402

MAJOR, MINOR = 2, 0
STREAM = 0xFF
NO_SLOT = 0xFE  # TELEMETRY slot of a stage fault when nothing plays (2.18)
T = {"HELLO": 0x01, "PING": 0x02, "UPLOAD": 0x03, "COMMIT": 0x04, "PLAY": 0x05, "STOP": 0x06,
     "PREPARE": 0x07, "SET_PARAM": 0x08, "STREAM_OPEN": 0x09, "STREAM_DATA": 0x0A, "SET_CONFIG": 0x0B,
     "DIAG": 0x0C, "ACK": 0x80, "NACK": 0x81, "INFO": 0x82, "PONG": 0x83, "TELEMETRY": 0x84, "CREDIT": 0x85,
     "RESET": 0x86, "DIAG_REPORT": 0x87, "QUERY": 0x0D, "STATUS": 0x88, "INFO_PART": 0x89}
NAME = {v: k for k, v in T.items()}
FIXED = {"HELLO": 2, "PING": 4, "UPLOAD": 6, "COMMIT": 7, "PLAY": 10, "STOP": 1, "PREPARE": 0,
         "SET_PARAM": 2, "STREAM_OPEN": 16, "STREAM_DATA": 4, "SET_CONFIG": 5}
COMMANDS = ("UPLOAD", "COMMIT", "PLAY", "STOP", "PREPARE", "STREAM_OPEN", "SET_CONFIG")
E = {"WATCHDOG": 50, "DRIVER_ABSENT": 59, "DRIVER_BUS": 60, "CALIBRATION_FAILED": 61, "OVER_TEMPERATURE": 62,
     "OVER_CURRENT": 63, "UNKNOWN_MESSAGE": 64, "BAD_LENGTH": 65, "BAD_SLOT": 66, "BAD_OFFSET": 67,
     "NO_SPACE": 68, "SLOT_BUSY": 69, "NOT_COMMITTED": 70, "COMMIT_LENGTH": 71, "CHECKSUM_MISMATCH": 72,
     "VERSION_INCOMPATIBLE": 73, "BAD_PARAM": 74, "NO_STREAM": 75, "UNSUPPORTED": 76}
EVENTS = {1: "STARTED", 2: "FIRST_OUTPUT", 3: "FINISHED", 4: "STOPPED", 5: "FAULT"}


def u16(v):
    return bytes([v & 0xFF, (v >> 8) & 0xFF])


def u32(v):
    return bytes([(v >> s) & 0xFF for s in (0, 8, 16, 24)])


def signed32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


# ---- frames (2.1) ----

def frame(type_, seq, payload, version=1, flags=0):
    raw = bytes([version, type_, seq, flags]) + bytes(payload)
    return cobs(raw + u16(crc16(raw))) + b"\x00"


def unframe(segment):
    """One delimited segment -> (type, seq, payload, crc) or None (any 2.1.4 error)."""
    out, i = bytearray(), 0
    while i < len(segment):
        code = segment[i]
        block = segment[i + 1:i + code]
        if len(block) < code - 1:
            return None
        out += block
        i += code
        if code != 0xFF and i < len(segment):
            out.append(0)
    if len(out) > 134 or len(out) < 6:
        return None
    if crc16(bytes(out[:-2])) != out[-2] | out[-1] << 8 or out[0] != 1:
        return None
    return out[1], out[2], bytes(out[4:-2]), out[-2] | out[-1] << 8


def split_frames(data):
    """Decodes a byte stream with the codec above (a test helper for readers of device output)."""
    return [unframe(s) for s in data.split(b"\x00") if s]


# ---- a steppable interpreter (part 1) from the reference's pieces ----

class Interp:
    def __init__(self, cfg):
        self.cfg = cfg
        self.mode, self.error, self.brake_left = "idle", 0, 0
        self.scale, self.offset = 255, 0

    def _reset(self, header):
        self.header, self.n, self.full = header, 0, 0
        self.seg_a, self.seg_s, self.voices = (0, 0, 0, 0), (0, 0, 0, 0), []
        self.mode, self.error, self.brake_left = "playing", 0, 0

    def _reject(self, code):
        self.error, self.n = code, 0
        self._enter_brake()
        return code

    def load(self, program):
        try:
            header, instructions = ref.validate(bytes(program), self.cfg)
        except ref.Reject as r:
            return self._reject(r.code)
        self._reset(header)
        self.plan, self.idx, self.stream = ref.timeline(instructions), 0, None
        return 0

    def load_stream(self, header_bytes, stream):
        try:
            header = ref.parse_header(bytes(header_bytes), self.cfg)
        except ref.Reject as r:
            return self._reject(r.code)
        self._reset(header)
        self.stream = stream  # .body (bytes received), .released
        self.checker, self.crc_bytes = ref.Checker(header, True), bytearray()
        self.pos, self.last_time, self.fetched = 0, 0, None
        return 0

    def stop(self, brake):
        if not brake:
            self.mode, self.brake_left = "idle", 0
        elif self.mode == "playing":
            self._enter_brake()

    def _enter_brake(self):
        self.brake_left = self.cfg.brake
        self.mode = "braking" if self.brake_left else "idle"

    def _brake_sample(self):
        if self.mode != "braking":
            return ref.IDLE
        self.brake_left -= 1
        if self.brake_left == 0:
            self.mode = "idle"
        return ref.BRAKE

    def _fault(self, code):
        self.error = code
        self._enter_brake()
        return self._brake_sample()

    def _fetch(self):
        s = self.stream
        ins = ref.decode(s.body, self.header["body_length"], len(s.body), self.pos)
        self.checker.check(ins)
        self.crc_bytes += s.body[self.pos:ins["end"]]
        self.pos = s.released = ins["end"]
        if ins["op"] == "END" and crc16(bytes(self.crc_bytes)) != self.header["crc"]:
            raise ref.Reject("BAD_CRC")
        self.fetched = (self.last_time + ins["delay"], ins)

    def _due(self):
        """Instructions executing at tick n, in order (raises Reject for a streamed fault)."""
        n = self.n
        if self.stream is None:
            while self.idx < len(self.plan) and self.plan[self.idx][0] == n:
                self.idx += 1
                yield self.plan[self.idx - 1][1]
            return
        while True:
            if self.fetched is None:
                self._fetch()
            if self.fetched[0] > n:
                return
            self.last_time, ins = self.fetched
            self.fetched = None
            yield ins

    def execute(self, ins, n):
        """Executes one SET/RAMP/PULSE at program tick n (LOOP, ENDLOOP, END change no channel):
        each channel a segment (from, to, start tick, duration), the voices (start, length, amp,
        sharp); ../v3/program3.py's State runs the same rule."""
        op = ins["op"]
        if op == "SET_A":
            self.seg_a = (ins["value"], ins["value"], n, 0)
        elif op == "RAMP_A":
            self.seg_a = (ref.ramp_value(self.seg_a, n), ins["value"], n, ins["dur"])
        elif op == "SET_S":
            self.seg_s = (ins["value"], ins["value"], n, 0)
        elif op == "RAMP_S":
            self.seg_s = (ref.ramp_value(self.seg_s, n), ins["value"], n, ins["dur"])
        elif op == "PULSE":
            self.voices = [v for v in self.voices if v[0] + v[1] > n]
            if len(self.voices) == 4:
                self.voices.pop(0)
            self.voices.append((n, ref.pulse_length(ins["sharp"]), ins["value"], ins["sharp"]))

    def step(self):
        if self.mode != "playing":
            return self._brake_sample()
        n = self.n
        try:
            for ins in self._due():
                if ins["op"] == "END":
                    self._enter_brake()
                    return self._brake_sample()
                self.execute(ins, n)
        except ref.Reject as r:
            return self._fault(r.code)
        amp, sharp = ref.ramp_value(self.seg_a, n), ref.ramp_value(self.seg_s, n)
        for (start, length, pamp, psharp) in self.voices:
            if start <= n < start + length and pamp >= amp:
                amp, sharp = pamp, psharp
        m = self.scale + (self.scale >> 7)
        amp = (amp * m + 128) >> 8
        sharp = min(max(sharp + self.offset, 0), 255)
        if not self.header["flags"] & 1 or amp == 0:
            sharp = 0
        self.full = self.full + 1 if amp >= self.cfg.threshold else 0
        if self.full > self.cfg.safety:
            return self._fault(ref.ERR["SAFETY_LIMIT"])
        self.n += 1
        return (amp, sharp, 0)


# ---- the device (part 2) ----

class DeviceConfig:
    KEYS = ("slots", "slot_capacity", "stream", "rx_buffer", "wake", "idle", "watchdog", "rate", "max_body",
            "brake", "threshold", "safety", "fw", "actuator", "profile_id", "profile_name", "device_id", "caps",
            "reset_reason", "boot_count")

    def __init__(self, **kw):
        self.slots, self.slot_capacity, self.stream, self.rx_buffer = 2, 256, 64, 128
        self.wake, self.idle, self.watchdog = 20, 2000, 1000
        self.core = ref.Config()
        self.fw, self.actuator, self.profile_id, self.profile_name = (0, 1, 0), 1, 7, "lra-test"
        self.device_id, self.caps, self.reset_reason, self.boot_count = 0x12345678, 0x6, 1, 3
        for k, v in kw.items():
            if k in ("rate", "max_body", "brake", "threshold", "safety"):
                setattr(self.core, k, v)
            else:
                assert hasattr(self, k), k
                setattr(self, k, v)

    def line(self):
        c = self.core
        return (f"config: slots={self.slots} slot_capacity={self.slot_capacity} stream={self.stream} "
                f"rx_buffer={self.rx_buffer} wake={self.wake} idle={self.idle} watchdog={self.watchdog} "
                f"rate={c.rate} max_body={c.max_body} brake={c.brake} threshold={c.threshold} safety={c.safety} "
                f"fw={'.'.join(map(str, self.fw))} actuator={self.actuator} profile_id={self.profile_id} "
                f"profile_name={self.profile_name or '-'} device_id={self.device_id} caps={self.caps} "
                f"reset_reason={self.reset_reason} boot_count={self.boot_count}")


class Stream:
    def __init__(self, header):
        self.header, self.body, self.released = header, bytearray(), 0
        self.state = "open"
        self.body_length = int.from_bytes(header[6:10], "little")


class Device:
    """Feed bytes with receive(), step() per tick; out collects (tick, frame bytes)."""

    # The version's own values, read through self by the methods ../v3/device3.py reuses.
    MAJOR, MINOR, COMMANDS, FIXED, NAME = MAJOR, MINOR, COMMANDS, FIXED, NAME

    def __init__(self, cfg):
        self.cfg = cfg
        self.interp = Interp(cfg.core)
        self.now, self.silence, self.watchdog = 0, 0, cfg.watchdog
        self.slots = [{"data": bytearray(), "ready": False} for _ in range(cfg.slots)]
        self.stream, self.granted = None, 0
        self.pending = self.active = None
        self.memory = None  # the duplicate memory: (seq, crc, reply frame fields)
        self.notice_seq = 0
        self.stage, self.wake_left, self.idle_left = ("warm", 0, cfg.idle) if cfg.wake == 0 else ("cold", 0, 0)
        self.partial = bytearray()
        self.out = []
        self.seq_in = 0
        self.stage_fault = self.fault_sent = 0  # the board's output-stage fault, and the last one reported
        self.records = []  # the play records (2.19), most recent first, at most 2
        self.notice(T["RESET"], bytes([MAJOR, MINOR, cfg.reset_reason]) + u32(cfg.boot_count))

    def set_stage_fault(self, code):
        """The board reports its output stage's fault (0: none), between steps (2.18)."""
        self.stage_fault = code

    # -- sending
    def send(self, type_, seq, payload):
        self.out.append((self.now, frame(type_, seq, payload)))

    def notice(self, type_, payload):
        self.send(type_, self.notice_seq, payload)
        self.notice_seq = (self.notice_seq + 1) & 0xFF

    def telemetry(self, event, slot, code, tick):
        self.notice(T["TELEMETRY"], bytes([event, slot, code]) + u32(tick))

    def respond(self, seq, type_, code, value):
        if code == 0:
            self.send(T["ACK"], seq, bytes([type_]) + u32(value))
        else:
            self.send(T["NACK"], seq, bytes([type_, code]) + u32(value))

    # -- stream credit
    def limit(self):
        s = self.stream
        return min(s.released + self.cfg.stream, s.body_length)

    def credit(self):
        self.granted = self.limit()
        self.notice(T["CREDIT"], u32(len(self.stream.body)) + u32(self.granted))

    def stream_open(self):
        return self.stream is not None and self.stream.state != "closed"

    def credit_step(self):
        """A tick's CREDIT (2.10): sent when the limit moved by a quarter of the ring, or reached the body's end."""
        if self.stream_open():
            limit = self.limit()
            if limit - self.granted >= max(1, self.cfg.stream // 4) or \
                    (limit == self.stream.body_length and self.granted < limit):
                self.credit()

    def stream_play_refusal(self):
        """PLAY of the stream (2.8): the error when there is none to play, else None."""
        if self.cfg.stream == 0:
            return E["UNSUPPORTED"]
        if self.stream is not None and self.stream.state == "playing":
            return E["SLOT_BUSY"]
        if not self.stream_open():
            return E["NO_STREAM"]
        return None

    def close_stream(self):
        if self.stream is not None:
            self.stream.state = "closed"

    # -- stage
    def wake_request(self):
        if self.stage == "cold":
            if self.cfg.wake == 0:
                self.stage, self.idle_left = "warm", self.cfg.idle
            else:
                self.stage, self.wake_left = "waking", self.cfg.wake
        elif self.stage == "warm":
            self.idle_left = self.cfg.idle

    def stage_step(self, busy):
        """The output stage's tick (2.9): a wake-up counts down; a warm stage with nothing `busy`
        counts its idle time down to cold."""
        if self.stage == "waking":
            self.wake_left -= 1
            if self.wake_left == 0:
                self.stage, self.idle_left = "warm", self.cfg.idle
        elif self.stage == "warm" and self.cfg.idle:
            if busy:
                self.idle_left = self.cfg.idle
            else:
                self.idle_left -= 1
                if self.idle_left == 0:
                    self.stage = "cold"

    # -- receiving
    def receive(self, data):
        for b in data:
            if b != 0:
                self.partial.append(b)
                continue
            segment, self.partial = bytes(self.partial), bytearray()
            if segment:
                decoded = unframe(segment)
                if decoded is not None:
                    self.on_frame(*decoded)

    def busy(self, slot):
        return (self.active is not None and self.active["slot"] == slot) or \
            (self.pending is not None and self.pending["slot"] == slot)

    def on_frame(self, type_, seq, p, crc):
        """A received frame: replies are ignored; PING, STREAM_DATA, HELLO (2.6) and the version's
        other messages outside the command rules (on_message) are answered at once; the rest are
        commands (2.4)."""
        self.silence = 0
        if type_ >= 0x80:
            return
        name = self.NAME.get(type_)
        if name == "PING":
            if len(p) >= 4:
                self.send(T["PONG"], seq, p[:4] + u32(self.now) + u16(0))
        elif name == "STREAM_DATA":
            if len(p) >= 4:
                self.stream_data(int.from_bytes(p[:4], "little"), p[4:])
        elif name == "HELLO":
            self.on_hello(type_, seq, p)
        elif not self.on_message(name, seq, p):
            self.on_command(type_, seq, p, crc, name)

    def on_message(self, name, seq, p):
        """SET_PARAM (2.8), DIAG (2.18) and QUERY (2.19); False for any other message."""
        if name == "SET_PARAM":
            if len(p) >= 2:
                self.interp.scale, self.interp.offset = p[0], p[1] - 256 if p[1] > 127 else p[1]
                if self.pending is not None:
                    self.pending["scale"], self.pending["offset"] = self.interp.scale, self.interp.offset
        elif name == "DIAG":
            # no board here: stage 0, nothing but the fault the device holds
            self.send(T["DIAG_REPORT"], seq, bytes([0, self.stage_fault]) + bytes(16))
        elif name == "QUERY":
            self.send(T["STATUS"], seq, self.status(p[0] if p else 0))
        else:
            return False
        return True

    def on_hello(self, type_, seq, p):
        """HELLO (2.6): the duplicate memory is cleared; INFO, one INFO_PART, or a NACK."""
        self.memory = None
        if len(p) < 2:
            self.respond(seq, type_, E["BAD_LENGTH"], 0)
        elif p[0] != self.MAJOR:
            self.respond(seq, type_, E["VERSION_INCOMPATIBLE"], self.MAJOR << 8 | self.MINOR)
        elif len(p) >= 3:
            info = self.info()
            parts = -(-len(info) // 8)
            self.send(T["INFO_PART"], seq, bytes([p[2], parts]) + info[8 * p[2]:8 * p[2] + 8])
        else:
            self.send(T["INFO"], seq, self.info())

    def on_command(self, type_, seq, p, crc, name):
        """A command (2.4): the duplicate memory's reply, or the command run (cmd_<name>) and its reply
        remembered, then what it leaves for after the reply."""
        if self.memory is not None and self.memory[0] == seq and self.memory[1] == crc:
            self.respond(seq, *self.memory[2])
            return
        after = []
        if name in self.COMMANDS and len(p) < self.FIXED[name]:
            code, value = E["BAD_LENGTH"], 0
        elif name in self.COMMANDS:
            self.seq_in = seq
            code, value = getattr(self, "cmd_" + name.lower())(p, after)
        else:
            code, value = E["UNKNOWN_MESSAGE"], 0
        self.memory = (seq, crc, (type_, code, value))
        self.respond(seq, type_, code, value)
        for action in after:
            action()

    def info(self):
        c, k = self.cfg, self.cfg.core
        caps = (c.caps & ~1) | (1 if c.stream else 0) | 0x20  # bit 5 STATUS (2.19)
        name = c.profile_name.encode()[:16]
        return (bytes([MAJOR, MINOR, *c.fw, c.actuator]) + u16(c.profile_id) + u32(c.device_id) + u16(caps)
                + u16(k.rate) + u16(k.brake) + bytes([k.threshold, c.slots]) + u32(k.safety) + u32(k.max_body)
                + u32(c.slot_capacity) + u32(c.stream) + u16(c.rx_buffer) + u16(c.wake) + u16(c.idle)
                + u16(self.watchdog) + name)

    # -- play records (2.19)
    def record(self, seq, slot, tick, state=1, code=0):
        """A new most recent record: a play that starts (state 1), or a pending one that ends unstarted."""
        r = {"state": state, "seq": seq, "slot": slot, "code": code, "start": tick, "first": None,
             "end": 0 if state == 1 else tick}
        self.records = [r] + self.records[:1]
        return r

    def status(self, index):
        pend = self.pending
        head = u32(self.now) + bytes([pend["slot"] if pend else NO_SLOT, pend["seq"] if pend else 0, index])
        if index >= len(self.records):
            return head + bytes(4) + u32(0) + u16(0xFFFF) + u32(0)
        r = self.records[index]
        first = 0xFFFF if r["first"] is None else min(r["first"], 0xFFFE)
        return head + bytes([r["state"], r["seq"], r["slot"], r["code"]]) + u32(r["start"]) + u16(first) + \
            u32(r["end"])

    def ended(self, event, code, tick):
        """The active play's record ends, as its end notice says."""
        r = self.active["record"]
        r["state"], r["code"], r["end"] = event, code, tick

    # -- commands (2.7-2.13), checks in the text's order
    def cmd_upload(self, p, after):
        slot, offset, data = p[0], int.from_bytes(p[1:5], "little"), p[5:]
        if slot >= self.cfg.slots:
            return E["BAD_SLOT"], 0
        if self.busy(slot):
            return E["SLOT_BUSY"], 0
        s = self.slots[slot]
        if offset not in (0, len(s["data"])):
            return E["BAD_OFFSET"], len(s["data"])
        if offset + len(data) > self.cfg.slot_capacity:
            return E["NO_SPACE"], self.cfg.slot_capacity
        s["data"] = s["data"][:offset] + data
        s["ready"] = False
        return 0, len(s["data"])

    def cmd_commit(self, p, after):
        slot, length, crc = p[0], int.from_bytes(p[1:5], "little"), int.from_bytes(p[5:7], "little")
        if slot >= self.cfg.slots:
            return E["BAD_SLOT"], 0
        if self.busy(slot):
            return E["SLOT_BUSY"], 0
        s = self.slots[slot]
        if length != len(s["data"]):
            return E["COMMIT_LENGTH"], len(s["data"])
        computed = crc16(bytes(s["data"]))
        if computed != crc:
            self.slots[slot] = {"data": bytearray(), "ready": False}
            return E["CHECKSUM_MISMATCH"], computed
        try:
            header, _ = self.validate(bytes(s["data"]))
        except ref.Reject as r:
            self.slots[slot] = {"data": bytearray(), "ready": False}
            return r.code, 0
        s["ready"] = True
        return 0, header["total"]

    def validate(self, program):
        """COMMIT's validation of a slot's program (1.6): its header and instructions."""
        return ref.validate(program, self.cfg.core)

    def cmd_play(self, p, after):
        slot, flags, at = p[0], p[1], int.from_bytes(p[2:6], "little")
        scale, offset, loops = p[6], p[7] - 256 if p[7] > 127 else p[7], int.from_bytes(p[8:10], "little")
        if flags & 0xFE:
            return E["BAD_PARAM"], 0
        if slot == STREAM:
            refusal = self.stream_play_refusal()
            if refusal is not None:
                return refusal, 0
            if loops != 1:
                return E["BAD_PARAM"], 0
        else:
            if slot >= self.cfg.slots:
                return E["BAD_SLOT"], 0
            if not self.slots[slot]["ready"]:
                return E["NOT_COMMITTED"], 0
        self.pending = {"slot": slot, "at": at if flags & 1 else None, "scale": scale, "offset": offset,
                        "loops": loops, "seq": self.seq_in}
        return 0, self.accepted(at, flags)

    def accepted(self, at, flags):
        """The output stage is asked to wake; the ACK value: the start tick (2.8)."""
        self.wake_request()
        s = at if flags & 1 and signed32(at - self.now) > 0 else self.now
        if self.stage == "waking":
            s = max(s, self.now + self.wake_left, key=lambda t: signed32(t - self.now))
        return s & 0xFFFFFFFF

    def cmd_stop(self, p, after):
        if p[0] & 0xFE:
            return E["BAD_PARAM"], 0
        if self.active is not None and self.interp.mode == "playing":
            slot, tick = self.active["slot"], self.now
            self.ended(4, 0, tick)
            after.append(lambda: self.telemetry(4, slot, 0, tick))
        self.pending = None
        self.interp.stop(bool(p[0] & 1))
        self.close_stream()
        self.active = None
        return 0, self.now

    def cmd_prepare(self, p, after):
        self.wake_request()
        return 0, self.now + self.wake_left if self.stage == "waking" else self.now

    def cmd_stream_open(self, p, after):
        if self.cfg.stream == 0:
            return E["UNSUPPORTED"], 0
        if (self.stream is not None and self.stream.state == "playing") or \
                (self.pending is not None and self.pending["slot"] == STREAM):
            return E["SLOT_BUSY"], 0
        try:
            ref.parse_header(bytes(p[:16]), self.cfg.core)
        except ref.Reject as r:
            return r.code, 0
        self.stream = Stream(bytes(p[:16]))
        after.append(self.credit)
        return 0, self.cfg.stream

    def cmd_set_config(self, p, after):
        key, value = p[0], int.from_bytes(p[1:5], "little")
        if key != 1 or value > 0xFFFF:
            return E["BAD_PARAM"], 0
        self.watchdog = value
        return 0, value

    def stream_data(self, offset, data):
        if not self.stream_open():
            return
        s = self.stream
        if not data or offset != len(s.body) or len(s.body) + len(data) > self.limit():
            self.credit()
            return
        s.body += data
        assert len(s.body) - s.released <= self.cfg.stream, "the credit rule keeps the ring from overflowing"

    # -- one step (2.14)
    def step(self):
        n, it = self.now, self.interp
        ended = None
        # 1. watchdog
        if self.watchdog and self.silence >= self.watchdog and (it.mode == "playing" or self.pending):
            self.fault_stop(E["WATCHDOG"], n)
        # 1b. a new output-stage fault (2.18)
        if self.stage_fault != self.fault_sent:
            self.fault_sent = self.stage_fault
            if self.stage_fault:
                self.fault_stop(self.stage_fault, n)
        # 2. start (a play meeting a stage fault ends with it)
        pend = self.pending
        if pend and self.stage == "warm" and (pend["at"] is None or signed32(n - pend["at"]) >= 0) \
                and self.stage_fault:
            self.pending = None
            if pend["slot"] == STREAM:
                self.close_stream()
            self.telemetry(5, pend["slot"], self.stage_fault, n)
            self.record(pend["seq"], pend["slot"], n, 5, self.stage_fault)
        elif pend and self.stage == "warm" and (pend["at"] is None or signed32(n - pend["at"]) >= 0):
            if self.active and it.mode == "playing":
                self.telemetry(4, self.active["slot"], 1, n)
                self.ended(4, 1, n)
                if self.active["slot"] == STREAM:
                    self.close_stream()
            if pend["slot"] == STREAM:
                self.stream.state = "playing"
                err = it.load_stream(self.stream.header, self.stream)
            else:
                err = it.load(self.slots[pend["slot"]]["data"])
            it.scale, it.offset = pend["scale"], pend["offset"]
            self.pending = None
            self.active = {"slot": pend["slot"], "loops": pend["loops"], "full": 0, "output": False,
                           "record": self.record(pend["seq"], pend["slot"], n)}
            if err:
                self.end(err, n)
            else:
                self.telemetry(1, pend["slot"], 0, n)
        # 3. interpreter
        was = it.mode == "playing"
        sample = it.step()
        a = self.active
        if a and was and it.mode != "playing":
            if it.error == 0 and a["slot"] != STREAM and a["loops"] != 1:
                if a["loops"] > 1:
                    a["loops"] -= 1
                it.load(self.slots[a["slot"]]["data"])
                sample = it.step()
                if it.mode != "playing":
                    ended = it.error
            else:
                ended = it.error
        # 4. limiter across iterations
        if a and ended is None:
            a["full"] = a["full"] + 1 if sample[0] >= self.cfg.core.threshold else 0
            if a["full"] > self.cfg.core.safety:
                it.stop(True)
                sample = it.step()
                ended = ref.ERR["SAFETY_LIMIT"]
        # 5. first output
        if a and not a["output"] and sample[0] > 0:
            a["output"] = True
            a["record"]["first"] = n - a["record"]["start"]
            self.telemetry(2, a["slot"], 0, n)
        # 6. end
        if ended is not None:
            self.end(ended, n)
        # 7. stage
        self.stage_step(it.mode != "idle" or self.pending is not None)
        # 8. credit
        self.credit_step()
        # 9.
        self.silence = min(self.silence + 1, 0xFFFF)
        self.now += 1
        return sample

    def fault_stop(self, code, n):
        """The watchdog's and a stage fault's end of a play (or of a pending one): brake, stream
        closed, FAULT with the play's slot, or NO_SLOT when nothing plays."""
        slot = self.active["slot"] if self.active else (self.pending["slot"] if self.pending else NO_SLOT)
        if self.active:
            self.ended(5, code, n)
        elif self.pending:
            self.record(self.pending["seq"], self.pending["slot"], n, 5, code)
        self.pending = None
        if self.interp.mode == "playing":
            self.interp.stop(True)
        self.close_stream()
        self.telemetry(5, slot, code, n)
        self.active = None

    def end(self, code, tick):
        self.telemetry(3 if code == 0 else 5, self.active["slot"], code, tick)
        self.ended(3 if code == 0 else 5, code, tick)
        if self.active["slot"] == STREAM:
            self.close_stream()
        self.active = None


def describe_frame(type_, seq, p, names, errors, own):
    """A one-line reading of a frame, for the vector files' comments, with a version's message `names`
    and error codes: the frames versions 2 and 3 share (ACK, NACK, CREDIT, PONG, RESET, INFO_PART) read
    here, the version's own by `own(name, seq, p, le)` (None: the name and the length only)."""
    name = names.get(type_, f"type 0x{type_:02x}")
    le = lambda a, b: int.from_bytes(p[a:b], "little")  # noqa: E731
    codes = {v: k for k, v in list(errors.items()) + list(ref.ERR.items())}
    if name == "ACK" and len(p) >= 5:
        return f"ACK seq {seq} {names.get(p[0], p[0])} value {le(1, 5)}"
    if name == "NACK" and len(p) >= 6:
        return f"NACK seq {seq} {names.get(p[0], p[0])} {codes.get(p[1], p[1])} value {le(2, 6)}"
    if name == "CREDIT" and len(p) >= 8:
        return f"CREDIT #{seq} next {le(0, 4)} limit {le(4, 8)}"
    if name == "PONG" and len(p) >= 10:
        return f"PONG seq {seq} echo {le(0, 4)} tick {le(4, 8)}"
    if name == "RESET" and len(p) >= 7:
        return f"RESET #{seq} {p[0]}.{p[1]} reason {p[2]} boot {le(3, 7)}"
    if name == "INFO_PART" and len(p) >= 2:
        return f"INFO_PART seq {seq} part {p[0]} of {p[1]} ({len(p) - 2} bytes)"
    return own(name, seq, p, le) or f"{name} seq {seq} ({len(p)} bytes)"


def describe(type_, seq, p):
    return describe_frame(type_, seq, p, NAME, E, describe_own)


def describe_own(name, seq, p, le):
    """2.0's own frames (describe_frame)."""
    if name == "TELEMETRY" and len(p) >= 7:
        return f"TELEMETRY #{seq} {EVENTS.get(p[0], p[0])} slot {p[1]} code {p[2]} tick {le(3, 7)}"
    if name == "STATUS" and len(p) >= 21:
        return (f"STATUS seq {seq} now {le(0, 4)} pending slot {p[4]} seq {p[5]}; record {p[6]}: "
                f"{ {0: 'none', 1: 'PLAYING'}.get(p[7], EVENTS.get(p[7], p[7])) } seq {p[8]} slot {p[9]} code {p[10]} "
                f"start {le(11, 15)} first {le(15, 17)} end {le(17, 21)}")
    if name == "DIAG_REPORT" and len(p) >= 18:
        return f"DIAG_REPORT seq {seq} stage {p[0]} fault {p[1]}"
    return None
