"""The host side of a device vector session, shared by the generators of both protocol versions
(generate.py here for PROTOCOL.md part 2, ../v3/session3.py for PROTOCOL-3.md): it numbers and
frames the messages it sends (the framing of 2.1 is the same in both), runs the reference device
tick by tick, records what a runner must replay and expect, and writes the vector file (format
in README.md).
"""
import os

import device as dv


def commit(slot, program, length=None, crc=None):
    """COMMIT's payload (2.7, the same in 3.0): the program's length and CRC unless given."""
    return bytes([slot]) + dv.u32(len(program) if length is None else length) + \
        dv.u16(dv.crc16(program) if crc is None else crc)


class HostSession:
    """A subclass gives its version's message types (T), a reading of a frame for the comments
    (describe) and its samples' lines (sample_lines); cfg is the device's configuration (line())."""

    def __init__(self, cfg, dev):
        self.cfg, self.dev = cfg, dev
        self.inputs, self.samples, self.seq, self.notes = [], [], 0, []

    @property
    def now(self):
        return self.dev.now

    def note(self, text):
        self.notes.append((self.now, text))

    def feed(self, data, text=None):
        self.inputs.append((self.now, bytes(data), text))
        self.dev.receive(bytes(data))

    def fault_input(self, where, text):
        """An output stage's fault reported by the board before the next step: `where` is the
        fault line's numbers, `text` its comment."""
        self.inputs.append((self.now, where, text))

    def command(self, name, payload=b"", seq=None):
        """Sends a command with the next sequence number (or `seq`); returns the frame bytes."""
        if seq is None:
            self.seq = (self.seq + 1) & 0xFF
            seq = self.seq
        data = dv.frame(self.T[name], seq, payload)
        self.feed(data, f"{name} seq {seq}")
        return data

    def message(self, name, payload=b"", seq=0):
        data = dv.frame(self.T[name], seq, payload)
        self.feed(data, name)
        return data

    def upload(self, slot, program, chunk=100):
        for offset in range(0, len(program), chunk):
            self.command("UPLOAD", bytes([slot]) + dv.u32(offset) + program[offset:offset + chunk])
        self.command("COMMIT", commit(slot, program))

    def run(self, ticks):
        for _ in range(ticks):
            self.samples.append(self.dev.step())

    def sent(self):
        """Frames the device sent so far: [(tick, type, seq, payload)]."""
        out = []
        for tick, data in self.dev.out:
            for f in dv.split_frames(data):
                out.append((tick, f[0], f[1], f[2]))
        return out

    def last_credit(self):
        p = [p for (_, t, _, p) in self.sent() if t == self.T["CREDIT"]][-1]
        return int.from_bytes(p[:4], "little"), int.from_bytes(p[4:8], "little")

    def stream_to_credit(self, body, sent, chunk=None):
        """A streaming host's turn: sends STREAM_DATA from byte `sent` of the body up to the limit of the
        last CREDIT, in pieces of at most `chunk` bytes (one piece if None); returns the new `sent`."""
        _, limit = self.last_credit()
        while sent < limit:
            n = limit - sent if chunk is None else min(chunk, limit - sent)
            self.message("STREAM_DATA", dv.u32(sent) + body[sent:sent + n])
            sent += n
        return sent

    def write(self, name, about, folder):
        lines = [f"# {name}: {about}", self.cfg.line()]
        notes = list(self.notes)
        for tick, data, text in self.inputs:
            while notes and notes[0][0] <= tick:
                lines.append(f"# {notes.pop(0)[1]}")
            if isinstance(data, tuple):
                lines.append(f"# fault {tick}: {text}")
                lines.append(f"fault {tick} {' '.join(map(str, data))}")
                continue
            if text:
                lines.append(f"# in {tick}: {text}")
            lines.append(f"in {tick} {data.hex() if data else '-'}")
        lines.append(f"ticks: {len(self.samples)}")
        for tick, data in self.dev.out:
            for f in dv.split_frames(data):
                lines.append(f"# out {tick}: {self.describe(f[0], f[1], f[2])}")
            lines.append(f"out {tick} {data.hex()}")
        lines += self.sample_lines()
        with open(os.path.join(folder, name + ".txt"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
