"""Reference of the protocol 3 device (PROTOCOL-3.md part 3), written from the text.

Frames, COBS, the duplicate memory, UPLOAD/COMMIT and the output stage's wake-up are v2's
(PROTOCOL.md part 2) and come from ../device/device.py's helpers; what is new is here: channels,
the player pool, PLAY/STOP/CONTROL/SET_PARAM with play ids and channel masks, the mixing rule,
the per-channel limiter and brake rule, TELEMETRY/STATUS/INFO/CHANNEL_INFO of 3.11, SET_CONFIG
keys 3-4, the watchdog and per-channel stage faults (3.8 step 1), the stream on a player (3.12,
stream3.py). Not modelled here (board-only): DIAG, the sync wire (its follower: player3.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "device"))
import device as dv  # noqa: E402  (v2 reference: frames, byte helpers)
import player3 as pl  # noqa: E402
import program3 as p3  # noqa: E402
import stream3  # noqa: E402
from program3 import ref  # noqa: E402

MAJOR, MINOR = 3, 0
u16, u32, frame, split_frames = dv.u16, dv.u32, dv.frame, dv.split_frames
ALL_PLAYS = 0xFF
T = {"HELLO": 0x01, "PING": 0x02, "UPLOAD": 0x03, "COMMIT": 0x04, "PLAY": 0x05, "STOP": 0x06, "PREPARE": 0x07,
     "SET_PARAM": 0x08, "STREAM_OPEN": 0x09, "STREAM_DATA": 0x0A, "SET_CONFIG": 0x0B, "DIAG": 0x0C,
     "QUERY": 0x0D, "CONTROL": 0x0E, "DESCRIBE": 0x0F,
     "ACK": 0x80, "NACK": 0x81, "INFO": 0x82, "PONG": 0x83, "TELEMETRY": 0x84, "CREDIT": 0x85, "RESET": 0x86,
     "DIAG_REPORT": 0x87, "STATUS": 0x88, "INFO_PART": 0x89, "CHANNEL_INFO": 0x8A}
NAME = {v: k for k, v in T.items()}
FIXED = {"HELLO": 2, "UPLOAD": 6, "COMMIT": 7, "PLAY": 25, "STOP": 8, "PREPARE": 0, "SET_CONFIG": 5,
         "CONTROL": 13, "STREAM_OPEN": 16}
COMMANDS = ("UPLOAD", "COMMIT", "PLAY", "STOP", "PREPARE", "SET_CONFIG", "CONTROL", "STREAM_OPEN")
E = dict(dv.E, LOOP_NOT_CLOSED=31, BAD_CHANNEL=77, NO_PLAYER=78, WORK_LIMIT=79, NO_SUCH_PLAY=80,
         SEEK_RANGE=81, SCHEDULE_FULL=82)
EVENTS = {1: "STARTED", 2: "FIRST_OUTPUT", 3: "FINISHED", 4: "STOPPED", 5: "FAULT"}
OPS = {1: "PAUSE", 2: "RESUME", 3: "SEEK", 4: "RATE", 5: "LOOPS", 6: "LOOP_END", 7: "MUTE", 8: "PRIORITY"}
PLAY_FLAGS = {"AT": 1, "SUM": 2, "CUT": 4, "MUTED": 8}
CAP_STATUS, CAP_TRIM, CAP_SEEK = 0x20, 0x80, 0x200


def signed32(v):
    return dv.signed32(v)


class Config3:
    def __init__(self, channels=2, players=4, slots=2, slot_capacity=256, stream=0, rx_buffer=128, wake=0, idle=2000,
                 watchdog=1000, rate=1000, max_body=4096, work_budget=36, fade=8, caps=0x286, fw=(0, 3, 0),
                 device_id=0x12345678, reset_reason=1, boot_count=3, channel_cfg=None):
        self.channels, self.players, self.slots, self.slot_capacity = channels, players, slots, slot_capacity
        self.stream = stream
        self.rx_buffer, self.wake, self.idle, self.watchdog = rx_buffer, wake, idle, watchdog
        self.rate, self.max_body, self.work_budget, self.fade, self.caps = rate, max_body, work_budget, fade, caps
        self.fw, self.device_id, self.reset_reason, self.boot_count = fw, device_id, reset_reason, boot_count
        self.channel_cfg = channel_cfg or [{} for _ in range(channels)]

    def line(self):
        chans = ";".join(",".join(f"{k}={v}" for k, v in sorted(c.items())) or "-" for c in self.channel_cfg)
        return (f"config: channels={self.channels} players={self.players} slots={self.slots} "
                f"slot_capacity={self.slot_capacity} stream={self.stream} rx_buffer={self.rx_buffer} wake={self.wake} idle={self.idle} "
                f"watchdog={self.watchdog} rate={self.rate} max_body={self.max_body} work_budget={self.work_budget} "
                f"fade={self.fade} caps={self.caps} fw={'.'.join(map(str, self.fw))} device_id={self.device_id} "
                f"reset_reason={self.reset_reason} boot_count={self.boot_count} channel_config={chans}")


class Device3:
    # Unchanged from 2.0 (PROTOCOL.md 2.2.1, 2.4, 2.6, 2.7, 2.8, 2.9, 2.10; 3.12), with the same
    # attribute names: sending and numbering frames, cutting received bytes into frames and reading
    # them (this version's own messages: on_message), the output stage's wake request and tick, PLAY's
    # start tick, and the stream's credit, data and PLAY rules.
    send, notice, respond, receive = dv.Device.send, dv.Device.notice, dv.Device.respond, dv.Device.receive
    on_frame = dv.Device.on_frame
    wake_request, stage_step, accepted = dv.Device.wake_request, dv.Device.stage_step, dv.Device.accepted
    # HELLO, the duplicate memory and the command dispatch (2.4, 2.6) with this version's numbers,
    # and UPLOAD/COMMIT (2.7) on this device's slots: busy() asks the player pool, validate() is 3.3's.
    MAJOR, MINOR, COMMANDS, FIXED, NAME = MAJOR, MINOR, COMMANDS, FIXED, NAME
    on_hello, on_command = dv.Device.on_hello, dv.Device.on_command
    cmd_upload, cmd_commit = dv.Device.cmd_upload, dv.Device.cmd_commit
    stream_open, limit, credit, stream_data = (dv.Device.stream_open, dv.Device.limit, dv.Device.credit,
                                               dv.Device.stream_data)
    credit_step, stream_play_refusal = dv.Device.credit_step, dv.Device.stream_play_refusal

    def __init__(self, cfg):
        self.cfg = cfg
        self.chan = [pl.Channel(i, **c) for i, c in enumerate(cfg.channel_cfg)]
        self.pool = [stream3.PoolPlayer(i) for i in range(cfg.players)]
        self.stream, self.granted = None, 0  # 2.10's stream, dv.Stream while open or playing
        self.slots = [{"data": bytearray(), "ready": False} for _ in range(cfg.slots)]
        self.now, self.silence, self.watchdog, self.fade, self.trim = 0, 0, cfg.watchdog, cfg.fade, 0
        self.memory, self.notice_seq, self.seq_in = None, 0, 0
        self.stage, self.wake_left, self.idle_left = ("warm", 0, cfg.idle) if cfg.wake == 0 else ("cold", 0, 0)
        self.partial, self.out = bytearray(), []
        self.records = {}  # (play, channel) -> the record of that play on that channel (3.11)
        self.stage_fault = [0] * cfg.channels  # each channel's output-stage fault (2.18, 3.2)
        self.fault_sent = [0] * cfg.channels   # and the last one reported
        self.notice(T["RESET"], bytes([MAJOR, MINOR, cfg.reset_reason]) + u32(cfg.boot_count))

    # -- notices (3.11)
    def telemetry(self, event, p, code, tick):
        self.notice(T["TELEMETRY"], bytes([event, p.play, p.channel, p.slot, code]) + u32(tick))
        r = self.records.get((p.play, p.channel))
        if r is not None and event >= 3:
            r.update(state=event, code=code, end=tick)

    # -- receiving
    def on_message(self, name, seq, p):
        """SET_PARAM, QUERY and DESCRIBE (3.11); False for any other message."""
        if name == "SET_PARAM":
            if len(p) >= 5:
                self.set_param(p[0], p[1] - 256 if p[1] > 127 else p[1], p[2], p[3] | p[4] << 8)
        elif name == "QUERY":
            if len(p) >= 2:
                self.send(T["STATUS"], seq, self.status(p[0], p[1]))
        elif name == "DESCRIBE":
            if len(p) >= 1 and p[0] < self.cfg.channels:
                self.send(T["CHANNEL_INFO"], seq, self.channel_info(p[0]))
        else:
            return False
        return True

    def info(self):
        c, c0 = self.cfg, self.chan[0]
        name = c0.profile_name.encode()[:16]
        return (bytes([MAJOR, MINOR, *c.fw, c0.actuator]) + u16(c0.profile_id) + u32(c.device_id)
                + u16((c.caps & ~1) | (1 if c.stream else 0) | CAP_STATUS) + u16(c.rate) + u16(c0.brake) + bytes([c0.threshold, c.slots])
                + u32(c0.safety) + u32(c.max_body) + u32(c.slot_capacity) + u32(c.stream) + u16(c.rx_buffer)
                + u16(c.wake) + u16(c.idle) + u16(self.watchdog)
                + bytes([c.channels, c.players, c.work_budget, self.fade]) + (self.trim & 0xFFFF).to_bytes(2, "little")
                + bytes([0, 0]) + name)

    def channel_info(self, i):
        ch = self.chan[i]
        return (bytes([i, ch.actuator, ch.stage, ch.caps]) + u16(ch.profile_id) + u16(ch.brake)
                + bytes([ch.threshold, 0]) + u32(ch.safety) + u16(ch.rated_mv) + u16(ch.limit_mv) + u16(ch.wake)
                + ch.profile_name.encode()[:16])

    def status(self, play, channel):
        r = self.records.get((play, channel))
        head = u32(self.now) + bytes([play, channel])
        waiting = [q for q in self.pool if q.state == "pending" and q.play == play and q.channel == channel]
        if waiting:  # a pending play: state 2, its PLAY seq and slot
            q = waiting[0]
            return (head + bytes([2, q.seq, q.slot, 0]) + u32(0) + u16(0xFFFF) + u32(0) + u32(q.pos)
                    + u16(0) + bytes([4 | (1 if q.paused else 0) | (2 if q.muted else 0)]) + u16(q.rate))
        if r is None:
            return head + bytes(4) + u32(0) + u16(0xFFFF) + u32(0) + u32(0) + u16(0) + bytes(1) + u16(0)
        p = r["player"]
        live = p.play == play and p.channel == channel and p.state in ("pending", "playing")
        flags = (1 if live and p.paused else 0) | (2 if live and p.muted else 0) | (4 if live and p.state == "pending" else 0)
        first = 0xFFFF if r["first"] is None else min(r["first"], 0xFFFE)
        return (head + bytes([r["state"], r["seq"], r["slot"], r["code"]]) + u32(r["start"]) + u16(first)
                + u32(r["end"]) + u32(p.pos if live and p.state == "playing" else 0)
                + u16(min(p.iterations, 0xFFFF) if live else r["iterations"]) + bytes([flags])
                + u16(p.rate if live else 0))

    # -- helpers
    def mask_channels(self, mask):
        return [c for c in range(self.cfg.channels) if mask >> c & 1]

    def matching(self, play, mask, states=("pending", "playing")):
        return [p for p in self.pool if p.state in states and (play == ALL_PLAYS or p.play == play)
                and p.channel is not None and mask >> p.channel & 1]

    # -- commands, checks in the order of 3.11
    def core_cfg(self):
        return ref.Config(rate=self.cfg.rate, max_body=self.cfg.max_body)

    def busy(self, slot):
        return any(q.slot == slot and q.state in ("pending", "playing") for q in self.pool)

    def seek(self):
        """Capability bit 9 SEEK (3.13): PLAY's `from`, CONTROL SEEK and rule (f) at COMMIT."""
        return bool(self.cfg.caps & CAP_SEEK)

    def validate(self, program):
        return p3.validate3(program, self.core_cfg(), self.seek())

    def cmd_play(self, p, after):
        play, mask, slot, flags = p[0], p[1] | p[2] << 8, p[3], p[4]
        at = int.from_bytes(p[5:9], "little")
        args = {"seq": self.seq_in, "at": at if flags & 1 else None, "scale": p[9],
                "offset": p[10] - 256 if p[10] > 127 else p[10], "loops": p[11] | p[12] << 8,
                "loop_end": int.from_bytes(p[13:17], "little"), "start": int.from_bytes(p[17:21], "little"),
                "rate": p[21] | p[22] << 8, "priority": p[23], "duck": p[24], "sum": bool(flags & 2),
                "cut": bool(flags & 4), "muted": bool(flags & 8), "cfg": self.core_cfg(),
                "closed": self.seek()}
        if flags & 0xF0 or play >= 0xFE or mask == 0 or not RATE_OK(args["rate"]):
            return E["BAD_PARAM"], 0
        if mask >> self.cfg.channels:
            return E["BAD_CHANNEL"], self.cfg.channels
        channels = self.mask_channels(mask)
        if slot == 0xFF:  # 3.12: 2.8's stream checks, then one channel, 1x, once, from 0
            refusal = self.stream_play_refusal()
            if refusal is not None:
                return refusal, 0
            if len(channels) != 1 or args["rate"] != pl.RATE_ONE or args["loops"] != 1 or args["loop_end"] \
                    or args["start"]:
                return E["BAD_PARAM"], 0
            return self.play_stream(play, channels[0], args, at, flags)
        if slot >= self.cfg.slots:
            return E["BAD_SLOT"], 0
        if not self.slots[slot]["ready"]:
            return E["NOT_COMMITTED"], 0
        header, instructions = self.validate(bytes(self.slots[slot]["data"]))
        total = header["total"]
        if args["start"] and not self.seek():  # 3.13: no SEEK, so no `from`
            return E["UNSUPPORTED"], 0
        end = args["loop_end"] or total
        if end > total or (total > 0 and args["start"] >= end) or (total == 0 and args["start"] > 0):
            return E["SEEK_RANGE"], total
        old_pending = [q for q in self.pool if q.state == "pending" and q.play == play]
        free = [q for q in self.pool if q.state == "free" or q in old_pending]
        if len(free) < len(channels):
            return E["NO_PLAYER"], len(free)
        new_work = p3.peak(instructions) * -(-args["rate"] // pl.RATE_ONE) * len(channels)
        work = sum(q.work() for q in self.pool if q not in old_pending) + new_work
        if work > self.cfg.work_budget:
            return E["WORK_LIMIT"], work
        for q in old_pending:  # a pending play of the same id is replaced: it never starts
            q.free()
        free = [q for q in self.pool if q.state == "free"]
        data = bytes(self.slots[slot]["data"])
        for q, c in zip(free, channels):
            q.reserve(play, c, slot, data, args)
        return 0, self.accepted(at, flags)

    def play_stream(self, play, channel, args, at, flags):
        old_pending = [q for q in self.pool if q.state == "pending" and q.play == play]
        free = [q for q in self.pool if q.state == "free" or q in old_pending]
        if not free:
            return E["NO_PLAYER"], 0
        work = sum(q.work() for q in self.pool if q not in old_pending) + 9
        if work > self.cfg.work_budget:
            return E["WORK_LIMIT"], work
        for q in old_pending:
            q.free()
        q = [q for q in self.pool if q.state == "free"][0]
        q.reserve_stream(play, channel, self.stream, args)
        return 0, self.accepted(at, flags)

    # -- the stream (2.10, unchanged; 3.12)
    def settle_stream(self):
        """The stream closes when its play has ended (3.12, as 2.10)."""
        if self.stream is not None and self.stream.state == "playing" and \
                not any(q.slot == 0xFF and q.state in ("pending", "playing") for q in self.pool):
            self.stream.state = "closed"

    def cmd_stream_open(self, p, after):
        if self.cfg.stream == 0:
            return E["UNSUPPORTED"], 0
        if (self.stream is not None and self.stream.state == "playing") or \
                any(q.state == "pending" and q.slot == 0xFF for q in self.pool):
            return E["SLOT_BUSY"], 0
        try:
            p3.parse_header3(bytes(p[:16]), self.core_cfg())
        except ref.Reject as r:
            return r.code, 0
        self.stream = dv.Stream(bytes(p[:16]))
        after.append(self.credit)
        return 0, self.cfg.stream

    def cmd_stop(self, p, after):
        play, mask, flags, at = p[0], p[1] | p[2] << 8, p[3], int.from_bytes(p[4:8], "little")
        if flags & 0xFC:
            return E["BAD_PARAM"], 0
        targets = self.matching(play, mask)
        if flags & 2 and signed32(at - self.now) > 0:
            return self.schedule(targets, "STOP_BRAKE" if flags & 1 else "STOP", at)
        for q in targets:
            self.stop_player(q, bool(flags & 1), after)
        if play == ALL_PLAYS and mask & ((1 << self.cfg.channels) - 1) == (1 << self.cfg.channels) - 1 \
                and self.stream_open():
            self.stream.state = "closed"  # a STOP of everything closes an open stream too (2.8)
        self.settle_stream()
        return 0, self.now

    def schedule(self, targets, name, at):
        if any(len(q.scheduled) >= pl.SCHEDULED for q in targets):
            return E["SCHEDULE_FULL"], pl.SCHEDULED
        for q in targets:
            q.scheduled.append((name, at))
        return 0, at & 0xFFFFFFFF

    def stop_player(self, q, brake, after=None):
        if q.state == "playing":
            tick, snapshot = self.now, (q.play, q.channel, q.slot)
            send = (lambda: self.telemetry_for(snapshot, 4, 0, tick))
            if after is None:
                send()
            else:
                r = self.records.get((q.play, q.channel))
                if r:
                    r.update(state=4, code=0, end=tick)
                after.append(send)
            q.stop(brake, self.chan[q.channel].brake)
        else:
            q.free()

    def telemetry_for(self, snapshot, event, code, tick):
        play, channel, slot = snapshot
        self.notice(T["TELEMETRY"], bytes([event, play, channel, slot, code]) + u32(tick))
        r = self.records.get((play, channel))
        if r is not None:
            r.update(state=event, code=code, end=tick)

    def cmd_prepare(self, p, after):
        self.wake_request()
        return 0, self.now + self.wake_left if self.stage == "waking" else self.now

    def cmd_set_config(self, p, after):
        key, value = p[0], int.from_bytes(p[1:5], "little")
        if key == 1 and value <= 0xFFFF:
            self.watchdog = value
        elif key == 3 and value <= 255:
            self.fade = value
        elif key == 4 and abs(signed32(value)) <= pl.TRIM_MAX and self.cfg.caps & CAP_TRIM:
            self.trim = signed32(value)
        else:
            return E["BAD_PARAM"], 0
        return 0, value

    def cmd_control(self, p, after):
        play, mask, op, flags = p[0], p[1] | p[2] << 8, p[3], p[4]
        at, value = int.from_bytes(p[5:9], "little"), int.from_bytes(p[9:13], "little")
        if op not in OPS or flags & 0xFE or (flags & 1 and op not in (1, 2)):
            return E["BAD_PARAM"], 0
        if mask >> self.cfg.channels:
            return E["BAD_CHANNEL"], self.cfg.channels
        targets = self.matching(play, mask)
        if not targets:
            return E["NO_SUCH_PLAY"], 0
        name = OPS[op]
        if name == "SEEK" and (not self.seek() or any(q.slot == 0xFF for q in targets)):
            return E["UNSUPPORTED"], 0  # 3.13: no SEEK; 3.12: a ring cannot be read again
        if any(q.slot == 0xFF for q in targets) and name in ("RATE", "LOOPS", "LOOP_END"):
            return E["BAD_PARAM"], 0  # 3.12
        if name == "RATE":
            if not RATE_OK(value):
                return E["BAD_PARAM"], 0
            work = sum(q.work() for q in self.pool if q not in targets) + \
                sum(q.peak * -(-value // pl.RATE_ONE) for q in targets)
            if work > self.cfg.work_budget:
                return E["WORK_LIMIT"], work
        if name in ("SEEK", "LOOP_END"):
            for q in targets:
                end = value or q.total if name == "LOOP_END" else q.loop_end
                if (name == "SEEK" and value >= end) or \
                        (name == "LOOP_END" and (value > q.total or 0 < value <= q.pos)):
                    return E["SEEK_RANGE"], q.total
        if name in ("LOOPS", "MUTE") and value > (0xFFFF if name == "LOOPS" else 1):
            return E["BAD_PARAM"], 0
        if flags & 1 and signed32(at - self.now) > 0:
            return self.schedule(targets, name, at)
        effect = self.now
        for q in targets:
            effect = self.apply(q, name, value)
        return 0, effect & 0xFFFFFFFF

    def apply(self, q, name, value):
        """A control on one player, taking effect at tick now; returns the tick its effect shows."""
        if name == "PAUSE":
            q.paused = True
        elif name == "RESUME":
            q.paused = False
        elif name == "SEEK":
            playing = q.state == "playing" and not q.paused and not q.fresh
            fading = q.frozen_until
            q.seek_to(value)
            if fading is not None:  # a seek during a seek's fade: the new target, the same end
                return fading
            if playing:  # 3.5: the old sample fades out, the new position fades in
                q.frozen_until = self.now + self.fade
                return self.now + self.fade
        elif name == "RATE":
            q.rate = value
        elif name == "LOOPS":
            q.loops = value
        elif name == "LOOP_END":
            q.loop_end = value or q.total  # checked: beyond the position (3.4)
        elif name == "MUTE":
            q.muted = bool(value)
        elif name == "PRIORITY":
            q.priority, q.duck = value & 0xFF, value >> 8 & 0xFF
        elif name in ("STOP", "STOP_BRAKE"):
            self.stop_player(q, name == "STOP_BRAKE")
        return self.now

    def set_param(self, scale, offset, play, mask):
        for q in self.matching(play, mask):
            q.scale, q.offset = scale, offset

    def set_stage_fault(self, channel, code):
        """The board reports channel's output-stage fault (0: none), between steps (2.18, 3.2)."""
        self.stage_fault[channel] = code

    def fault_players(self, players, code, n):
        """Step 1's end of plays by the watchdog or a stage fault: a PLAYING player brakes from this
        step with FAULT; a PENDING one is cancelled with FAULT and a record (as 2.19)."""
        for q in players:
            if q.state == "playing":
                self.telemetry(5, q, code, n)
                q.brake(self.chan[q.channel].brake)
            elif q.state == "pending":
                if q.slot == 0xFF and self.stream is not None:
                    self.stream.state = "closed"  # as 2.14 step 1: the stream's pending play ends it
                self.unstarted_fault(q, code, n)

    def unstarted_fault(self, q, code, n):
        self.notice(T["TELEMETRY"], bytes([5, q.play, q.channel, q.slot, code]) + u32(n))
        for key in [k for k, v in self.records.items() if v["player"] is q]:
            del self.records[key]
        self.records[(q.play, q.channel)] = {"state": 5, "seq": q.seq, "slot": q.slot, "code": code, "start": n,
                                              "first": None, "end": n, "player": q, "iterations": 0}
        q.free()

    # -- one step (3.8)
    def step(self):
        n = self.now
        # 3.8 step 1: the watchdog, then each channel's new stage fault
        live = [q for q in self.pool if q.state in ("pending", "playing")]
        if self.watchdog and self.silence >= self.watchdog and live:
            self.fault_players(live, E["WATCHDOG"], n)
        for c in range(self.cfg.channels):
            if self.stage_fault[c] != self.fault_sent[c]:
                self.fault_sent[c] = self.stage_fault[c]
                if self.stage_fault[c]:
                    mine = [q for q in self.pool if q.state in ("pending", "playing") and q.channel == c]
                    if mine:
                        self.fault_players(mine, self.stage_fault[c], n)
                    else:
                        self.notice(T["TELEMETRY"], bytes([5, 0xFE, c, 0xFE, self.stage_fault[c]]) + u32(n))
        # 3.8 step 2: scheduled controls due at n, in pool order
        for q in self.pool:
            due = [e for e in q.scheduled if signed32(n - e[1]) >= 0]
            due.sort(key=lambda e: signed32(e[1] - n))  # earliest first; equal ticks in arrival order
            for e in due:
                q.scheduled.remove(e)
                if q.state in ("pending", "playing"):
                    self.apply(q, e[0], 0)
        # 3.8 step 3: starts: every pending player due at n, a play's channels together
        for q in self.pool:
            if q.state == "pending" and self.stage == "warm" and (q.at is None or signed32(n - q.at) >= 0):
                self.start(q, n)
        # 3. players, in pool order, with the duck gains of the modes at the start of the step
        slew = pl.fade_step(self.fade)
        ducks = {}
        for c in range(self.cfg.channels):
            ducks.update(pl.duck_gains(self.pool, c, n))
        per_channel = {c: [] for c in range(self.cfg.channels)}
        brake_req = {c: False for c in range(self.cfg.channels)}
        ends = []
        for q in self.pool:
            if q.state not in ("playing", "braking"):
                continue
            c = q.channel
            amp, sharp, contributes, brake, end = q.step(n, ducks.get(q.index, 256), slew, self.chan[c].brake)
            if contributes:
                per_channel[c].append((amp, sharp, q.sum))
                if not q.output_seen:
                    q.output_seen = True
                    r = self.records.get((q.play, c))
                    if r is not None and r["first"] is None:
                        r["first"] = n - r["start"]
                    self.telemetry(2, q, 0, n)
            brake_req[c] = brake_req[c] or brake
            if end is not None:
                ends.append((q, c, end))
        for q, c, end in ends:
            self.end_event(q, c, n, end)
        # 4. mix, limiter, brake rule per channel
        samples = []
        for c in range(self.cfg.channels):
            ch = self.chan[c]
            amp, sharp = pl.mix(per_channel[c])
            ch.full = ch.full + 1 if amp >= ch.threshold else 0
            if ch.full > ch.safety:  # 3.6: every player on the channel ends with fault 49, braking
                for q in self.pool:
                    if q.channel == c and q.state == "playing":
                        self.telemetry(5, q, ref.ERR["SAFETY_LIMIT"], n)
                        if q.brake_from_here(ch.brake):  # this tick is its first brake sample
                            brake_req[c] = True
                ch.full = 0
                amp, sharp = 0, 0
            if amp > 0:
                samples.append((amp, sharp, 0))
            else:
                samples.append((0, 0, 1) if brake_req[c] else (0, 0, 0))
        # 5. output stage (2.9, any player not free keeps it warm)
        self.stage_step(any(q.state != "free" for q in self.pool))
        # 3.8 step 9: the stream closes when its play ended; its credit (2.10)
        self.settle_stream()
        self.credit_step()
        self.silence = min(self.silence + 1, 0xFFFF)
        self.now += 1
        return samples

    def end_event(self, q, c, n, end=("FINISHED", 0)):
        event = 3 if end[0] == "FINISHED" else 5
        self.notice(T["TELEMETRY"], bytes([event, q.play_id_at_end, c, q.slot, end[1]]) + u32(n))
        r = self.records.get((q.play_id_at_end, c))
        if r is not None:
            r.update(state=event, code=end[1], end=n, iterations=q.iterations)

    def start(self, q, n):
        group = [r for r in self.pool if r.state == "pending" and r.play == q.play and r.seq == q.seq]
        chans = {r.channel for r in group}
        for r in self.pool:  # the same play id already playing on these channels is replaced
            if r.state == "playing" and r.play == q.play and r.channel in chans:
                self.telemetry(4, r, 1, n)
                r.free()
        if q.cut:
            for r in self.pool:
                if r.state == "playing" and r.channel in chans:
                    self.telemetry(4, r, 2, n)
                    r.free()
        for r in group:
            if self.stage_fault[r.channel]:  # this channel's stage is faulty: FAULT instead of STARTED
                if r.slot == 0xFF and self.stream is not None:
                    self.stream.state = "closed"
                self.unstarted_fault(r, self.stage_fault[r.channel], n)
                continue
            if r.slot == 0xFF:
                self.stream.state = "playing"
                r.start_stream()
            for key in [k for k, v in self.records.items() if v["player"] is r]:
                del self.records[key]  # a player keeps the record of its last play only (3.11)
            r.state = "playing"
            r.play_id_at_end = r.play
            if r.paused or r.muted:
                r.gain = 0  # 3.11 CONTROL, PLAY MUTED: a play that starts silent fades in from 0
            self.records[(r.play, r.channel)] = {"state": 1, "seq": r.seq, "slot": r.slot, "code": 0, "start": n,
                                                  "first": None, "end": 0, "player": r, "iterations": 0}
            self.telemetry(1, r, 0, n)


def describe(type_, seq, p):
    return dv.describe_frame(type_, seq, p, NAME, E, describe_own)


def describe_own(name, seq, p, le):
    """3.0's own frames (../device/device.py describe_frame)."""
    if name == "TELEMETRY" and len(p) >= 9:
        return f"TELEMETRY #{seq} {EVENTS.get(p[0], p[0])} play {p[1]} channel {p[2]} slot {p[3]} code {p[4]} tick {le(5, 9)}"
    if name == "STATUS" and len(p) >= 29:
        states = {0: "none", 1: "PLAYING", 2: "PENDING", 3: "FINISHED", 4: "STOPPED", 5: "FAULT"}
        return (f"STATUS seq {seq} now {le(0, 4)} play {p[4]} channel {p[5]}: {states.get(p[6], p[6])} seq {p[7]} "
                f"slot {p[8]} code {p[9]} start {le(10, 14)} first {le(14, 16)} end {le(16, 20)} position {le(20, 24)} "
                f"iterations {le(24, 26)} flags {p[26]} rate {le(27, 29)}")
    if name == "CHANNEL_INFO" and len(p) >= 20:
        return f"CHANNEL_INFO seq {seq} channel {p[0]} actuator {p[1]} stage {p[2]} ({len(p)} bytes)"
    return None


def RATE_OK(rate):
    return pl.RATE_MIN <= rate <= pl.RATE_MAX

