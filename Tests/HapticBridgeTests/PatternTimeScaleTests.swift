import HapticBridge
import HapticPattern
import Testing

/// `HapticPattern.stretched(by:)`: every time and duration scales, nothing else changes.
@Suite struct PatternTimeScaleTests {
    @Test func everyTimeScales() {
        let pattern = HapticPattern(
            events: [.transient(at: 0.1, intensity: 0.7), .continuous(at: 0.2, duration: 1, intensity: 0.5, attack: 0.3)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, at: 0.4)],
            curves: [ParameterCurve(.hapticIntensityControl, at: 0.5, points: [(0, 1), (0.25, 0.5)])])
        let stretched = pattern.stretched(by: 1.005)
        #expect(abs(stretched.events[0].time - 0.1005) < 1e-12)
        #expect(abs(stretched.events[1].time - 0.201) < 1e-12)
        #expect(abs(stretched.events[1].duration - 1.005) < 1e-12)
        #expect(stretched.events[1].parameters == pattern.events[1].parameters)
        #expect(abs(stretched.parameters[0].time - 0.402) < 1e-12)
        #expect(abs(stretched.curves[0].time - 0.5025) < 1e-12)
        #expect(abs(stretched.curves[0].controlPoints[1].time - 0.25125) < 1e-12)
        #expect(abs(stretched.duration - pattern.duration * 1.005) < 1e-12)
        #expect(pattern.stretched(by: 1) == pattern)
    }
}
