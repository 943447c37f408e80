"""Players and channels of protocol 3 (PROTOCOL-3.md 3.3-3.8), written from the text.

A Player plays one slot program on one channel with its own time mapping (rate, pause, seek,
loop range, loop count) and gain (scale, fade, mute, duck); a Channel mixes its players' samples
(3.6) and applies the limiter and the brake rule. Built on program3.State (closed-form ramps,
voices as intervals, loops expanded), not on an incremental interpreter.
"""
import program3 as p3
from program3 import ref

RATE_ONE = 256                 # rate codes: 1/256 of real time; 64 .. 1024 = 0.25x .. 4x (3.4)
RATE_MIN, RATE_MAX = 64, 1024
TRIM_MAX = 10000               # ppm (3.10)
SCHEDULED = 2                  # scheduled controls a player holds (3.7)


def fade_step(fade_ticks):
    """S: the most a player's gain moves in one tick (3.7): ceil(256 / R), 256 when R = 0."""
    return 256 if fade_ticks == 0 else -(-256 // fade_ticks)


def m_prime(m):
    return m + (m >> 7)


class Player:
    """One entry of the device's player pool (3.3)."""

    def __init__(self, index):
        self.index = index
        self.free()

    def free(self):
        self.state = "free"  # free, pending, playing, braking
        self.play = self.channel = self.slot = None
        self.scheduled = []  # up to SCHEDULED (op, at): scheduled PAUSE, RESUME, STOP (3.7)

    # -- set up by an accepted PLAY (3.3); the seek to `start` is computed now, not in a step
    def reserve(self, play, channel, slot, program, p):
        header, instructions = p3.validate3(program, p["cfg"], p["closed"])
        self.state, self.play, self.channel, self.slot = "pending", play, channel, slot
        self.seq, self.at = p["seq"], p["at"]
        self.instructions, self.plan = instructions, ref.timeline(instructions)
        self.total, self.sharp_flag = header["total"], header["flags"] & 1
        self.peak = p3.peak(instructions)
        self.scale, self.offset = p["scale"], p["offset"]
        self.loops, self.loop_end = p["loops"], p["loop_end"] or header["total"]
        self.rate, self.priority, self.duck = p["rate"], p["priority"], p["duck"]
        self.sum, self.muted, self.cut = p["sum"], p["muted"], p["cut"]
        self.start_at = p["start"]
        self.scheduled = []
        self.seek_to(p["start"])
        self.gain, self.paused, self.frozen_until = 256, False, None
        self.held = (0, 0)
        self.iterations, self.output_seen = 0, False
        self.brake_left = 0

    def seek_to(self, k):
        """The interpreter state about to play program tick k (3.5), position k, not yet output."""
        self.st, _ = p3.fast_state(self.instructions, k)
        self.pos, self.phi, self.fresh, self.done = k, 0, True, k - 1

    def work(self):
        """The executions this player may need in one device tick (3.9)."""
        if self.state not in ("pending", "playing"):
            return 0
        return self.peak * -(-self.rate // RATE_ONE)

    def sounding(self, n):
        """Counts for ducking at step n (3.6): playing, not paused, not muted, not in a seek's fade (which
        ends at frozen_until: from that step on it sounds, 3.5)."""
        fading = self.frozen_until is not None and n < self.frozen_until
        return self.state == "playing" and not self.paused and not self.muted and not fading

    def frozen(self, n):
        if self.frozen_until is not None and n >= self.frozen_until:
            self.frozen_until = None
        return self.paused or self.frozen_until is not None

    # -- one device tick (3.4, 3.7)
    def step(self, n, duck_gain, slew, brake_ticks):
        """Returns (amp, sharp, contributes, brake request, end) for device tick n; end is None,
        ("FINISHED", 0) or a fault."""
        if self.state == "braking":
            self.brake_left -= 1
            if self.brake_left <= 0:
                self.free()
            return 0, 0, False, True, None
        frozen = self.frozen(n)
        target = 0 if frozen or self.muted else duck_gain
        self.gain += max(-slew, min(slew, target - self.gain))
        end = None
        if frozen:
            src = self.held
        else:
            if not self.fresh:
                self.phi += self.rate
                self.pos += self.phi >> 8
                self.phi &= 0xFF
            self.fresh = False
            end = self.advance(brake_ticks)
            if end is not None:
                return 0, 0, False, self.brake_from_here(brake_ticks), end
            src = self.held = self.st.sample(self.pos, self.sharp_flag)
        amp = (src[0] * m_prime(self.scale) * self.gain + 32768) >> 16
        sharp = 0 if not self.sharp_flag else min(max(src[1] + self.offset, 0), 255)
        return amp, sharp, amp > 0, False, end

    def advance(self, brake_ticks):
        """Executes program ticks done+1 .. pos; an iteration ends at its end E (loop_end, or T for
        the last iteration and when loop_end = T): with iterations left the program starts again and
        pos becomes pos - E; else the play ends at T (END), braking from this tick."""
        while True:
            last = self.loops == 1
            e = self.total if last else self.loop_end
            q = self.done + 1
            while q <= self.pos and q < e:
                while self.st.idx < len(self.plan) and self.plan[self.st.idx][0] == q:
                    self.st.execute(self.plan[self.st.idx][1], q)
                    self.st.idx += 1
                q += 1
            self.done = q - 1
            if self.pos < e:
                return None
            # the iteration ends at program tick e
            self.iterations += 1
            if last or self.total == 0:
                return ("FINISHED", 0)
            if self.loops > 1:
                self.loops -= 1
            self.pos -= e
            self.st, self.done = p3.State(), -1

    def brake(self, brake_ticks):
        self.state, self.brake_left = ("braking", brake_ticks) if brake_ticks else ("free", 0)
        if self.state == "free":
            self.play = self.channel = None

    def brake_from_here(self, brake_ticks):
        """The play ends in this step, which is its first brake step (3.4, 3.8 step 5): B brake steps
        in all, this one included, as 1.13 and 2.0; returns whether it requests the brake now."""
        self.brake(brake_ticks)
        if self.state != "braking":
            return False
        self.brake_left -= 1
        if self.brake_left == 0:
            self.state, self.play, self.channel = "free", None, None
        return True

    def stop(self, brake, brake_ticks):
        if brake:
            self.brake(brake_ticks)
        else:
            self.free()


class Channel:
    """One actuator: its configuration (3.2), its limiter counter and last sample."""

    def __init__(self, index, brake=20, threshold=224, safety=30000, actuator=1, stage=1, profile_id=7,
                 profile_name="lra-test", caps=0x3, rated_mv=2000, limit_mv=3000, wake=20):
        self.index, self.brake, self.threshold, self.safety = index, brake, threshold, safety
        self.actuator, self.stage, self.profile_id, self.profile_name = actuator, stage, profile_id, profile_name
        self.caps, self.rated_mv, self.limit_mv, self.wake = caps, rated_mv, limit_mv, wake
        self.full = 0


def mix(contributions):
    """3.6: contributions [(amp, sharp, sum mode)] of the players with amp > 0 on one channel ->
    (amp, sharp). Intensity: max(saturating sum of the SUM players, largest MAX player); sharpness:
    the amplitude-weighted mean of every contributing player, rounded half up."""
    if not contributions:
        return 0, 0
    total = min(255, sum(a for a, _, s in contributions if s))
    loudest = max([a for a, _, s in contributions if not s], default=0)
    weight = sum(a for a, _, _ in contributions)
    sharp = (sum(a * s for a, s, _ in contributions) + weight // 2) // weight
    return max(total, loudest), sharp


def duck_gains(players, channel, n):
    """3.6: for each player on the channel, the gain ducking gives it: the least m'(duck) of the
    sounding players of higher priority on the same channel, 256 when there is none."""
    out = {}
    mine = [p for p in players if p.channel == channel and p.state == "playing"]
    for p in mine:
        above = [m_prime(q.duck) for q in mine if q is not p and q.sounding(n) and q.priority > p.priority]
        out[p.index] = min(above, default=256)
    return out


def tick_mapping(period, trims, ticks):
    """3.10: the board time (in timer counts) at which each of `ticks` ticks starts, for a nominal
    period of `period` counts and trims[k] ppm in force during tick k; the accumulator starts at 0.
    Returns [start of tick 0, ..., start of tick `ticks`]."""
    acc, t, out = 0, 0, [0]
    for k in range(ticks):
        acc += period * trims[k]
        delta = acc // 1000000          # floor toward minus infinity
        acc -= delta * 1000000
        t += period - delta
        out.append(t)
    return out


def sync_follower(leader_ratio, period, sync_period, ticks, offset):
    """3.10's follower against an ideal leader whose ticks last `leader_ratio` (a Fraction) times the
    follower's nominal `period`, in follower timer counts, its first edge `offset` counts after the
    follower's tick 0. Returns (the error e of every edge, the final trim)."""
    tau, acc, c, t, errors = 0, 0, 0, 0, []
    for k in range(ticks + 1):
        if k % sync_period == 0 and k > 0:
            edge = offset + k * period * leader_ratio
            e = int(edge - t) if edge >= t else -int(t - edge)  # whole counts, as a capture reads
            if abs(e) < period // 2:  # else out of lock: ignored
                c += e
                tau = max(-TRIM_MAX, min(TRIM_MAX, tau - (e * 10**6) // (2 * sync_period * period)))
            errors.append(e)
        acc += period * tau
        delta = acc // 1000000
        acc -= delta * 1000000
        step = max(-(period // 64), min(period // 64, c))
        c -= step
        t += period - delta + step
    return errors, tau
