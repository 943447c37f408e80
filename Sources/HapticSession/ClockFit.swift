/// The device clock's offset and rate from PING/PONG samples over a sliding window, with bounds,
/// WALT-style (docs/clocks.md).
///
/// Every sample brackets the host time of a device reading: the PING was processed after it was
/// sent and before its PONG arrived, so reading `d` (ticks) happened in `[sent, received]`. Two
/// samples i, j (d_i < d_j) bound the rate: `d_j - d_i` ticks took at least `sent_j - received_i`
/// and at most `received_j - sent_i` host seconds. The rate is the middle of what every pair allows
/// (intersected with the prior, +-`priorPPM`); with it, each sample bounds the host time of the
/// newest reading, and the estimate is the middle of what all of them allow. The bounds hold
/// whatever the round trips' spread as long as the device's rate stays constant over the window:
/// a long round trip only loosens them.
public struct ClockFit: Sendable {
    /// Seconds of samples kept.
    public var window: Double
    public private(set) var samples: [PingSample] = []

    /// No board runs further off than this (ppm): ceramic resonators are within +-5,000, and the
    /// simulator's `--drift-ppm` within +-20,000.
    public static let priorPPM = 20_000.0
    /// The window is split into this many stretches, and the sample with the smallest round trip of
    /// each is used: the tightest brackets, spread over the window, in bounded work.
    public static let stretches = 32
    /// Samples kept at most (the oldest go first).
    public static let capacity = 4_096

    public init(window: Double = 10) {
        self.window = window
    }

    public mutating func add(_ sample: PingSample) {
        samples.append(sample)
        let oldest = sample.received - window
        samples.removeAll { $0.received < oldest }
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    public mutating func add(_ new: [PingSample]) {
        for sample in new { add(sample) }
    }

    /// Forgets every sample (the device rebooted: its ticks restarted).
    public mutating func removeAll() {
        samples.removeAll()
    }

    static func ppm(_ rate: Double, nominal: Double) -> Double { (rate / nominal - 1) * 1_000_000 }

    static func priorBounds(nominalRate: Double) -> ClosedRange<Double> {
        nominalRate * (1 - priorPPM / 1_000_000)...nominalRate * (1 + priorPPM / 1_000_000)
    }

    /// One sample as a reading (ticks from the reference tick) and its host-time bracket.
    struct Bracket {
        var reading: Double
        var earliest: Double
        var latest: Double
    }

    /// The estimate from the samples kept; nil for none. When the samples contradict each other
    /// (no constant rate fits them all: the device's clock stalled or jumped, as a simulated board
    /// does when its host cannot keep it in real time), the older half is left out, again until
    /// they agree: a glitch costs the samples before it, not the estimate.
    public func estimate(nominalRate: Double, measuredSubtick: Bool) -> ClockEstimate? {
        var used = samples
        while true {
            switch Self.estimate(used, nominalRate: nominalRate, measuredSubtick: measuredSubtick) {
            case .estimate(let estimate): return estimate
            case .none: return nil
            case .contradiction:
                guard let first = used.map(\.sent).min(), let last = used.map(\.sent).max(), used.count > 2 else {
                    return Self.estimate(used, nominalRate: nominalRate, measuredSubtick: measuredSubtick, trustRates: false).value
                }
                used.removeAll { $0.sent < (first + last) / 2 }
            }
        }
    }

    enum Outcome {
        case estimate(ClockEstimate)
        case contradiction
        case none

        var value: ClockEstimate? {
            if case .estimate(let estimate) = self { return estimate }
            return nil
        }
    }

    static func estimate(_ samples: [PingSample], nominalRate: Double, measuredSubtick: Bool, trustRates: Bool = true) -> Outcome {
        guard let newest = samples.max(by: { $0.received < $1.received }) else { return .none }
        let chosen = Self.thinned(samples)
        // Without SUBTICK the reading is somewhere in its tick: the bracket widens by half a tick each way.
        let slack = measuredSubtick ? 0 : 0.5 / (nominalRate * (1 - Self.priorPPM / 1_000_000))
        let reference = newest.pong.tick
        let brackets = chosen.map { sample in
            let fraction = measuredSubtick ? Double(sample.pong.subtick) / 65536 : 0.5
            let reading = Double(Int32(bitPattern: sample.pong.tick &- reference)) + fraction
            return Bracket(reading: reading, earliest: sample.sent - slack, latest: sample.received + slack)
        }
        let prior = Self.priorBounds(nominalRate: nominalRate)
        var (rate, bounds) = (nominalRate, prior)
        switch trustRates ? Self.rate(brackets, prior: prior) : .none {
        case .estimate(let fittedRate, let fittedBounds): (rate, bounds) = (fittedRate, fittedBounds)
        case .contradiction: return .contradiction
        case .none: break
        }
        let fraction = measuredSubtick ? Double(newest.pong.subtick) / 65536 : 0.5
        // The host time of the newest reading under each rate the bounds allow: the estimate is
        // the middle at the estimated rate, its bound covers them all.
        guard let middle = Self.offset(brackets, at: fraction, rate: rate) else {
            return .estimate(ClockEstimate(sample: newest, rate: nominalRate, measuredSubtick: measuredSubtick))
        }
        let hostTime = (middle.lowerBound + middle.upperBound) / 2
        var reach = middle
        for step in 0...8 {
            let candidate = bounds.lowerBound + (bounds.upperBound - bounds.lowerBound) * Double(step) / 8
            guard let range = Self.offset(brackets, at: fraction, rate: candidate) else { continue }
            reach = min(reach.lowerBound, range.lowerBound)...max(reach.upperBound, range.upperBound)
        }
        return .estimate(
            ClockEstimate(
                hostTime: hostTime, tick: reference, fraction: fraction, rate: rate, nominalRate: nominalRate, rateBounds: bounds,
                uncertainty: max(hostTime - reach.lowerBound, reach.upperBound - hostTime),
                roundTrip: chosen.map(\.roundTrip).min() ?? newest.roundTrip))
    }

    /// The sample with the smallest round trip of each stretch of the window, and the newest one.
    static func thinned(_ samples: [PingSample]) -> [PingSample] {
        guard let first = samples.map(\.sent).min(), let last = samples.map(\.sent).max(), last > first else { return samples }
        var best: [Int: PingSample] = [:]
        for sample in samples {
            let index = min(stretches - 1, Int((sample.sent - first) / (last - first) * Double(stretches)))
            if best[index].map({ sample.roundTrip < $0.roundTrip }) ?? true { best[index] = sample }
        }
        var chosen = Array(best.values)
        if let newest = samples.max(by: { $0.received < $1.received }), !chosen.contains(newest) { chosen.append(newest) }
        return chosen
    }

    /// What the pairs of brackets say about the rate.
    enum RateFit {
        /// The middle of what every pair allows within the prior, and those bounds.
        case estimate(Double, ClosedRange<Double>)
        /// No rate fits every pair.
        case contradiction
        /// The samples span too little time to narrow the prior.
        case none
    }

    static func rate(_ brackets: [Bracket], prior: ClosedRange<Double>) -> RateFit {
        var lowest = 0.0, highest = Double.infinity
        let sorted = brackets.sorted { $0.reading < $1.reading }
        for (i, a) in sorted.enumerated() {
            for b in sorted[(i + 1)...] where b.reading > a.reading {
                let ticks = b.reading - a.reading
                lowest = max(lowest, ticks / (b.latest - a.earliest))
                if b.earliest > a.latest { highest = min(highest, ticks / (b.earliest - a.latest)) }
            }
        }
        guard lowest <= highest else { return .contradiction }
        guard highest - lowest < prior.upperBound - prior.lowerBound else { return .none }
        // Outside the prior altogether: a clock that ran more than 2 % off over the window.
        let low = max(lowest, prior.lowerBound), high = min(highest, prior.upperBound)
        guard low <= high else { return .contradiction }
        return .estimate((low + high) / 2, low...high)
    }

    /// The host times of reading `fraction` (of the reference tick) that every bracket allows at
    /// `rate`; when they contradict each other by a little (the rate is off), the span between.
    static func offset(_ brackets: [Bracket], at fraction: Double, rate: Double) -> ClosedRange<Double>? {
        guard !brackets.isEmpty else { return nil }
        var earliest = -Double.infinity, latest = Double.infinity
        for bracket in brackets {
            let shift = (fraction - bracket.reading) / rate
            earliest = max(earliest, bracket.earliest + shift)
            latest = min(latest, bracket.latest + shift)
        }
        return min(earliest, latest)...max(earliest, latest)
    }
}
