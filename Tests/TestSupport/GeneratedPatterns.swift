import HapticPattern

/// Seeded patterns of the shapes other authoring tools produce and the corpus has few of
/// (the property tests of compiling for a device, on the model and on the simulated board):
/// periodic transients, a motif repeated over a long track, long tracks over 30 s, dense
/// parameter curves, many events at once, very short and very long events.
public enum GeneratedPatterns {
    public enum Kind: String, CaseIterable, Sendable {
        case periodicTransients = "periodic-transients"
        case repeatedMotif = "repeated-motif"
        case longTrack = "long-track"
        case denseCurves = "dense-curves"
        case simultaneous = "simultaneous"
        case shortAndLong = "short-and-long"
    }

    public struct Case: Sendable {
        public var name: String
        public var kind: Kind
        public var pattern: HapticPattern
    }

    /// `perKind` patterns of every kind, from `seed`.
    public static func cases(seed: UInt64, perKind: Int) -> [Case] {
        Kind.allCases.flatMap { kind in
            (0..<perKind).map { index in
                var rng = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9 &+ UInt64(kind.hashSeed))
                return Case(name: "\(kind.rawValue)-\(index)", kind: kind, pattern: pattern(kind, &rng))
            }
        }
    }

    public static func pattern(_ kind: Kind, _ rng: inout SeededGenerator) -> HapticPattern {
        func unit() -> Double { Double(rng.below(1_001)) / 1_000 }
        func level(_ values: [Double]) -> Double { values[rng.below(values.count)] }
        switch kind {
        case .periodicTransients:
            // 50-200 taps every 10-40 ms (to 0.1 ms: most periods are no whole number of ticks, so
            // the repeats fall on uneven ticks), two or three alternating strengths (150 over 3 s).
            let count = rng.within(50...200), period = Double(rng.within(100...400)) / 10_000
            let strengths = (0..<rng.within(1...3)).map { _ in (0.3 + 0.7 * unit(), unit()) }
            let events = (0..<count).map { i in
                let (intensity, sharpness) = strengths[i % strengths.count]
                return HapticEvent.transient(at: Double(i) * period, intensity: intensity, sharpness: sharpness)
            }
            return HapticPattern(events: events)
        case .repeatedMotif:
            // A motif of 2-6 events over 150-500 ms (to 0.1 ms), repeated for 5-40 s, one bar varied.
            let length = Double(rng.within(1_500...5_000)) / 10_000
            var motif: [HapticEvent] = []
            for _ in 0..<rng.within(2...6) {
                let at = length * 0.8 * unit()
                if rng.percent(60) {
                    motif.append(.transient(at: at, intensity: 0.2 + 0.8 * unit(), sharpness: unit()))
                } else {
                    motif.append(
                        .continuous(
                            at: at, duration: 0.02 + 0.1 * unit(), intensity: 0.2 + 0.8 * unit(),
                            sharpness: unit(), attack: level([0, 0.1, 0.5]), release: level([0, 0.2, 0.6])))
                }
            }
            let bars = Int((Double(rng.within(5...40)) / length).rounded())
            let varied = bars / 2
            var events: [HapticEvent] = []
            for bar in 0..<bars {
                for event in motif {
                    var copy = event
                    copy.time += Double(bar) * length
                    if bar == varied, copy.type == .hapticTransient { copy.parameters[.hapticIntensity] = 0.1 }
                    events.append(copy)
                }
            }
            return HapticPattern(events: events)
        case .longTrack:
            // 30-60 s of continuous events with curves and transients on top.
            let total = Double(rng.within(30...60))
            var events: [HapticEvent] = [], curves: [ParameterCurve] = []
            var t = 0.0
            while t < total {
                let duration = min(total - t, 0.5 + 4.5 * unit())
                events.append(
                    .continuous(
                        at: t, duration: duration, intensity: 0.2 + 0.8 * unit(), sharpness: unit(),
                        attack: level([0, 0.05, 0.3]), release: level([0, 0.1, 0.4])))
                if rng.percent(50) {
                    curves.append(
                        ParameterCurve(
                            .hapticIntensityControl, at: t,
                            points: (0..<rng.within(2...6)).map {
                                (duration * Double($0) / 6, unit())
                            }))
                }
                for _ in 0..<rng.below(4) {
                    events.append(.transient(at: t + duration * unit(), intensity: unit(), sharpness: unit()))
                }
                t += duration + Double(rng.below(300)) / 1_000
            }
            return HapticPattern(events: events, curves: curves)
        case .denseCurves:
            // One continuous event of 1-6 s under intensity and sharpness curves with a point every
            // 5-30 ms (16 points a curve, curves back to back, as authoring tools export them).
            let total = 1 + 5 * unit(), step = Double(rng.within(5...30)) / 1_000
            var curves: [ParameterCurve] = []
            for id in [DynamicParameterID.hapticIntensityControl, .hapticSharpnessControl] {
                var t = 0.0
                while t < total {
                    curves.append(ParameterCurve(id, at: t, points: (0..<16).map { (Double($0) * step, unit()) }))
                    t += 15 * step
                }
            }
            return HapticPattern(events: [.continuous(at: 0, duration: total, intensity: 1, sharpness: 0.5)], curves: curves)
        case .simultaneous:
            // Bursts of 5-12 transients at one instant over overlapping continuous events.
            var events: [HapticEvent] = []
            var t = 0.0
            for _ in 0..<rng.within(3...12) {
                for _ in 0..<rng.within(5...12) {
                    events.append(.transient(at: t, intensity: unit(), sharpness: unit()))
                }
                for _ in 0..<rng.within(1...3) {
                    events.append(
                        .continuous(
                            at: t + 0.01 * unit(), duration: 0.05 + 0.3 * unit(), intensity: unit(),
                            sharpness: unit(), attack: level([0, 0.2]), release: level([0, 0.3])))
                }
                t += 0.02 + 0.3 * unit()
            }
            return HapticPattern(events: events)
        case .shortAndLong:
            // 1-3 ms events and taps around one continuous event of 20-30 s.
            let long = Double(rng.within(20...30))
            var events: [HapticEvent] = [
                .continuous(
                    at: 0.5, duration: long, intensity: 0.3 + 0.4 * unit(), sharpness: unit(),
                    attack: 0.05, release: 0.5)
            ]
            for _ in 0..<rng.within(20...80) {
                let at = (long + 1) * unit()
                events.append(
                    rng.percent(50)
                        ? .continuous(at: at, duration: Double(rng.within(1...3)) / 1_000, intensity: unit(), sharpness: unit())
                        : .transient(at: at, intensity: unit(), sharpness: unit()))
            }
            return HapticPattern(events: events)
        }
    }
}

extension GeneratedPatterns.Kind {
    var hashSeed: Int { Self.allCases.firstIndex(of: self)! * 7_919 }
}
