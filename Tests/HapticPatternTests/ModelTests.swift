import Testing

@testable import HapticPattern

@Test func durationIsLatestEndOfEventsStepsAndCurves() {
    let pattern = HapticPattern(
        events: [.transient(at: 0.2), .continuous(at: 0.1, duration: 0.5)],
        parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, at: 0.3)],
        curves: [ParameterCurve(.hapticSharpnessControl, at: 0.4, points: [(0, 0), (0.3, 1)])]
    )
    #expect(abs(pattern.duration - 0.7) < 1e-12)
}
