import Foundation
import TestSupport
import Testing

@testable import HapticPattern

/// Random patterns that use every feature: both event kinds with envelopes, all haptic controls as steps
/// and curves (some out of range, some single-point), audio events and audio controls.
func randomPattern(_ g: inout SeededGenerator) -> HapticPattern {
    RandomPatterns.everything.pattern(&g)
}

@Test func samplesStayInRangeAndSilenceHasNoSharpness() {
    var g = SeededGenerator(seed: 1)
    for _ in 0..<300 {
        let r = ReferenceRenderer(pattern: randomPattern(&g))
        for _ in 0..<200 {
            let t = Double.random(in: -0.1...(r.duration + 0.1), using: &g)
            for s in [r.sample(at: t), r.continuousSample(at: t)] {
                #expect(s.intensity >= 0 && s.intensity <= 1)
                #expect(s.sharpness >= 0 && s.sharpness <= 1)
                if s.intensity == 0 { #expect(s.sharpness == 0) }
            }
        }
        for s in r.render(rate: 1000) {
            #expect(s.intensity >= 0 && s.intensity <= 1 && s.sharpness >= 0 && s.sharpness <= 1)
            if s.intensity == 0 { #expect(s.sharpness == 0) }
        }
    }
}

@Test func nothingPlaysOutsideHapticEventSpans() {
    var g = SeededGenerator(seed: 2)
    for _ in 0..<300 {
        let pattern = randomPattern(&g)
        let r = ReferenceRenderer(pattern: pattern)
        let spans: [(Double, Double)] = pattern.events.compactMap { e in
            switch e.type {
            case .hapticContinuous: return (e.time, e.endTime)
            case .hapticTransient: return (e.time, e.time + 0.020)
            default: return nil
            }
        }
        for _ in 0..<200 {
            let t = Double.random(in: -0.5...(pattern.duration + 1), using: &g)
            if !spans.contains(where: { t >= $0.0 && t < $0.1 }) {
                #expect(r.sample(at: t) == .silence)
            }
        }
    }
}

@Test func controlCurvesNeverExtrapolate() {
    var g = SeededGenerator(seed: 3)
    for _ in 0..<500 {
        let start = Double.random(in: 0...1, using: &g)
        var t = Double.random(in: 0...0.2, using: &g)
        let points = (0..<Int.random(in: 1...8, using: &g)).map { _ -> (Double, Double) in
            t += Double.random(in: 0...0.2, using: &g)
            return (t, Double.random(in: 0...1, using: &g))
        }
        let curve = ParameterCurve(.hapticIntensityControl, at: start, points: points)
        let timeline = ControlTimeline(id: .hapticIntensityControl, pattern: HapticPattern(curves: [curve]))
        let low = points.map(\.1).min()!, high = points.map(\.1).max()!
        for _ in 0..<50 {
            let x = Double.random(in: -1...3, using: &g)
            let v = timeline.value(at: x)
            if x < start { #expect(v == 1) } else { #expect(v >= low - 1e-12 && v <= high + 1e-12) }
        }
        #expect(timeline.value(at: start + t + 10) == points.last!.1)
        #expect(timeline.value(at: start) == points.first!.1)
    }
}

@Test func tickGridAgreesWithFloatSamplingAwayFromPulseEdges() {
    var g = SeededGenerator(seed: 4)
    for rate in [1000.0, 2000.0] {
        for _ in 0..<200 {
            let r = ReferenceRenderer(pattern: randomPattern(&g))
            let grid = r.render(rate: rate)
            let edges = r.transients.flatMap { [$0.time, $0.endTime] }
            for (k, s) in grid.enumerated() {
                let t = Double(k) / rate
                if edges.contains(where: { abs($0 - t) <= 1.5 / rate }) { continue }
                #expect(s == r.sample(at: t), "tick \(k) at \(rate) Hz")
            }
        }
    }
}

@Test func breakpointsAreSortedAndBracketTheContent() {
    var g = SeededGenerator(seed: 5)
    for _ in 0..<200 {
        let r = ReferenceRenderer(pattern: randomPattern(&g))
        #expect(r.breakpoints == r.breakpoints.sorted())
        #expect(Set(r.breakpoints).count == r.breakpoints.count)
        if r.duration > 0 {
            #expect(r.breakpoints.first == 0)
            #expect(r.breakpoints.last == r.duration)
        }
    }
}

@Test func seventySecondPatternRendersQuickly() {
    // 70 s of dense content: 700 transients, 140 overlapping continuous events, 2 long curves.
    var events: [HapticEvent] = []
    for i in 0..<700 { events.append(.transient(at: Double(i) * 0.1, intensity: 0.8, sharpness: Double(i % 10) / 10)) }
    for i in 0..<140 { events.append(.continuous(at: Double(i) * 0.5, duration: 1.2, intensity: 0.5, sharpness: 0.3, attack: 0.3, release: 0.3)) }
    let curve = ParameterCurve(.hapticIntensityControl, at: 0, points: (0...700).map { (Double($0) * 0.1, Double($0 % 7) / 7) })
    let sharp = ParameterCurve(.hapticSharpnessControl, at: 0, points: (0...70).map { (Double($0), Double($0 % 3) / 3 - 0.5) })
    let r = ReferenceRenderer(pattern: HapticPattern(events: events, curves: [curve, sharp]))
    let clock = ContinuousClock()
    var grid: [RenderedSample] = []
    let elapsed = clock.measure { grid = r.render(rate: 1000) }
    #expect(grid.count == 70_700)
    // Generous bound: tests run unoptimised; a release build renders this in a few milliseconds.
    #expect(elapsed < .seconds(2))
}
