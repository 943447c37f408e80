"""A host driving the protocol 3 reference device (device3.py), for the generator and the property
tests: message builders with PROTOCOL-3.md 3.11's layouts, and a session that records inputs,
outputs and every channel's samples."""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "programs"))
import generate as pg  # noqa: E402  (the v2 program vectors' assembler; before device3 moves ../device first)
import device3 as d3  # noqa: E402
import host_session as hs  # noqa: E402  (the host side both versions' vectors share)
import program3 as p3  # noqa: E402

u16, u32 = d3.u16, d3.u32


def prog(lines, **kw):
    return pg.program(lines, version=p3.FORMAT_VERSION, **kw)[0]


def play(play_id, mask, slot, at=None, scale=255, offset=0, loops=1, loop_end=0, start=0, rate=256,
         priority=0, duck=255, sum=False, cut=False, muted=False):
    flags = (1 if at is not None else 0) | (2 if sum else 0) | (4 if cut else 0) | (8 if muted else 0)
    return (bytes([play_id]) + u16(mask) + bytes([slot, flags]) + u32(at or 0) + bytes([scale, offset & 0xFF])
            + u16(loops) + u32(loop_end) + u32(start) + u16(rate) + bytes([priority, duck]))


def stop(play_id=0xFF, mask=0xFFFF, brake=True, at=None):
    return bytes([play_id]) + u16(mask) + bytes([(1 if brake else 0) | (2 if at is not None else 0)]) + u32(at or 0)


def control(play_id, mask, op, value=0, at=None):
    code = {v: k for k, v in d3.OPS.items()}[op]
    return bytes([play_id]) + u16(mask) + bytes([code, 1 if at is not None else 0]) + u32(at or 0) + u32(value)


def set_param(scale, offset, play_id=0xFF, mask=0xFFFF):
    return bytes([scale, offset & 0xFF, play_id]) + u16(mask)


class Session(hs.HostSession):
    T = d3.T
    describe = staticmethod(d3.describe)

    def __init__(self, cfg=None, **kw):
        config = cfg or d3.Config3(**kw)
        super().__init__(config, d3.Device3(config))

    def fault(self, channel, code, text=None):
        """The board reports channel's output-stage fault (0: none) before the next step."""
        self.fault_input((channel, code), text or f"channel {channel} reports stage fault {code}")
        self.dev.set_stage_fault(channel, code)

    def channel(self, c):
        return [s[c] for s in self.samples]

    def replies(self, name):
        return [(t, p) for (t, ty, _, p) in self.sent() if ty == d3.T[name]]

    def sample_lines(self):
        """Each channel's samples run-length coded as the v2 program vectors write them, prefixed `c<n>`."""
        return [f"c{c} {line}" for c in range(self.cfg.channels) for line in pg.rle(self.channel(c))]


def random_closed_program(rng, max_loops=2):
    """A random valid format-3 program (loops closed by construction or retried)."""
    while True:
        lines, depth, open_loops = [], 0, 0
        for _ in range(rng.randint(1, 14)):
            r = rng.random()
            d = rng.choice([0, 1, 2, 3, 5, 8, 13, 25, 40])
            if r < 0.12 and depth < max_loops:
                lines.append(("LOOP", d, rng.randint(1, 30)))
                depth += 1
            elif r < 0.22 and depth > 0:
                lines.append(("SET_A", d, rng.randint(0, 255)))
                lines.append(("ENDLOOP", rng.randint(1, 25)))
                depth -= 1
            elif r < 0.45:
                lines.append(("RAMP_A", d, rng.randint(0, 255), rng.choice([0, 1, 2, 5, 9, 30])))
            elif r < 0.6:
                lines.append(("RAMP_S", d, rng.randint(0, 255), rng.choice([0, 3, 7, 20])))
            elif r < 0.75:
                lines.append(("PULSE", d, rng.randint(0, 255), rng.randint(0, 255)))
            elif r < 0.88:
                lines.append(("SET_A", d, rng.randint(0, 255)))
            else:
                lines.append(("SET_S", d, rng.randint(0, 255)))
        while depth:
            lines.append(("SET_A", 0, 0))
            lines.append(("ENDLOOP", rng.randint(20, 40)))
            depth -= 1
        lines.append(("END", rng.randint(1, 30)))
        try:
            program = prog(lines)
            p3.validate3(program, d3.ref.Config())
            return program, lines
        except Exception:  # noqa: BLE001  (not valid under rules 1-31: draw again)
            continue


def rng(seed):
    return random.Random(seed)
