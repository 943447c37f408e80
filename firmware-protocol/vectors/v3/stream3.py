"""The stream on a player (PROTOCOL-3.md 3.12), written from the text: 2.10's ring and credits
unchanged, the streamed program read by v2's steppable interpreter (../device/device.py's Interp,
which checks each instruction as it is fetched, 1.14), played by one player on one channel at 1x,
one iteration, no seek. A paused stream fetches nothing, so it releases no ring bytes and cannot
underrun."""
import device as dv
import player3 as pl
from program3 import ref


class PoolPlayer(pl.Player):
    """A pool entry: it plays a slot program as player3.Player does, or the stream (slot 0xFF)."""

    def reserve_stream(self, play, channel, stream, p):
        self.state, self.play, self.channel, self.slot = "pending", play, channel, 0xFF
        self.seq, self.at, self.stream = p["seq"], p["at"], stream
        self.scale, self.offset = p["scale"], p["offset"]
        self.loops, self.rate, self.priority, self.duck = 1, pl.RATE_ONE, p["priority"], p["duck"]
        self.sum, self.muted, self.cut = p["sum"], p["muted"], p["cut"]
        self.scheduled, self.gain, self.paused, self.frozen_until = [], 256, False, None
        self.held, self.iterations, self.output_seen, self.brake_left = (0, 0), 0, False, 0
        self.pos, self.peak, self.total = 0, 9, None
        self.interp = None

    def start_stream(self):
        """At the play's start: load the stored header over the ring (1.14; its version byte is
        format 3's, the v2 interpreter is handed format 2's: the body and its CRC are the same)."""
        cfg = ref.Config(safety=0xFFFFFFFF, brake=1)  # the limiter and brake are the channel's (3.6)
        self.interp = dv.Interp(cfg)
        header = self.stream.header[:2] + bytes([ref.FORMAT_VERSION]) + self.stream.header[3:]
        self.sharp_flag = self.stream.header[3] & 1
        return self.interp.load_stream(header, self.stream)

    def work(self):
        if self.slot != 0xFF:
            return super().work()
        return 9 if self.state in ("pending", "playing") else 0

    def step(self, n, duck_gain, slew, brake_ticks):
        if self.state == "braking" or self.slot != 0xFF:
            return super().step(n, duck_gain, slew, brake_ticks)
        frozen = self.frozen(n)
        target = 0 if frozen or self.muted else duck_gain
        self.gain += max(-slew, min(slew, target - self.gain))
        if frozen:
            src = self.held
        else:
            amp, sharp, _ = self.interp.step()
            if self.interp.mode != "playing":  # END, or a fault its fetch found (1.14)
                error = self.interp.error
                self.iterations = 1 if error == 0 else 0
                braking = self.brake_from_here(brake_ticks)
                return 0, 0, False, braking, ("FINISHED", 0) if error == 0 else ("FAULT", error)
            self.pos = self.interp.n - 1
            src = self.held = (amp, sharp)
        amp = (src[0] * pl.m_prime(self.scale) * self.gain + 32768) >> 16
        sharp = 0 if not self.sharp_flag else min(max(src[1] + self.offset, 0), 255)
        return amp, sharp, amp > 0, False, None
