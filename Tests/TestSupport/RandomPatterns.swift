import HapticPattern

/// Random haptic patterns for property tests: continuous events with envelopes, transients,
/// dynamic parameters as steps and curves. One generator for the renderer's and the compiler's
/// properties; each says what it needs.
public struct RandomPatterns: Sendable {
    /// Event and control times are drawn from 0...span seconds, to the millisecond.
    public var span: Double
    public var continuousEvents: ClosedRange<Int>
    public var transients: ClosedRange<Int>
    public var steps: ClosedRange<Int>
    /// Control values are drawn from this range (beyond 0...1 tests clamping).
    public var values: ClosedRange<Double>
    /// The dynamic parameters steps and curves use.
    public var controls: [DynamicParameterID]
    /// Sometimes add an audio event and shuffle the events (the renderer must ignore audio).
    public var audio: Bool

    /// Haptic features only, within the controls' ranges: what the compiler takes.
    public static let haptic = RandomPatterns(
        span: 1.5, continuousEvents: 0...4, transients: 0...10, steps: 0...2, values: -1...1,
        controls: [.hapticIntensityControl, .hapticSharpnessControl], audio: false)

    /// Every feature the renderer reads, values out of range and audio among them.
    public static let everything = RandomPatterns(
        span: 2, continuousEvents: 0...5, transients: 0...8, steps: 0...3, values: -1.2...1.2,
        controls: [
            .hapticIntensityControl, .hapticSharpnessControl, .hapticAttackTimeControl,
            .hapticDecayTimeControl, .hapticReleaseTimeControl, .audioVolumeControl,
        ],
        audio: true)

    public func pattern(_ g: inout SeededGenerator) -> HapticPattern {
        func unit() -> Double { Double.random(in: 0...1, using: &g) }
        func time() -> Double { (Double.random(in: 0...span, using: &g) * 1000).rounded() / 1000 }
        func maybe(_ v: Double) -> Double? { Bool.random(using: &g) ? v : nil }
        var events: [HapticEvent] = []
        for _ in 0..<Int.random(in: continuousEvents, using: &g) {
            events.append(
                .continuous(
                    at: time(), duration: Double.random(in: 0...0.8, using: &g),
                    intensity: unit(), sharpness: unit(),
                    attack: maybe(unit()), decay: maybe(unit()), release: maybe(unit()),
                    sustained: Bool.random(using: &g) ? nil : Bool.random(using: &g)))
        }
        for _ in 0..<Int.random(in: transients, using: &g) {
            events.append(.transient(at: time(), intensity: unit(), sharpness: unit()))
        }
        if audio {
            if Bool.random(using: &g) { events.append(.audioContinuous(at: time(), duration: 1, volume: unit())) }
            events.shuffle(using: &g)
        }
        var parameters: [DynamicParameter] = []
        for _ in 0..<Int.random(in: steps, using: &g) {
            parameters.append(DynamicParameter(controls.randomElement(using: &g)!, value: Double.random(in: values, using: &g), at: time()))
        }
        var curves: [ParameterCurve] = []
        for _ in 0..<Int.random(in: 0...3, using: &g) {
            var t = 0.0
            let points = (0..<Int.random(in: 1...6, using: &g)).map { _ -> (Double, Double) in
                t += Double.random(in: 0...0.3, using: &g)
                return (t, Double.random(in: values, using: &g))
            }
            curves.append(ParameterCurve(controls.randomElement(using: &g)!, at: time(), points: points))
        }
        return HapticPattern(events: events, parameters: parameters, curves: curves)
    }
}
