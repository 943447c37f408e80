import Foundation

/// Maps AHAP's 0...1 `AttackTime` / `DecayTime` / `ReleaseTime` values to seconds.
///
/// Apple only says "0 is the default (shortest)" and "higher values increase the time exponentially";
/// it never publishes numbers, so this project defines them (docs/semantics.md, "Envelope times"):
///
///     t(x) = T * (R^x - 1) / (R - 1),   x = clamp(value + control, 0, 1),   T = 1 s, R = 32
///
/// - `T = 1 s`: the iOS game haptics design guide's Core Haptics parameter table gives these parameters as
///   "0.0 - 1.0 seconds" (docs/presets.md, "Sources") and Apple's `releaseTime` page says "in seconds ...
///   from 0 to 1".
/// - The `- 1` makes x = 0 an instant step: a default continuous event is a rectangle, which the firmware
///   reproduces exactly (SET_A) instead of smearing every event with a minimum ramp.
/// - `R = 32`: each +0.2 doubles (t + T/31); x = 0.5 gives 150 ms, about the geometric middle between the
///   ~20 ms an LRA needs to ring up on its own (tau = Q / (pi f0), typically 20-50 ms for a coin LRA) and 1 s.
/// - The `Haptic*TimeControl` dynamic parameters (-1...1) add to the exponent, which is what
///   "increase/decrease exponentially" means for a value on an exponential scale.
public enum EnvelopeTime {
    /// T: the time for x = 1, in seconds.
    public static let maximumSeconds = 1.0
    /// R: the growth ratio of `(t + T/(R-1))` over the whole 0...1 range.
    public static let growth = 32.0

    /// Seconds for an AHAP envelope value plus a time control, the sum clamped to 0...1.
    public static func seconds(_ value: Double, control: Double = 0) -> Double {
        let x = min(max(value + control, 0), 1)
        guard x.isFinite else { return 0 }
        return maximumSeconds * (pow(growth, x) - 1) / (growth - 1)
    }
}

/// The gain (0...1) a continuous event's intensity is multiplied by, as a function of the time since
/// the event started. The whole envelope lies inside `[0, duration)` (docs/semantics.md, "Envelope").
///
/// - Sustained (AHAP default): linear attack from 0 to 1, hold at 1, linear release to 0 ending exactly
///   at the event's end. Gain = min(1, tau / attack, (duration - tau) / release): when the two ramps
///   overlap (attack + release > duration) they keep their slopes and meet below 1.
/// - Not sustained: linear attack from 0 to 1, then linear decay from 1 to 0, then 0; no hold. The event's
///   end cuts whatever is left. A zero decay time means silence after the attack.
public struct Envelope: Sendable, Hashable {
    /// Event length in seconds.
    public var duration: Double
    public var sustained: Bool
    /// Ramp times in seconds (already mapped by `EnvelopeTime`).
    public var attack: Double
    public var decay: Double
    public var release: Double

    public init(duration: Double, sustained: Bool = true, attack: Double = 0, decay: Double = 0, release: Double = 0) {
        self.duration = max(duration, 0)
        self.sustained = sustained
        self.attack = max(attack, 0)
        self.decay = max(decay, 0)
        self.release = max(release, 0)
    }

    /// Gain at `tau` seconds after the event's start; 0 outside `[0, duration)`.
    public func gain(at tau: Double) -> Double {
        guard tau >= 0, tau < duration else { return 0 }
        if sustained {
            var g = 1.0
            if attack > 0 { g = min(g, tau / attack) }
            if release > 0 { g = min(g, (duration - tau) / release) }
            return g
        }
        if tau < attack { return tau / attack }
        guard decay > 0 else { return 0 }
        return max(0, 1 - (tau - attack) / decay)
    }

    /// Times (relative to the event's start, inside `[0, duration]`) where the gain may change slope or jump.
    public var breakpoints: [Double] {
        var times: [Double] = [0, duration]
        if sustained {
            times += [attack, duration - release]
            if attack > 0, release > 0 { times.append(attack * duration / (attack + release)) }
        } else {
            times += [attack, attack + decay]
        }
        return Array(Set(times.filter { $0 >= 0 && $0 <= duration })).sorted()
    }
}
