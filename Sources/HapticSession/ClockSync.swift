import HapticProtocol

/// Where device ticks fall on the host's monotonic clock, from PING/PONG (PROTOCOL.md 2.11):
/// an offset (the host time of one device reading) and a rate, each with a bound (docs/clocks.md).
///
/// A PONG reports `now = n` (the index of the next step) and `subtick`, the fraction of the
/// current tick elapsed since step n - 1 ran; so the device clock reads `n + subtick/65536` at the
/// moment the PING was processed, and step k (which outputs the sample of tick k) runs when it
/// reads `k + 1`. The PING was processed between its sending and the PONG's arrival: each sample
/// brackets the host time of its reading. One sample gives the offset within half its round trip
/// (NTP's rule) at the nominal rate; samples spread over seconds give the rate too (`ClockFit`).
/// Without the SUBTICK capability the fraction is unknown and taken as 1/2 (error up to half a
/// tick more).
public struct ClockEstimate: Sendable, Hashable {
    /// Host time (monotonic seconds) of the reference reading.
    public var hostTime: Double
    /// The device tick counter at the reference reading.
    public var tick: UInt32
    /// The elapsed fraction of that tick, 0..<1.
    public var fraction: Double
    /// Device ticks per host second: the estimate.
    public var rate: Double
    /// The device's nominal tick rate (INFO `rate`).
    public var nominalRate: Double
    /// Device ticks per host second: the rates every sample allows (with the prior,
    /// `ClockFit.priorPPM`, when the samples span too little time to tell).
    public var rateBounds: ClosedRange<Double>
    /// The error bound of `hostTime` (seconds): the reference reading happened within this of it.
    public var uncertainty: Double
    /// The smallest round trip among the samples used.
    public var roundTrip: Double

    public init(sample: PingSample, rate: Double, measuredSubtick: Bool) {
        hostTime = (sample.sent + sample.received) / 2
        tick = sample.pong.tick
        fraction = measuredSubtick ? Double(sample.pong.subtick) / 65536 : 0.5
        self.rate = rate
        nominalRate = rate
        rateBounds = ClockFit.priorBounds(nominalRate: rate)
        roundTrip = sample.roundTrip
        uncertainty = roundTrip / 2 + (measuredSubtick ? 0 : 0.5 / rate)
    }

    public init(
        hostTime: Double, tick: UInt32, fraction: Double, rate: Double, nominalRate: Double, rateBounds: ClosedRange<Double>,
        uncertainty: Double, roundTrip: Double
    ) {
        self.hostTime = hostTime
        self.tick = tick
        self.fraction = fraction
        self.rate = rate
        self.nominalRate = nominalRate
        self.rateBounds = rateBounds
        self.uncertainty = uncertainty
        self.roundTrip = roundTrip
    }

    /// The estimate from the sample with the smallest round trip at the nominal rate; nil for no samples.
    public static func best(of samples: [PingSample], rate: Double, measuredSubtick: Bool) -> ClockEstimate? {
        samples.min { $0.roundTrip < $1.roundTrip }.map { ClockEstimate(sample: $0, rate: rate, measuredSubtick: measuredSubtick) }
    }

    /// The device's rate error against the host's clock in ppm: positive when its ticks run fast.
    public var ratePPM: Double { ClockFit.ppm(rate, nominal: nominalRate) }
    /// The rate error's bound in ppm: the true error lies within `ratePPM` +- this.
    public var ratePPMBound: Double {
        max(rate - rateBounds.lowerBound, rateBounds.upperBound - rate) / nominalRate * 1_000_000
    }

    /// Ticks from the reference reading to the moment step `step` runs (signed, wrapping at 2^32:
    /// the nearest interpretation to the reference is taken).
    private func ticks(toStep step: UInt32) -> Double {
        Double(Int32(bitPattern: step &- tick)) + 1 - fraction
    }

    /// Host time at which device step `tick` ran (its sample was output).
    public func hostTime(ofStep step: UInt32) -> Double {
        hostTime + ticks(toStep: step) / rate
    }

    /// The error bound of `hostTime(ofStep:)`: the offset's bound plus what the rate's bound
    /// allows over the distance from the reference.
    public func uncertainty(ofStep step: UInt32) -> Double {
        let distance = ticks(toStep: step)
        let spread = max(abs(distance / rateBounds.lowerBound - distance / rate), abs(distance / rateBounds.upperBound - distance / rate))
        return uncertainty + spread
    }

    /// The first device step that runs at or after host time `time`.
    public func step(atOrAfter time: Double) -> UInt32 {
        let delta = ((time - hostTime) * rate + fraction - 1).rounded(.up)
        let clamped = max(Double(Int32.min), min(Double(Int32.max), delta))
        return tick &+ UInt32(bitPattern: Int32(clamped))
    }
}
