import HapticProtocol

/// Where device ticks fall on the host's monotonic clock, from PING/PONG (PROTOCOL.md 2.11).
///
/// A PONG reports `now = n` (the index of the next step) and `subtick`, the fraction of the
/// current tick elapsed since step n - 1 ran; so the device clock reads `n + subtick/65536` at the
/// moment the PING was processed, and step k (which outputs the sample of tick k) runs when it
/// reads `k + 1`. The PING was processed at about the midpoint of the round trip, within half of
/// it: the sample with the smallest round trip gives the tightest estimate (NTP's rule). Without
/// the SUBTICK capability the fraction is unknown and taken as 1/2 (error up to half a tick more).
public struct ClockEstimate: Sendable, Hashable {
    /// Host time (monotonic seconds) of the reference reading.
    public var hostTime: Double
    /// The device tick counter at the reference reading.
    public var tick: UInt32
    /// The elapsed fraction of that tick, 0..<1.
    public var fraction: Double
    /// Ticks per second.
    public var rate: Double
    /// Half the round trip of the sample used, plus half a tick without SUBTICK: the error bound.
    public var uncertainty: Double
    /// The round trip of the sample used.
    public var roundTrip: Double

    public init(sample: PingSample, rate: Double, measuredSubtick: Bool) {
        hostTime = (sample.sent + sample.received) / 2
        tick = sample.pong.tick
        fraction = measuredSubtick ? Double(sample.pong.subtick) / 65536 : 0.5
        self.rate = rate
        roundTrip = sample.roundTrip
        uncertainty = roundTrip / 2 + (measuredSubtick ? 0 : 0.5 / rate)
    }

    /// The estimate from the sample with the smallest round trip; nil for no samples.
    public static func best(of samples: [PingSample], rate: Double, measuredSubtick: Bool) -> ClockEstimate? {
        samples.min { $0.roundTrip < $1.roundTrip }.map { ClockEstimate(sample: $0, rate: rate, measuredSubtick: measuredSubtick) }
    }

    /// Host time at which device step `tick` ran (its sample was output). Ticks wrap at 2^32;
    /// the nearest interpretation to the reference is taken.
    public func hostTime(ofStep step: UInt32) -> Double {
        let delta = Double(Int32(bitPattern: step &- tick))
        return hostTime + (delta + 1 - fraction) / rate
    }

    /// The first device step that runs at or after host time `time`.
    public func step(atOrAfter time: Double) -> UInt32 {
        let delta = ((time - hostTime) * rate + fraction - 1).rounded(.up)
        let clamped = max(Double(Int32.min), min(Double(Int32.max), delta))
        return tick &+ UInt32(bitPattern: Int32(clamped))
    }
}
