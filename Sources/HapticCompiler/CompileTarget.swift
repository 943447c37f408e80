import HapticPattern

/// The codes a compiled program must reproduce: the reference renderer's tick grid (contract:
/// tick k samples t = k / rate, transients as max-combined rectangular pulses) through the
/// profile's transfer (docs/compiler.md, "Reference codes").
///
///     amplitude[k] = A(I_k)                     the profile's intensity transfer
///     sharpness[k] = round(255 * S_k)           0 where amplitude[k] is 0 (PROTOCOL.md 1.11)
///
/// A is non-decreasing, so A(max of intensities) = max of codes: the firmware's max-combine in
/// codes reproduces the renderer's max in intensity exactly.
struct CompileTarget: Sendable {
    let rate: Double
    let amplitude: [UInt8]
    let sharpness: [UInt8]
    /// The renderer's transients (intensity > 0), sorted by onset.
    let transients: [RenderedTransient]
    /// The output stage uses the sharpness code (`ActuatorProfile.rendersSharpness`).
    let sharpnessRendered: Bool
    /// The program needs its sharpness channel: the profile renders sharpness and some sounding
    /// tick asks for a sharpness beyond the tolerance from 0 (with SHARP clear the output is 0).
    let sharpnessChannel: Bool
    let sharpnessTolerance: Int

    var tickCount: Int { amplitude.count }

    init(renderer: ReferenceRenderer, profile: ActuatorProfile, rate: Double, sharpnessTolerance: Int) {
        self.rate = rate
        let samples = renderer.render(rate: rate)
        var amplitude = [UInt8](repeating: 0, count: samples.count)
        var sharpness = [UInt8](repeating: 0, count: samples.count)
        var needsSharpness = false
        for (k, sample) in samples.enumerated() {
            let a = profile.amplitudeCode(forIntensity: sample.intensity)
            guard a > 0 else { continue }
            let s = SharpnessRendering.code(forSharpness: sample.sharpness)
            amplitude[k] = a
            sharpness[k] = s
            if Int(s) > sharpnessTolerance { needsSharpness = true }
        }
        self.amplitude = amplitude
        self.sharpness = sharpness
        transients = renderer.transients
        sharpnessRendered = profile.rendersSharpness
        sharpnessChannel = sharpnessRendered && needsSharpness
        self.sharpnessTolerance = sharpnessTolerance
    }

    /// The sharpness the output shows for a source of sharpness code `code` (0 without SHARP).
    func shown(_ code: UInt8) -> Int { sharpnessChannel ? Int(code) : 0 }

    /// True if sharpness code `code` as a source at tick k gives an acceptable output sharpness
    /// (always, when the profile ignores sharpness).
    func sharpnessAcceptable(_ code: UInt8, at k: Int) -> Bool {
        !sharpnessRendered || abs(shown(code) - Int(sharpness[k])) <= sharpnessTolerance
    }

    // MARK: Bands (docs/compiler.md, "Bands")

    /// What the amplitude channel may show, given the pulses the program plays.
    ///
    /// - Silent tick (reference 0): exactly 0. Zero is never approximated: onsets and stops keep
    ///   their exact ticks, and with them the output stage's kicks and brakes.
    /// - The pulses alone give the reference (amplitude equal, sharpness acceptable): anything up
    ///   to the pulse amplitude (a pulse wins ties against the channel, 1.11).
    /// - Otherwise the channel must win: within the tolerance of the reference, at least 1, and
    ///   above the pulses so that its sharpness is the one shown. `KernelPulses` drops the pulses
    ///   that would leave no room for that (a tie in codes at the top of the tolerance); should
    ///   the band still be empty, the channel matches the amplitude and the pulse's sharpness
    ///   shows, which the fidelity check would report.
    func amplitudeBand(pulses: PulseLayer, tolerance: Int) -> ChannelBand {
        let n = tickCount
        var lower = [UInt8](repeating: 0, count: n), upper = lower
        var loose = [Bool](repeating: false, count: n)
        for k in 0..<n {
            let reference = Int(amplitude[k])
            guard reference > 0 else { continue }
            let p = Int(pulses.amplitude[k])
            if p == reference && sharpnessAcceptable(pulses.sharpness[k], at: k) {
                upper[k] = UInt8(p)
                loose[k] = true
                continue
            }
            var low = max(1, reference - tolerance, p + 1)
            let high = min(255, reference + tolerance)
            if low > high { low = max(1, reference - tolerance) }
            lower[k] = UInt8(low)
            upper[k] = UInt8(high)
        }
        return ChannelBand(lower: lower, upper: upper, target: amplitude, loose: loose)
    }

    /// What the sharpness channel may show once the amplitude channel's values are known: the
    /// reference (within the tolerance) where the channel's amplitude is the one output; anything
    /// where a pulse wins or the output is silent (its sharpness is then 0 by 1.11).
    func sharpnessBand(envelope: [UInt8], pulses: PulseLayer) -> ChannelBand {
        let n = tickCount
        guard sharpnessChannel else { return ChannelBand(free: n) }
        var lower = [UInt8](repeating: 0, count: n), upper = [UInt8](repeating: 255, count: n)
        var loose = [Bool](repeating: true, count: n)
        for k in 0..<n {
            let e = envelope[k], p = pulses.amplitude[k]
            guard e > 0, e > p else { continue }
            loose[k] = false
            let reference = Int(sharpness[k])
            lower[k] = UInt8(max(0, reference - sharpnessTolerance))
            upper[k] = UInt8(min(255, reference + sharpnessTolerance))
        }
        return ChannelBand(lower: lower, upper: upper, target: sharpness, loose: loose)
    }
}

extension ActuatorProfile {
    /// Whether the output stage does anything with the sharpness code: a drive frequency that
    /// moves with it, or kick/brake edges whose strength depends on it (docs/semantics.md,
    /// "Actuators"). When not, the compiler clears SHARP and does not measure sharpness.
    public var rendersSharpness: Bool {
        switch sharpness {
        case .frequency(let minHz, let maxHz, _):
            return minHz != maxHz
        case .edges(let minimumEdge):
            let kicks = edges.kickMs > 0 && drive.overdriveRatio > 1
            let brakes = edges.brakeMs > 0 && edges.brakeRatio > 0
            return minimumEdge < 1 && (kicks || brakes)
        }
    }
}
