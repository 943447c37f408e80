import Testing

@testable import HapticPattern

private func kinds(_ warnings: [LintWarning]) -> [LintWarning.Kind] { warnings.map(\.kind) }

/// A warning without its message: what it is about, which item and when.
private struct Located: Equatable {
    var kind: LintWarning.Kind
    var item: LintWarning.Item
    var time: Double

    init(_ kind: LintWarning.Kind, _ item: LintWarning.Item, at time: Double) {
        (self.kind, self.item, self.time) = (kind, item, time)
    }
}

private func located(_ warnings: [LintWarning]) -> [Located] { warnings.map { Located($0.kind, $0.item, at: $0.time) } }

@Test func lintIsQuietOnAReasonablePattern() {
    let pattern = HapticPattern(events: [
        .transient(at: 0, intensity: 0.6, sharpness: 0.5),
        .continuous(at: 0.2, duration: 0.5, intensity: 0.5, sharpness: 0.3),
        .transient(at: 0.9, intensity: 0.8, sharpness: 0.7),
    ])
    #expect(Lint.check(pattern).isEmpty)
}

@Test func lintReportsMoreThanTenOnsetsInASecond() {
    // Exactly 10 per second (100 ms apart) is within the guideline; 12 onsets 90 ms apart are not.
    let ok = HapticPattern(events: (0..<30).map { .transient(at: Double($0) / 10, intensity: 0.5) })
    #expect(!kinds(Lint.check(ok)).contains(.sustainedRate))
    let fast = HapticPattern(events: (0..<12).map { .transient(at: 2 + Double($0) * 0.09, intensity: 0.5) })
    let warnings = Lint.check(fast).filter { $0.kind == .sustainedRate }
    #expect(warnings.count == 1)
    #expect(warnings.first?.item == .event(0))
    #expect(warnings.first?.time == 2)
    #expect(warnings.first?.message.hasPrefix("up to 12 onsets in a 1 s window, between 2 s and 2.99 s;") == true)
}

@Test func lintReportsBurstsOfMoreThanFiveIn500Milliseconds() {
    // Five taps 50 ms apart are a burst within the limit; six are not. Continuous starts count as onsets.
    let five = HapticPattern(events: (0..<5).map { .transient(at: Double($0) * 0.05, intensity: 0.5) })
    #expect(Lint.check(five).isEmpty)
    var events: [HapticEvent] = (0..<5).map { .transient(at: 1 + Double($0) * 0.05, intensity: 0.5) }
    events.append(.continuous(at: 1.3, duration: 0.1, intensity: 0.5))
    #expect(located(Lint.check(HapticPattern(events: events))) == [Located(.burst, .event(0), at: 1)])
    // Two separate bursts give two warnings.
    var times: [Double] = []
    for start in [0.0, 5.0] { for k in 0..<6 { times.append(start + Double(k) * 0.05) } }
    let two = HapticPattern(events: times.map { HapticEvent.transient(at: $0, intensity: 0.5) })
    #expect(Lint.check(two).filter { $0.kind == .burst }.map(\.time) == [0, 5])
}

@Test func lintReportsContinuousEventsBeyond30Seconds() {
    let pattern = HapticPattern(events: [
        .continuous(at: 1, duration: 30, intensity: 0.5),
        .continuous(at: 40, duration: 32.5, intensity: 0.5),
    ])
    #expect(located(Lint.check(pattern)) == [Located(.longContinuous, .event(1), at: 40)])
}

@Test func lintReportsEventsTooWeakToBeFelt() {
    let pattern = HapticPattern(
        events: [
            .transient(at: 0, intensity: 0.09),  // weak by itself
            .transient(at: 0.5, intensity: 0.1),  // at the threshold: fine
            .continuous(at: 1, duration: 0.5, intensity: 0.5),  // silenced by the control: peak 0.5 * 0.1
            .continuous(at: 2, duration: 0.5, intensity: 0.5),  // control back to 1
            .continuous(at: 3, duration: 1, sustained: false),
        ],  // non-sustained, no decay: silent
        parameters: [
            DynamicParameter(.hapticIntensityControl, value: 0.1, at: 1),
            DynamicParameter(.hapticIntensityControl, value: 1, at: 2),
        ])
    let warnings = Lint.check(pattern)
    #expect(kinds(warnings) == [.tooWeak, .tooWeak, .tooWeak])
    #expect(warnings.map(\.item) == [.event(0), .event(2), .event(4)])
    #expect(warnings[1].message.hasPrefix("peak intensity 0.05 "))
    #expect(warnings[2].message.hasPrefix("peak intensity 0 "))
}

@Test func lintFindsTheInteriorPeakOfARampingContinuousEvent() {
    // A ramping control on a short attack/release event: the peak is inside, not at an event edge.
    let pattern = HapticPattern(
        events: [.continuous(at: 0, duration: 1, intensity: 0.2, attack: 1, release: 1)],
        curves: [ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 0.5), (1, 0.5)])])
    // Peak: 0.2 * 0.5 * 0.5 (ramps meet at 0.5 s, gain 0.5) = 0.05.
    let warnings = Lint.check(pattern)
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.hasPrefix("peak intensity 0.05 ") == true)
}

@Test func lintReportsCurvesLongerThan16Points() {
    let sixteen = ParameterCurve(.hapticIntensityControl, at: 0, points: (0..<16).map { (Double($0) * 0.01, 1) })
    let seventeen = ParameterCurve(.hapticSharpnessControl, at: 0.5, points: (0..<17).map { (Double($0) * 0.01, 0) })
    let pattern = HapticPattern(events: [.continuous(at: 0, duration: 1)], curves: [sixteen, seventeen])
    #expect(located(Lint.check(pattern)) == [Located(.longCurve, .curve(1), at: 0.5)])
}

@Test func lintReportsAudioThatAnActuatorIgnores() {
    let pattern = HapticPattern(
        events: [
            .transient(at: 0, intensity: 0.5), .audioCustom(at: 0.1, waveformPath: "Splash.caf"),
            .audioContinuous(at: 0.2, duration: 0.3),
        ],
        parameters: [DynamicParameter(.audioVolumeControl, value: 0.5, at: 0.3)],
        curves: [ParameterCurve(.audioPitchControl, at: 0.4, points: [(0, 0), (0.1, 1)])])
    let warnings = Lint.check(pattern)
    #expect(
        located(warnings) == [
            Located(.audioIgnored, .event(1), at: 0.1), Located(.audioIgnored, .event(2), at: 0.2),
            Located(.audioIgnored, .parameter(0), at: 0.3), Located(.audioIgnored, .curve(0), at: 0.4),
        ])
    #expect(warnings[0].description == "event 1 at 0.1 s: audio-ignored: AudioCustom event is kept in the file but never played on an actuator")
}

@Test func lintWarningsAreSortedByTime() {
    let pattern = HapticPattern(events: [
        .continuous(at: 50, duration: 31), .transient(at: 1, intensity: 0.01),
        .audioContinuous(at: 2, duration: 1),
    ])
    #expect(Lint.check(pattern).map(\.time) == [1, 2, 50])
}
