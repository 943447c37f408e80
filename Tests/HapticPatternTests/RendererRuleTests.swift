import Testing

@testable import HapticPattern

// One test per rule of docs/semantics.md, with values computed by hand.

private let eps = 1e-9

private func expectSample(
    _ s: RenderedSample, _ intensity: Double, _ sharpness: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(abs(s.intensity - intensity) < eps, "intensity \(s.intensity) != \(intensity)", sourceLocation: sourceLocation)
    #expect(abs(s.sharpness - sharpness) < eps, "sharpness \(s.sharpness) != \(sharpness)", sourceLocation: sourceLocation)
}

/// Steps of one control, as `ParameterCurve` takes its points: (time, value) pairs.
private func steps(_ id: DynamicParameterID, _ points: [(Double, Double)]) -> [DynamicParameter] {
    points.map { DynamicParameter(id, value: $0.1, at: $0.0) }
}

private func render(_ events: [HapticEvent], parameters: [DynamicParameter] = [], curves: [ParameterCurve] = []) -> ReferenceRenderer {
    ReferenceRenderer(pattern: HapticPattern(events: events, parameters: parameters, curves: curves))
}

@Test func envelopeTimeMappingIsExponentialFromZeroToOneSecond() {
    // t(x) = 1 s * (32^x - 1) / 31: 32^0.2 = 2, so x = 0.2, 0.4, 0.6, 0.8 give 1/31, 3/31, 7/31, 15/31 s.
    #expect(EnvelopeTime.seconds(0) == 0)
    #expect(abs(EnvelopeTime.seconds(1) - 1) < eps)
    #expect(abs(EnvelopeTime.seconds(0.2) - 1.0 / 31) < eps)
    #expect(abs(EnvelopeTime.seconds(0.4) - 3.0 / 31) < eps)
    #expect(abs(EnvelopeTime.seconds(0.6) - 7.0 / 31) < eps)
    #expect(abs(EnvelopeTime.seconds(0.8) - 15.0 / 31) < eps)
    #expect(abs(EnvelopeTime.seconds(0.5) - (32.0.squareRoot() - 1) / 31) < eps)  // 150.2 ms
}

@Test func timeControlsAddToTheExponentAndTheSumIsClamped() {
    #expect(abs(EnvelopeTime.seconds(0.3, control: -0.1) - 1.0 / 31) < eps)
    #expect(abs(EnvelopeTime.seconds(0.9, control: 0.5) - 1) < eps)
    #expect(EnvelopeTime.seconds(0.1, control: -0.5) == 0)
}

@Test func defaultContinuousEventIsARectangleOnHalfOpenSpan() {
    let r = render([.continuous(at: 0.1, duration: 0.5, intensity: 0.8, sharpness: 0.3)])
    expectSample(r.sample(at: 0.0999), 0, 0)
    expectSample(r.sample(at: 0.1), 0.8, 0.3)
    expectSample(r.sample(at: 0.35), 0.8, 0.3)
    expectSample(r.sample(at: 0.5999), 0.8, 0.3)
    expectSample(r.sample(at: 0.6), 0, 0)
}

@Test func sustainedEventAttacksHoldsAndReleasesInsideItsDuration() {
    // attack 0.4 -> 3/31 s, release 0.6 -> 7/31 s, duration 1 s.
    let r = render([.continuous(at: 0, duration: 1, intensity: 0.9, sharpness: 0.4, attack: 0.4, release: 0.6)])
    expectSample(r.sample(at: 0), 0, 0)  // the attack starts from 0 (and I == 0 forces S = 0)
    expectSample(r.sample(at: 0.05), 0.9 * 0.05 * 31 / 3, 0.4)
    expectSample(r.sample(at: 0.5), 0.9, 0.4)
    expectSample(r.sample(at: 0.9), 0.9 * 0.1 * 31 / 7, 0.4)
    expectSample(r.sample(at: 1), 0, 0)
    #expect(abs(r.duration - 1) < eps)  // the release does not run past EventDuration
}

@Test func overlappingAttackAndReleaseKeepTheirSlopesAndMeetBelowFull() {
    // attack = release = 3/31 s on a 0.1 s event: the ramps cross at 0.05 s, gain 0.05 / (3/31) = 0.51666...
    let r = render([.continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0.5, attack: 0.4, release: 0.4)])
    expectSample(r.sample(at: 0.05), 0.05 * 31 / 3, 0.5)
    expectSample(r.sample(at: 0.025), 0.025 * 31 / 3, 0.5)
    expectSample(r.sample(at: 0.075), 0.025 * 31 / 3, 0.5)
}

@Test func nonSustainedEventAttacksThenDecaysWithoutHoldAndIgnoresRelease() {
    // attack 0.2 -> 1/31 s, decay 0.4 -> 3/31 s, release 1.0 is ignored.
    let r = render([.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.6, attack: 0.2, decay: 0.4, release: 1, sustained: false)])
    expectSample(r.sample(at: 0.5 / 31), 0.5, 0.6)
    expectSample(r.sample(at: 1.0 / 31), 1, 0.6)
    expectSample(r.sample(at: 2.5 / 31), 0.5, 0.6)
    expectSample(r.sample(at: 4.0 / 31 + 0.001), 0, 0)
    expectSample(r.sample(at: 0.9), 0, 0)
    // Zero attack and zero decay: nothing left to play.
    let silent = render([.continuous(at: 0, duration: 1, sustained: false)])
    expectSample(silent.sample(at: 0), 0, 0)
    expectSample(silent.sample(at: 0.5), 0, 0)
}

@Test func eventEndCutsANonSustainedDecay() {
    // decay 1.0 -> 1 s on a 0.5 s event: at 0.4 s the gain is 0.6, at 0.5 s the event is over.
    let r = render([.continuous(at: 0, duration: 0.5, decay: 1, sustained: false)])
    expectSample(r.sample(at: 0.4), 0.6, 0.5)
    expectSample(r.sample(at: 0.5), 0, 0)
}

@Test func timeControlsAreReadAtTheEventOnset() {
    // Attack 0.2 + control 0.2 -> x = 0.4 -> 3/31 s. The later step (at 0.05 s) does not reshape this event.
    let r = render(
        [.continuous(at: 0, duration: 1, attack: 0.2)],
        parameters: steps(.hapticAttackTimeControl, [(0, 0.2), (0.05, -1)]))
    expectSample(r.sample(at: 1.5 / 31), 0.5, 0.5)
    expectSample(r.sample(at: 0.06), 0.06 * 31 / 3, 0.5)
}

@Test func releaseAndDecayControlsLengthenTheirRamps() {
    // release 0.2 + 0.4 -> 7/31 s; non-sustained decay 0 + 0.2 -> 1/31 s.
    let r = render(
        [.continuous(at: 0, duration: 1, release: 0.2), .continuous(at: 2, duration: 1, sustained: false)],
        parameters: [
            DynamicParameter(.hapticReleaseTimeControl, value: 0.4, at: 0),
            DynamicParameter(.hapticDecayTimeControl, value: 0.2, at: 0),
        ])
    expectSample(r.sample(at: 1 - 3.5 / 31), 0.5, 0.5)
    expectSample(r.sample(at: 2 + 0.5 / 31), 0.5, 0.5)
}

@Test func intensityControlMultipliesContinuousIntensity() {
    let r = render(
        [.continuous(at: 0, duration: 1, intensity: 0.8, sharpness: 0.3)],
        parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, at: 0.2)])
    expectSample(r.sample(at: 0.1), 0.8, 0.3)
    expectSample(r.sample(at: 0.3), 0.4, 0.3)
}

@Test func sharpnessControlAddsThenClamps() {
    let up = render(
        [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.7)],
        parameters: steps(.hapticSharpnessControl, [(0, 0.2), (0.5, 0.5)]))
    expectSample(up.sample(at: 0.25), 1, 0.9)
    expectSample(up.sample(at: 0.75), 1, 1)
    let down = render(
        [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.3)],
        parameters: [DynamicParameter(.hapticSharpnessControl, value: -0.5, at: 0)])
    expectSample(down.sample(at: 0.5), 1, 0)
}

@Test func curvesInterpolateLinearlyAndHoldTheirEndValues() {
    // Curve starts at 0.2 s, points at +0.1 (0.2) and +0.3 (0.6), i.e. absolute 0.3 s and 0.5 s.
    let r = render(
        [.continuous(at: 0, duration: 1)],
        curves: [ParameterCurve(.hapticIntensityControl, at: 0.2, points: [(0.1, 0.2), (0.3, 0.6)])])
    expectSample(r.sample(at: 0.1), 1, 0.5)  // before the curve starts: neutral 1
    expectSample(r.sample(at: 0.25), 0.2, 0.5)  // started, before its first point: first value
    expectSample(r.sample(at: 0.4), 0.4, 0.5)  // halfway
    expectSample(r.sample(at: 0.9), 0.6, 0.5)  // after its last point: last value, never extrapolated
}

@Test func latestStartedStepOrCurveWinsAndCurveBeatsStepAtSameTime() {
    let r = render(
        [.continuous(at: 0, duration: 1)],
        parameters: steps(.hapticIntensityControl, [(0.1, 0.5), (0.4, 0.8), (0.6, 0.1)]),
        curves: [
            ParameterCurve(.hapticIntensityControl, at: 0.3, points: [(0, 1.0), (0.2, 0.0)]),
            ParameterCurve(.hapticIntensityControl, at: 0.6, points: [(0, 0.3)]),
        ])
    expectSample(r.sample(at: 0.2), 0.5, 0.5)
    expectSample(r.sample(at: 0.35), 0.75, 0.5)  // curve: 1 - 0.05 / 0.2
    expectSample(r.sample(at: 0.45), 0.8, 0.5)  // a later step interrupts the curve
    expectSample(r.sample(at: 0.7), 0.3, 0.5)  // step and curve both at 0.6: the curve wins
}

@Test func transientIsARectangleWhoseLengthComesFromTheSharpnessCode() {
    #expect(RenderedTransient.lengthMilliseconds(sharpness: 0) == 20)
    #expect(RenderedTransient.lengthMilliseconds(sharpness: 0.5) == 15)  // code 128: (1280 + 128) >> 8 = 5
    #expect(RenderedTransient.lengthMilliseconds(sharpness: 1) == 10)
    var previous = 20
    for code in 0...255 {
        let length = RenderedTransient.lengthMilliseconds(sharpness: Double(code) / 255)
        #expect(length == 20 - ((code * 10 + 128) >> 8))
        #expect(length <= previous && length >= 10)
        previous = length
    }
    let r = render([.transient(at: 0.1, intensity: 0.7, sharpness: 0.5)])
    expectSample(r.sample(at: 0.0999), 0, 0)
    expectSample(r.sample(at: 0.1), 0.7, 0.5)
    expectSample(r.sample(at: 0.1149), 0.7, 0.5)
    expectSample(r.sample(at: 0.1151), 0, 0)
    #expect(r.transients == [RenderedTransient(time: 0.1, intensity: 0.7, sharpness: 0.5, lengthMilliseconds: 15)])
}

@Test func transientParametersAreFixedAtTheOnset() {
    // Intensity control falls 1 -> 0 over 0.1 s; at the onset (0.05 s) it is 0.5. Sharpness control +0.4
    // at the onset; a later step does not change the pulse.
    let r = render(
        [.transient(at: 0.05, intensity: 0.8, sharpness: 0.6)],
        parameters: steps(.hapticSharpnessControl, [(0, 0.4), (0.055, -1)]),
        curves: [ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1), (0.1, 0)])])
    #expect(r.transients.count == 1)
    expectSample(r.sample(at: 0.05), 0.4, 1)
    expectSample(r.sample(at: 0.059), 0.4, 1)
    #expect(r.transients[0].lengthMilliseconds == 10)
}

@Test func overlapTakesTheMaximumIntensityAndTheLoudestSharpness() {
    let r = render([
        .continuous(at: 0, duration: 1, intensity: 0.5, sharpness: 0.2),
        .transient(at: 0.1, intensity: 0.9, sharpness: 0.8),
        .transient(at: 0.3, intensity: 0.3, sharpness: 1),
        .continuous(at: 0.5, duration: 0.2, intensity: 0.7, sharpness: 0.9),
    ])
    expectSample(r.sample(at: 0.105), 0.9, 0.8)
    expectSample(r.sample(at: 0.305), 0.5, 0.2)
    expectSample(r.sample(at: 0.6), 0.7, 0.9)
    expectSample(r.continuousSample(at: 0.105), 0.5, 0.2)
}

@Test func tiesGoToTransientsThenLaterStartThenLaterEvent() {
    let transientOverContinuous = render([
        .continuous(at: 0, duration: 1, intensity: 0.6, sharpness: 0.1),
        .transient(at: 0.5, intensity: 0.6, sharpness: 0.9),
    ])
    expectSample(transientOverContinuous.sample(at: 0.505), 0.6, 0.9)
    let laterStart = render([
        .continuous(at: 0.2, duration: 1, intensity: 0.6, sharpness: 0.7),
        .continuous(at: 0, duration: 1, intensity: 0.6, sharpness: 0.1),
    ])
    expectSample(laterStart.sample(at: 0.5), 0.6, 0.7)
    let laterEvent = render([
        .continuous(at: 0, duration: 1, intensity: 0.6, sharpness: 0.3),
        .continuous(at: 0, duration: 1, intensity: 0.6, sharpness: 0.4),
    ])
    expectSample(laterEvent.sample(at: 0.5), 0.6, 0.4)
    let newerPulse = render([
        .transient(at: 0.1, intensity: 0.6, sharpness: 0),
        .transient(at: 0.105, intensity: 0.6, sharpness: 1),
    ])
    expectSample(newerPulse.sample(at: 0.107), 0.6, 1)
    expectSample(newerPulse.sample(at: 0.117), 0.6, 0)  // the newer one ended (10 ms), the older still plays
}

@Test func audioEventsAndAudioControlsAreIgnored() {
    let r = render(
        [
            .audioContinuous(at: 0, duration: 2, volume: 1),
            .audioCustom(at: 0, waveformPath: "Splash.caf", duration: 3),
            .transient(at: 0.1, intensity: 1, sharpness: 1),
        ],
        parameters: [DynamicParameter(.audioVolumeControl, value: 0, at: 0)],
        curves: [ParameterCurve(.audioPitchControl, at: 0, points: [(0, 0), (4, 1)])])
    expectSample(r.sample(at: 0.05), 0, 0)
    expectSample(r.sample(at: 0.105), 1, 1)
    expectSample(r.sample(at: 1), 0, 0)
    #expect(abs(r.duration - 0.11) < eps)
}

@Test func zeroIntensityForcesZeroSharpness() {
    let r = render(
        [
            .continuous(at: 0, duration: 1, intensity: 0, sharpness: 0.9),
            .continuous(at: 1, duration: 1, intensity: 1, sharpness: 0.9),
            .transient(at: 1.5, intensity: 1, sharpness: 0.7),
        ],
        parameters: [DynamicParameter(.hapticIntensityControl, value: 0, at: 1.2)])
    expectSample(r.sample(at: 0.5), 0, 0)
    expectSample(r.sample(at: 1.1), 1, 0.9)
    expectSample(r.sample(at: 1.3), 0, 0)
    expectSample(r.sample(at: 1.505), 0, 0)  // the control silences the transient too
    #expect(r.transients.isEmpty)
}

@Test func missingIntensityAndSharpnessUseTheDocumentedDefaults() {
    let r = render([
        HapticEvent(type: .hapticContinuous, time: 0, duration: 0.5),
        HapticEvent(type: .hapticTransient, time: 1),
    ])
    expectSample(r.sample(at: 0.25), 1, 0.5)
    #expect(r.transients == [RenderedTransient(time: 1, intensity: 1, sharpness: 0.5, lengthMilliseconds: 15)])
}

@Test func durationCoversPulsesAndHapticControlsButNotAudio() {
    let r = render(
        [.transient(at: 0.5, intensity: 1, sharpness: 0), .audioContinuous(at: 0, duration: 9)],
        parameters: [DynamicParameter(.hapticSharpnessControl, value: 0, at: 0.3)],
        curves: [ParameterCurve(.hapticIntensityControl, at: 0.4, points: [(0, 1), (0.1, 0.5)])])
    #expect(abs(r.duration - 0.52) < eps)
    let controls = render([.transient(at: 0.5)], curves: [ParameterCurve(.hapticIntensityControl, at: 0.4, points: [(0, 1), (0.6, 0.5)])])
    #expect(abs(controls.duration - 1.0) < eps)
}

@Test func tickGridPlacesContinuousSamplesAtKOverRateAndPulsesAtRoundedTicks() {
    let r = render([
        .continuous(at: 0, duration: 0.03, intensity: 0.5, sharpness: 0.2, attack: 0.2),
        .transient(at: 0.0104, intensity: 0.9, sharpness: 1),
    ])
    let grid = r.render(rate: 1000)
    #expect(grid.count == 30)
    // Continuous: attack 1/31 s; tick 5 samples t = 0.005.
    expectSample(grid[5], 0.5 * 0.005 * 31, 0.2)
    // Transient onset 10.4 ms -> tick 10; sharpness 1 -> 10 ticks: 10 ..< 20.
    expectSample(grid[9], 0.5 * 0.009 * 31, 0.2)
    expectSample(grid[10], 0.9, 1)
    expectSample(grid[19], 0.9, 1)
    expectSample(grid[20], 0.5 * 0.02 * 31, 0.2)
    // At 500 Hz: onset tick round(5.2) = 5, length round(10 * 0.5) = 5 ticks.
    let half = r.render(rate: 500)
    #expect(half.count == 15)
    expectSample(half[4], 0.5 * 0.008 * 31, 0.2)
    expectSample(half[5], 0.9, 1)
    expectSample(half[9], 0.9, 1)
    expectSample(half[10], 0.5 * 0.02 * 31, 0.2)
}

@Test func tickCountExtendsForAPulseRoundedPastTheEnd() {
    // At 100 Hz a 15 ms pulse (sharpness 0.5) lasts round(1.5) = 2 ticks; onset 5 ms -> tick round(0.5) = 1.
    // ceil(duration * rate) = ceil(2.0) = 2 would cut it: the count extends to 1 + 2 = 3.
    let r = render([.transient(at: 0.005, intensity: 1, sharpness: 0.5)])
    #expect(r.tickCount(rate: 100) == 3)
    #expect(r.render(rate: 100).map(\.intensity) == [0, 1, 1])
    #expect(render([]).render(rate: 1000).isEmpty)
    #expect(render([.continuous(at: 0.1, duration: 0.15)]).tickCount(rate: 1000) == 250)
    // 0.1 + 0.2 = 0.30000000000000004: still 300 ticks, not 301.
    #expect(render([.continuous(at: 0.1, duration: 0.2)]).tickCount(rate: 1000) == 300)
}
