/// One output channel, amplitude or sharpness (firmware-protocol/PROTOCOL.md 1.9): its value at
/// the current tick and, while a ramp runs, the state of the exact incremental ramp rule.
///
/// A ramp from v0 to v1 over D ticks shows, k ticks after its start,
/// `v0 + sgn(v1 - v0) * floor((|v1 - v0| * k + floor(D / 2)) / D)` and holds v1 after D ticks.
/// Per tick that is Bresenham: with `q, r = divmod(|v1 - v0|, D)` and `e = floor(D / 2)` at the
/// start, each advance adds `q`, adds `r` to `e`, and carries one more when `e >= D`. No division
/// per tick, and equal to the closed form at every k.
struct RampChannel: Sendable {
    /// The channel's value at the current tick.
    private(set) var value: UInt8 = 0
    /// Advances left until the ramp arrives; 0: no ramp running.
    private var left: UInt32 = 0
    /// D, the ramp's duration.
    private var duration: UInt32 = 0
    /// e, the accumulated remainder.
    private var error: UInt32 = 0
    /// q = |v1 - v0| div D.
    private var quotient: UInt8 = 0
    /// r = |v1 - v0| mod D (below 256, since |v1 - v0| is).
    private var remainder: UInt8 = 0
    private var down = false

    /// SET: the value from this tick on; a running ramp ends.
    mutating func set(_ newValue: UInt8) {
        value = newValue
        left = 0
    }

    /// RAMP: from the current value (a running ramp's value at this tick) to `target`, arriving
    /// `duration` ticks later. D = 0 is a step.
    mutating func ramp(to target: UInt8, duration: UInt32) {
        guard duration > 0 else { return set(target) }
        down = target < value
        let delta = UInt32(down ? value - target : target - value)
        quotient = UInt8(delta / duration)
        remainder = UInt8(delta % duration)
        self.duration = duration
        error = duration / 2  // floor(D / 2): the exact line rounded half up, away from v0
        left = duration
    }

    /// Moves to the value of the next tick (1.8 step 8).
    mutating func advance() {
        guard left > 0 else { return }
        var increment = quotient
        error += UInt32(remainder)
        if error >= duration {
            error -= duration
            increment += 1
        }
        value = down ? value - increment : value + increment
        left -= 1
    }

    /// Moves `ticks` ticks on at once, by the closed form (the values `ticks` calls of `advance()`
    /// reach): after k advances the ramp has added `q * k + floor((floor(D / 2) + r * k) / D)` and
    /// its remainder is `(floor(D / 2) + r * k) mod D`. A seek's jump (PROTOCOL-3.md 3.5).
    mutating func advance(by ticks: UInt32) {
        guard left > 0, ticks > 0 else { return }
        let k = UInt64(min(ticks, left))
        let carried = UInt64(error) + UInt64(remainder) * k
        let moved = UInt64(quotient) * k + carried / UInt64(duration)
        error = UInt32(carried % UInt64(duration))
        value = down ? value - UInt8(moved) : value + UInt8(moved)
        left -= UInt32(k)
    }
}
