#!/usr/bin/env python3
"""Writes the device vectors (*.txt next to this file; format in README.md).

Each vector is a session: a host script drives device.py, the reference of PROTOCOL.md part 2,
tick by tick, and the file records the bytes the device received (with the tick they arrive
before), the bytes it sent (with the tick they belong to, 2.3) and every output sample. The C
runner (hardware/firmware/tests/test_device.c) and the Swift tests replay the received bytes and
compare everything else.
Run: python3 firmware-protocol/vectors/device/generate.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "programs"))
import device as dv  # noqa: E402
import generate as pg  # noqa: E402  (the program vectors' assembler)
import host_session as hs  # noqa: E402

u16, u32, T, E = dv.u16, dv.u32, dv.T, dv.E


def prog(lines, **kw):
    return pg.program(lines, **kw)[0]


# Programs used below.
BUZZ = prog([("SET_A", 0, 200), ("SET_S", 0, 100), ("SET_A", 5, 0), ("END", 3)])           # T = 8
TAP = prog([("PULSE", 2, 255, 255), ("END", 12)])                                            # T = 14, pulse 10
RAMP = prog([("RAMP_A", 0, 250, 10), ("RAMP_A", 10, 0, 10), ("END", 10)])                    # T = 20
LOUD = prog([("SET_A", 0, 255), ("END", 20)])                                                # T = 20, all full scale
EMPTY = prog([("END", 0)])                                                                   # T = 0
LONG = prog([("SET_A", 0, 120), ("END", 31 + 3000)])                                         # T = 3031


def play(slot, at=None, scale=255, offset=0, loops=1, flags=None):
    f = (1 if at is not None else 0) if flags is None else flags
    return bytes([slot, f]) + u32(at or 0) + bytes([scale, offset & 0xFF]) + u16(loops)


commit = hs.commit


class Session(hs.HostSession):
    """A host driving the reference device (PROTOCOL.md part 2)."""

    T = T
    describe = staticmethod(dv.describe)

    def __init__(self, name, about, **cfg):
        self.name, self.about = name, about
        config = dv.DeviceConfig(**cfg)
        super().__init__(config, dv.Device(config))

    def fault(self, code, text=None):
        """The board reports its output stage's fault (0: none) before the next step (2.18)."""
        self.fault_input((code,), text or f"the output stage reports fault {code}")
        self.dev.set_stage_fault(code)

    def run_to(self, tick):
        self.run(tick - self.now)

    def sample_lines(self):
        return pg.rle(self.samples)

    def write(self, folder=HERE):
        super().write(self.name, self.about, folder)


SESSIONS = []


def session(about, **cfg):
    """Registers a host script: it gets a fresh Session named after the function, configured with
    `cfg`, and the vector file is written when the script returns."""
    def register(script):
        def run():
            s = Session(script.__name__, about, **cfg)
            script(s)
            s.write()
        SESSIONS.append(run)
        return script
    return register


@session("RESET at boot, HELLO -> INFO, version and length refusals, PING/PONG, "
         "unknown types, device-type frames ignored")
def hello_and_ping(s):
    s.command("HELLO", bytes([2, 0]))
    s.run(3)
    s.command("HELLO", bytes([2, 7]))          # another minor: compatible
    s.command("HELLO", bytes([1, 0]))          # another major (1.0): refused
    s.command("HELLO", bytes([2]))             # too short
    s.message("PING", u32(0xDEADBEEF), seq=77)
    s.message("PING", u32(1)[:3], seq=78)      # too short: ignored
    s.run(5)
    s.message("PING", u32(42) + b"\x99", seq=79)   # longer: extra byte ignored
    s.command("PREPARE", b"\x55\x66")          # extra bytes ignored
    s.feed(dv.frame(0x0E, 9, b"\x01"), "type 0x0E: unknown command")
    s.feed(dv.frame(0x00, 10, b""), "type 0x00: unknown command")
    s.feed(dv.frame(T["ACK"], 11, b"\x01\x00\x00\x00\x00"), "an ACK echoed back: ignored")
    s.run(2)
    s.command("SET_CONFIG", bytes([1]) + u32(250))
    s.command("HELLO", bytes([2, 0]))          # INFO shows the new watchdog
    s.run(2)


@session("upload in chunks, commit, PLAY on a cold stage: program tick 0 "
         "W = 20 ticks after the PLAY takes effect; STARTED, FIRST_OUTPUT, FINISHED, brake")
def upload_and_play_cold(s):
    s.upload(0, BUZZ, chunk=7)
    s.run(2)
    s.note("PLAY on a cold stage: ACK value = now + 20")
    s.command("PLAY", play(0))
    s.run(60)


@session("PREPARE wakes the stage (ACK: warm tick); a PLAY after it starts at "
         "once; a PLAY during the wake-up waits for it; after idle_ticks unused the stage is cold again",
         idle=100)
def prepare_then_play(s):
    s.upload(0, TAP)
    s.command("PREPARE")
    s.run(8)
    s.command("PLAY", play(0))                 # during the wake-up: starts at the warm tick
    s.run(40)
    s.command("PLAY", play(0))                 # warm: starts at once
    s.run(40)
    s.command("PREPARE")                       # warm: refreshes the idle timer; ACK value = now
    s.run(150)                                 # unused for 100 ticks: cold
    s.command("PLAY", play(0))                 # cold again: 20 ticks of wake-up
    s.run(50)


@session("W = 0: the stage is always ready, PLAY starts at the next tick", wake=0, idle=0)
def wake_zero(s):
    s.upload(1, RAMP)
    s.command("PLAY", play(1, scale=128, offset=-20))
    s.run(50)


@session("PLAY at a device tick: in the future (ACK = at), in the past (= now), "
         "and earlier than the wake-up allows (= warm tick)")
def timed_play(s):
    s.upload(0, TAP)
    s.command("PLAY", play(0, at=s.now + 40))
    s.run(80)
    s.command("PLAY", play(0, at=5))           # in the past: now
    s.run(40)
    s.command("STOP", b"\x01")
    s.run(2300)                                # cold again
    s.command("PLAY", play(0, at=s.now + 7))   # cold: the wake-up takes 20
    s.run(60)


@session("loops = 3 play seamlessly (no brake between iterations), loops = 0 until STOP, "
         "a T = 0 program ends at once whatever loops says", wake=0)
def loops(s):
    s.upload(0, BUZZ)
    s.upload(1, EMPTY)
    s.command("PLAY", play(0, loops=3))
    s.run(50)
    s.command("PLAY", play(0, loops=0))
    s.run(37)
    s.command("STOP", b"\x01")
    s.run(25)
    s.command("PLAY", play(1, loops=0))
    s.run(25)


@session("the limiter counts across iterations: 20 full-scale ticks looped "
         "fault at the 31st with safety = 30", wake=0, safety=30, brake=4)
def safety_across_loops(s):
    s.upload(0, LOUD)
    s.command("PLAY", play(0, loops=0))
    s.run(40)
    s.command("PLAY", play(0, loops=0, scale=200))  # scaled below the threshold: plays on
    s.run(60)
    s.command("STOP", b"\x00")
    s.run(3)


@session("STOP with and without brake, STOP of a pending play (no telemetry), "
         "STOP when idle, a PLAY replacing a running one (STOPPED code 1), SET_PARAM live and pending",
         wake=0, brake=5)
def stop_and_replace(s):
    s.upload(0, LONG)
    s.upload(1, TAP)
    s.command("PLAY", play(0))
    s.run(10)
    s.message("SET_PARAM", bytes([100, 0]))
    s.run(5)
    s.command("STOP", b"\x00")                 # no brake: idle at once
    s.run(5)
    s.command("PLAY", play(0))
    s.run(10)
    s.command("STOP", b"\x01")                 # brake 5 ticks
    s.run(10)
    s.command("STOP", b"\x01")                 # idle: ACK, nothing else
    s.command("PLAY", play(1, at=s.now + 10))
    s.message("SET_PARAM", bytes([60, 0]))      # updates the pending play's scale too
    s.run(3)
    s.command("STOP", b"\x01")                 # cancels the pending play: no telemetry
    s.run(15)
    s.command("PLAY", play(0, scale=255))
    s.run(10)
    s.command("PLAY", play(1, offset=30))       # replaces slot 0 at the next tick
    s.run(30)
    s.command("STOP", b"\x03")                 # reserved bit: BAD_PARAM
    s.command("STOP", b"")                     # too short: BAD_LENGTH
    s.run(2)


@session("a retransmitted command gets the remembered response and is not executed "
         "again; same seq with other bytes is a new command; HELLO clears the memory", wake=0)
def duplicates(s):
    s.upload(0, TAP)
    frame = s.command("PLAY", play(0))
    s.run(5)
    s.feed(frame, "the same PLAY again: ACK again, no restart")
    s.run(5)
    s.command("PLAY", play(0, scale=100), seq=s.seq)  # same seq, other bytes: executed
    s.run(5)
    up = s.command("UPLOAD", bytes([1]) + u32(0) + BUZZ[:10])
    s.feed(up, "retransmitted UPLOAD: ACK fill 10 again (a re-execution would also give 10)")
    up2 = s.command("UPLOAD", bytes([1]) + u32(10) + BUZZ[10:])
    s.feed(up2, "retransmitted append: the remembered ACK, not BAD_OFFSET")
    s.command("HELLO", bytes([2, 0]))
    s.feed(up2, "after HELLO the memory is clear: executed, BAD_OFFSET value = fill")
    s.run(30)


@session("every UPLOAD / COMMIT / PLAY refusal in the text's order; a slot that "
         "fails the CRC or validation is emptied", slots=2, slot_capacity=64, wake=0)
def slot_errors(s):
    bad_body = bytearray(BUZZ)
    bad_body[16] ^= 0x01                       # body CRC no longer matches: validation error 8
    s.command("UPLOAD", bytes([2]) + u32(0) + b"\x01")          # BAD_SLOT
    s.command("UPLOAD", bytes([0]) + u32(0))                    # no data: BAD_LENGTH
    s.command("UPLOAD", bytes([0]) + u32(0) + BUZZ[:10])
    s.command("UPLOAD", bytes([0]) + u32(5) + BUZZ[5:10])       # BAD_OFFSET, value 10
    s.command("UPLOAD", bytes([0]) + u32(10) + bytes(60))       # NO_SPACE, value 64
    s.command("COMMIT", commit(0, BUZZ))                        # COMMIT_LENGTH, value 10
    s.command("UPLOAD", bytes([0]) + u32(10) + BUZZ[10:])
    s.command("COMMIT", commit(0, BUZZ, crc=0x1234))            # CHECKSUM_MISMATCH: slot emptied
    s.command("PLAY", play(0))                                  # NOT_COMMITTED
    s.command("COMMIT", commit(0, BUZZ))                        # COMMIT_LENGTH, value 0
    s.command("UPLOAD", bytes([1]) + u32(0) + bytes(bad_body))
    s.command("COMMIT", commit(1, bytes(bad_body)))             # validation: 8 BAD_CRC
    s.command("UPLOAD", bytes([1]) + u32(0) + b"HP")
    s.command("COMMIT", commit(1, b"HP"))                       # validation: 1 HEADER_TRUNCATED
    s.command("COMMIT", bytes([1]) + u32(0))                    # too short: BAD_LENGTH
    s.upload(0, LONG)
    s.command("PLAY", play(3))                                  # BAD_SLOT
    s.command("PLAY", play(0, flags=0x82))                      # BAD_PARAM
    s.command("PLAY", play(0)[:9])                              # BAD_LENGTH
    s.command("PLAY", play(0))
    s.run(5)
    s.command("UPLOAD", bytes([0]) + u32(0) + b"\x00")          # SLOT_BUSY
    s.command("COMMIT", commit(0, LONG))                        # SLOT_BUSY
    s.command("UPLOAD", bytes([1]) + u32(0) + TAP)              # another slot: fine
    s.command("COMMIT", commit(1, TAP))
    s.command("PLAY", play(1, at=s.now + 50))
    s.command("UPLOAD", bytes([1]) + u32(0) + TAP)              # pending: SLOT_BUSY
    s.run(70)


@session("a program 4x the ring streamed under credits: STREAM_OPEN, CREDIT, "
         "prefill, PLAY 0xFF, CREDIT as the play head moves, FINISHED", stream=32, wake=0)
def stream_in_time(s):
    body_lines = []
    for i in range(40):
        body_lines.append(("SET_A", 3, (i * 37) % 256))
    body_lines.append(("END", 3))
    program = prog(body_lines)
    header, body = program[:16], program[16:]
    s.command("STREAM_OPEN", header)
    sent = s.stream_to_credit(body, 0, chunk=12)
    s.command("PLAY", play(0xFF))
    while s.now < 160:
        s.run(1)
        sent = s.stream_to_credit(body, sent, chunk=12)
    s.run(10)


@session("the host stops feeding: the fetch that finds a byte missing faults "
         "48 (underrun) and brakes, never plays garbage; the stream closes", stream=16, wake=0, brake=3)
def stream_starved(s):
    program = prog([("SET_A", 2, 10 + i) for i in range(20)] + [("END", 2)])
    header, body = program[:16], program[16:]
    s.command("STREAM_OPEN", header)
    s.message("STREAM_DATA", u32(0) + body[:16])
    s.command("PLAY", play(0xFF))
    s.run(30)
    s.message("STREAM_DATA", u32(16) + body[16:20])     # too late: the stream is closed, ignored
    s.run(5)


@session("a lost STREAM_DATA: the next one arrives at the wrong offset and the "
         "CREDIT tells where to resume; data beyond the credit is dropped; an empty STREAM_DATA "
         "queries the credit", stream=32, wake=0)
def stream_recovery(s):
    program = prog([("SET_A", 4, 50 + i) for i in range(30)] + [("END", 4)])
    header, body = program[:16], program[16:]
    s.command("STREAM_OPEN", header)
    s.message("STREAM_DATA", u32(0) + body[:10])
    s.note("bytes 10..19 are lost on the line")
    s.message("STREAM_DATA", u32(20) + body[20:30])     # wrong offset: CREDIT next 10
    s.message("STREAM_DATA", u32(10) + body[10:30])
    s.message("STREAM_DATA", u32(30) + body[30:40])     # beyond limit 32: dropped, CREDIT
    s.message("STREAM_DATA", u32(30) + body[30:32])
    s.message("STREAM_DATA", u32(32))                   # credit query
    s.command("PLAY", play(0xFF))
    sent = 32
    while s.now < 140:
        s.run(1)
        sent = s.stream_to_credit(body, sent)
    s.run(10)


@session("STREAM_OPEN header errors (rule 1-5 codes), PLAY 0xFF without an open "
         "stream, loops != 1, STREAM_OPEN while the stream plays, STOP closes the stream", stream=16,
         wake=0)
def stream_refusals(s):
    program = prog([("SET_A", 1, 100), ("END", 40)])
    header, body = program[:16], program[16:]
    s.command("PLAY", play(0xFF))                               # NO_STREAM
    s.command("STREAM_OPEN", header[:15])                       # BAD_LENGTH
    bad_rate = bytearray(header)
    bad_rate[4] = 0xE9                                          # 1001 Hz
    s.command("STREAM_OPEN", bytes(bad_rate))                   # 5 BAD_RATE
    bad_magic = bytearray(header)
    bad_magic[0] = 0x47
    s.command("STREAM_OPEN", bytes(bad_magic))                  # 2 BAD_MAGIC
    s.command("STREAM_OPEN", header)
    s.message("STREAM_DATA", u32(0) + body)
    s.command("PLAY", play(0xFF, loops=2))                      # BAD_PARAM
    s.command("PLAY", play(0xFF))
    s.command("STREAM_OPEN", header)                            # pending: SLOT_BUSY
    s.run(5)
    s.command("STREAM_OPEN", header)                            # playing: SLOT_BUSY
    s.command("PLAY", play(0xFF))                               # playing: SLOT_BUSY
    s.command("STOP", b"\x01")
    s.command("PLAY", play(0xFF))                               # closed by STOP: NO_STREAM
    s.message("STREAM_DATA", u32(0) + body)                     # closed: ignored, no CREDIT
    s.run(25)


@session("a device without a stream ring: INFO has no STREAM bit, STREAM_OPEN and "
         "PLAY 0xFF are UNSUPPORTED", stream=0, caps=0xF)
def no_stream_ring(s):
    s.command("HELLO", bytes([2, 0]))
    s.command("STREAM_OPEN", bytes(16))
    s.command("PLAY", play(0xFF))
    s.message("STREAM_DATA", u32(0))
    s.run(3)


@session("host silence during a long play: the watchdog-th step after the last frame "
         "brakes with FAULT 50; PINGs keep a play alive; a pending play is cancelled too; 0 turns it "
         "off; unknown keys and large values are refused", wake=0, watchdog=100, brake=4)
def watchdog(s):
    s.upload(0, LONG)
    s.command("PLAY", play(0))
    s.run(130)
    s.command("PLAY", play(0))
    for _ in range(5):
        s.run(60)
        s.message("PING", u32(s.now), seq=s.now & 0xFF)
    s.run(30)
    s.command("STOP", b"\x01")
    s.run(10)
    s.command("PLAY", play(0, at=s.now + 500))
    s.run(120)
    s.command("SET_CONFIG", bytes([1]) + u32(70000))            # BAD_PARAM
    s.command("SET_CONFIG", bytes([2]) + u32(5))                # BAD_PARAM
    s.command("SET_CONFIG", bytes([1]) + u32(0))
    s.command("PLAY", play(0))
    s.run(300)


@session("output-stage faults (2.18): reported once when they arise (slot 0xFE when nothing "
         "plays), a play that would start ends with the fault instead, a fault during a play or a "
         "pending one ends it with brake, DIAG reports the fault, a cleared fault lets plays start "
         "again", wake=0, brake=4, caps=0x16)
def stage_faults(s):
    s.upload(0, BUZZ)
    s.message("DIAG", seq=40)
    s.run(2)
    s.fault(dv.E["DRIVER_ABSENT"], "the board finds no driver")
    s.run(3)
    s.fault(dv.E["DRIVER_ABSENT"], "the same fault again: nothing new to report")
    s.message("DIAG", seq=41)
    s.command("PLAY", play(0))
    s.run(3)
    s.command("STREAM_OPEN", bytes(prog([("SET_A", 0, 50), ("END", 5)])[:16]))
    s.command("PLAY", play(0xFF))
    s.run(3)
    s.fault(0, "the driver answers again")
    s.message("DIAG", seq=42)
    s.command("PLAY", play(0, loops=0))
    s.run(20)
    s.fault(dv.E["OVER_TEMPERATURE"], "the driver shuts down, hot")
    s.run(8)
    s.fault(dv.E["OVER_CURRENT"], "another fault: reported too")
    s.run(3)
    s.fault(0)
    s.command("PLAY", play(0, at=s.now + 10))
    s.run(4)
    s.fault(dv.E["DRIVER_BUS"], "a failed transfer while a play is pending")
    s.run(15)
    s.fault(0)
    s.command("PLAY", play(0))
    s.run(12)
    s.command("SET_CONFIG", bytes([2]) + u32(1))  # RECALIBRATE: a board's key, BAD_PARAM without one
    s.run(2)


@session("play records (2.19): QUERY before any play, while one is pending and while it plays; "
         "records of a finished play, one replaced by another PLAY, one stopped, a pending play the "
         "watchdog cancels; record 2, which no device keeps (record 1 is optional: the C and Swift tests ask for it); HELLO with a part "
         "byte answered by INFO_PART, every part and one past the end", wake=5, watchdog=60)
def status_and_parts(s):
    for part in range(9):
        s.command("HELLO", bytes([dv.MAJOR, 0, part]))
    s.command("HELLO", bytes([dv.MAJOR + 1, 0, 0]))  # another major: refused, parts or not
    s.message("QUERY", seq=50)                 # nothing since boot
    s.upload(0, TAP)
    s.upload(1, BUZZ)
    s.command("PLAY", play(0))                 # cold: pending for 5 ticks
    s.message("QUERY", seq=51)
    s.run(8)
    s.message("QUERY", b"\x00", seq=52)       # playing, first output seen
    s.run(20)
    s.message("QUERY", seq=53)                 # finished
    s.command("PLAY", play(1, loops=0))
    s.run(5)
    s.command("PLAY", play(0))                 # replaces the looping play
    s.run(3)
    s.message("QUERY", seq=54)                 # the play that replaced it
    s.run(20)
    s.command("PLAY", play(1, loops=0))
    s.run(4)
    s.command("STOP", b"\x01")
    s.message("QUERY", seq=55)                 # STOPPED by STOP
    s.message("QUERY", b"\x02", seq=56)       # no record 2
    s.run(10)
    s.command("PLAY", play(0, at=s.now + 200))
    s.run(70)                                  # the watchdog cancels the pending play
    s.message("QUERY", seq=57)
    s.message("QUERY", b"\x00\x09", seq=58)  # extra bytes ignored
    s.run(2)


@session("garbage between frames, a frame with a flipped bit (CRC), one cut "
         "short, an oversized one, a frame of another version: dropped, and the next frame works "
         "(only valid frames reset the watchdog)", wake=0)
def garbage_and_damage(s):
    s.upload(0, TAP)
    s.feed(b"\x00hello world\x00\x00\xff\xfe", "garbage, then an unterminated tail")
    frame = bytearray(dv.frame(T["PLAY"], 9, play(0)))
    frame[5] ^= 0x10
    s.feed(b"\x00" + bytes(frame), "leading 0x00 ends the garbage; the PLAY has a flipped bit: CRC error")
    s.run(3)
    s.feed(dv.frame(T["PLAY"], 9, play(0))[:6] + b"\x00", "a frame cut short")
    s.feed(bytes([0xFF] * 300) + b"\x00", "oversized")
    s.feed(dv.frame(T["PING"], 1, u32(5), version=2), "frame version 2: ignored")
    s.run(3)
    s.command("PLAY", play(0))
    s.run(30)


def write_all():
    for old in os.listdir(HERE):
        if old.endswith(".txt"):
            os.remove(os.path.join(HERE, old))
    for fn in SESSIONS:
        fn()


if __name__ == "__main__":
    write_all()
    print(f"{len(SESSIONS)} device vectors")
