#!/usr/bin/env python3
"""Writes frames.txt and cobs.txt: wire-format vectors for the frame layer (PROTOCOL.md 2.1).

A third implementation, independent of the Swift and C codecs that the vectors test (its CRC
and COBS are ../hbwire.py, shared with the device reference).
Deterministic: run it again and the files do not change.
Run: python3 firmware-protocol/vectors/frames/generate.py (writes next to this file)

frames.txt: blocks of
    vector <name>
    wire <hex bytes received, in order>      ("-" for none)
    frame <version> <type> <sequence> <flags> <payload hex or ->   (one per expected frame, in order)
    error <too_long|cobs|short|crc|version>                        (interleaved with frames, in order)
    roundtrip        (optional: encoding the expected frames, concatenated, gives exactly `wire`)
    end
cobs.txt: lines "<decoded hex or -> <encoded hex>" (shortest-form encodings, no delimiter).
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from hbwire import cobs, crc16  # noqa: E402

VERSION, HEADER, CRC_SIZE, MAX_PAYLOAD = 1, 4, 2, 128


def raw(version, type_, seq, flags, payload, crc_order="little"):
    body = bytes([version, type_, seq, flags]) + bytes(payload)
    return body + crc16(body).to_bytes(2, crc_order)


def wire(*args, **kwargs):
    return cobs(raw(*args, **kwargs)) + b"\x00"


def hexs(b):
    return b.hex() if b else "-"


rng = random.Random(20240521)
blocks = []


def reference_decode(stream):
    """Splits at each 0x00 and classifies every non-empty segment in the spec's order."""
    events = []
    for segment in stream.split(b"\x00")[:-1]:  # the part after the last 0x00 is still pending
        if not segment:
            continue
        out, i, truncated = bytearray(), 0, False
        while i < len(segment):
            code = segment[i]
            block = segment[i + 1:i + code]
            truncated = len(block) < code - 1
            out += block
            i += code
            if code != 0xFF and i < len(segment):
                out.append(0)
        if len(out) > HEADER + MAX_PAYLOAD + CRC_SIZE:
            events.append(("error", "too_long"))
        elif truncated:
            events.append(("error", "cobs"))
        elif len(out) < HEADER + CRC_SIZE:
            events.append(("error", "short"))
        elif crc16(out[:-2]) != int.from_bytes(out[-2:], "little"):
            events.append(("error", "crc"))
        elif out[0] != VERSION:
            events.append(("error", "version"))
        else:
            events.append(("frame", out[0], out[1], out[2], out[3], list(out[4:-2])))
    return events


def vector(name, wire_bytes, expect, roundtrip=False):
    assert reference_decode(wire_bytes) == [tuple(e[:5]) + (list(e[5]),) if e[0] == "frame" else e for e in expect], name
    lines = [f"vector {name}", f"wire {hexs(wire_bytes)}"]
    for e in expect:
        if e[0] == "frame":
            _, v, t, s, f, p = e
            lines.append(f"frame {v:02x} {t:02x} {s:02x} {f:02x} {hexs(bytes(p))}")
        else:
            lines.append(f"error {e[1]}")
    if roundtrip:
        lines.append("roundtrip")
    lines.append("end")
    blocks.append("\n".join(lines))


def ok(name, t, s, f, p, roundtrip=True):
    vector(name, wire(VERSION, t, s, f, p), [("frame", VERSION, t, s, f, p)], roundtrip)


ok("empty-payload", 0x01, 0x00, 0x00, [])
ok("zeros-in-header-and-payload", 0x00, 0x00, 0x00, [0, 0, 0])
ok("tty-control-bytes", 0x10, 0x11, 0x13, [0x11, 0x13, 0x0A, 0x0D, 0x03, 0x04, 0x7F, 0xFF, 0x00])
ok("all-ones-header", 0xFF, 0xFF, 0xFF, [0xFF] * 5)
ok("ascii-payload", 0x20, 0x07, 0x00, list(b"123456789"))
ok("max-payload-counting", 0x30, 0x80, 0x01, list(range(MAX_PAYLOAD)))
ok("max-payload-nonzero", 0x31, 0x81, 0x00, [rng.randrange(1, 256) for _ in range(MAX_PAYLOAD)])
for i in range(8):
    n = rng.randrange(0, MAX_PAYLOAD + 1)
    ok(f"random-{i}", rng.randrange(256), rng.randrange(256), rng.randrange(256),
       [rng.choice([0, rng.randrange(256)]) for _ in range(n)])

a = (VERSION, 0x02, 0x01, 0x00, [0xAA, 0x00, 0xBB])
b = (VERSION, 0x03, 0x02, 0x00, [])
vector("two-frames-back-to-back", wire(*a) + wire(*b), [("frame",) + a, ("frame",) + b], roundtrip=True)
vector("leading-and-repeated-delimiters", b"\x00\x00" + wire(*a) + b"\x00\x00\x00" + wire(*b) + b"\x00",
       [("frame",) + a, ("frame",) + b])
vector("garbage-then-delimiter-then-frame", b"\x41\x42\x43\x00" + wire(*a), [("error", "cobs"), ("frame",) + a])
# Garbage with no delimiter fuses with the next frame, which is lost; the one after survives.
vector("garbage-fused-with-frame", b"\x02\x42" + wire(*a) + wire(*b), [("error", "crc"), ("frame",) + b])
vector("too-long-by-one", cobs(raw(VERSION, 0x04, 0x00, 0x00, [0x55] * (MAX_PAYLOAD + 1))) + b"\x00",
       [("error", "too_long")])
vector("too-long-garbage-then-frame", bytes(rng.randrange(1, 256) for _ in range(300)) + b"\x00" + wire(*b),
       [("error", "too_long"), ("frame",) + b])
vector("short-empty-block", b"\x01\x00", [("error", "short")])
vector("short-five-bytes", cobs(bytes([1, 2, 3, 4, 5])) + b"\x00", [("error", "short")])
vector("cobs-truncated-block", b"\x05\x01\x02\x00", [("error", "cobs")])
good = raw(VERSION, 0x05, 0x09, 0x00, [1, 2, 3, 4])
flipped = bytearray(good)
flipped[5] ^= 0x10
vector("crc-bit-flip", cobs(bytes(flipped)) + b"\x00", [("error", "crc")])
vector("crc-big-endian-rejected", wire(VERSION, 0x05, 0x09, 0x00, [1, 2, 3, 4], crc_order="big"), [("error", "crc")])
vector("version-2-rejected", wire(2, 0x01, 0x00, 0x00, [0x42]), [("error", "version")])
vector("version-0-rejected-then-frame", wire(0, 0x01, 0x00, 0x00, []) + wire(*b), [("error", "version"), ("frame",) + b])
vector("nothing", b"", [])
vector("unterminated-frame-pending", wire(*a)[:-1], [])

with open(os.path.join(HERE, "frames.txt"), "w") as f:
    f.write("# Frame vectors (firmware-protocol/PROTOCOL.md 2.1). Generated by generate.py; do not edit.\n")
    f.write("# Format: see generate.py. Hex bytes, lowercase, no separators.\n\n")
    f.write("\n\n".join(blocks) + "\n")

cobs_cases = [b"", b"\x00", b"\x00\x00", b"\x11", b"\x11\x00", b"\x00\x11", b"\x11\x22\x00\x33",
              bytes(range(1, 254)), bytes(range(1, 255)), bytes(range(1, 256)),
              bytes(range(0, 255)), bytes(range(1, 255)) + b"\x00", bytes(range(1, 255)) + b"\x00\x01",
              bytes([0xFF]) * 508, bytes([0xFF]) * 509, bytes(rng.randrange(256) for _ in range(600))]
with open(os.path.join(HERE, "cobs.txt"), "w") as f:
    f.write("# COBS vectors: <decoded hex or -> <encoded hex>, shortest form, no delimiter. Generated by generate.py.\n")
    for c in cobs_cases:
        f.write(f"{hexs(c)} {cobs(c).hex()}\n")
