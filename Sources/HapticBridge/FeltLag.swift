import FirmwareModel
import HapticCompiler
import HapticPattern

/// What a pattern asks to be felt, and the soonest physics allows it, on one actuator profile
/// (docs/performance.md, "Felt lag and its floor"). Computed once per pattern and profile; each
/// play's felt lag is then its measured first output plus the rise of its drive to half of
/// `level`, less `intended50`. Time 0 is the play call (the pattern's time 0).
///
/// - The intended envelope is the reference renderer's I(t), S(t) expressed as the acceleration
///   the profile should settle at: the steady-state envelope, through the profile's physics, of
///   the drive the profile's transfer gives (I, S) (so a transfer curve does not shift a fade-in).
///   Its first peak is its largest value over its first sounding stretch (from the first instant
///   it is above 0 to the next instant it is 0, cut at `FeltRise.peakWindow`), sampled every
///   `samplePeriod` and at the renderer's breakpoints.
/// - `level`, the level the profile should reach for the first peak: that peak, or, when the
///   first stretch is too short for the fastest drive to get there, the most that drive reaches
///   within it. `intended50` is the first instant the intended envelope reaches `level` / 2
///   (found on the sampling grid, then by bisection to `resolution`).
/// - The fastest drive the actuator's limits allow: from rest, on the tick the pattern first
///   sounds on (the renderer's tick grid through the transfer), the overdrive ceiling at the drive
///   frequency that settles highest (the sharpness code nearest resonance) until the motion is at
///   the level, then the level (`fastest`: the profile's physics with an ideal stage whose
///   ceiling kick stays open). `floorFelt` is when its acceleration first reaches `level` / 2.
///   No drive within the ceiling gets there sooner, however it follows the pattern; a faithful
///   fade-in is later than this by design.
public struct FeltTarget: Sendable, Hashable {
    /// Seconds from the play call to 50 % of the intended first peak.
    public var intended50: Double
    /// The intended first peak (intensity) and the drive the profile gives it.
    public var peakIntensity: Double
    public var peakDrive: OutputSample
    /// The level the profile should reach (normalized acceleration, 1 = rated drive at the reference frequency).
    public var level: Double
    /// Seconds from the play call, with no transport time at all, to `level` / 2 under the fastest drive.
    public var floorFelt: Double

    /// The intended envelope's sample period, and the bisection's resolution.
    public static let samplePeriod = 1e-4
    public static let resolution = 1e-6

    /// nil when the pattern never sounds on this profile or the actuator does not move for it.
    public static func of(pattern: HapticPattern, profile: ActuatorProfile, rate: Double) -> FeltTarget? {
        let renderer = ReferenceRenderer(pattern: pattern)
        let model = profile.physicsModel(tickRate: rate)
        let physics = ActuatorSimulator(model: model)
        func drive(_ sample: RenderedSample) -> OutputSample {
            let amplitude = profile.amplitudeCode(forIntensity: sample.intensity)
            let code = profile.rendersSharpness && amplitude > 0 ? SharpnessRendering.code(forSharpness: sample.sharpness) : 0
            return OutputSample(amplitude: amplitude, sharpness: code)
        }
        // The intended envelope as the acceleration the profile should settle at, instant by instant.
        func intended(_ t: Double) -> Double { physics.steadyEnvelope(for: drive(renderer.sample(at: t))) }
        let times = samplingTimes(renderer)
        guard let first = times.firstIndex(where: { intended($0) > 0 }) else { return nil }
        var peak = (level: 0.0, time: times[first])
        for t in times[first...].prefix(while: { $0 <= times[first] + FeltRise.peakWindow }) {
            let level = intended(t)
            if level <= 0 { break }
            if level > peak.level { peak = (level, t) }
        }
        let grid = renderer.render(rate: rate).map(drive)
        guard let start = grid.firstIndex(where: { $0.amplitude > 0 }) else { return nil }
        let window = Int((FeltRise.peakWindow * rate).rounded()) + 1
        let stretch = grid[start...].prefix(window).prefix { $0.amplitude > 0 }.count
        // The fastest drive: the ceiling from rest, at whichever drive frequency gets there first.
        var codes: [UInt8] = [0]
        if profile.rendersSharpness {
            var seen = Set<Double>()
            codes = (0...255).map(UInt8.init).filter { seen.insert(profile.driveFrequency(forSharpnessCode: $0) ?? 0).inserted }
        }
        let envelopes = codes.map { code in
            var simulator = ActuatorSimulator(model: fastest(model, ticks: window))
            return simulator.run(Array(repeating: OutputSample(amplitude: 255, sharpness: code), count: window)).map(\.envelope)
        }
        let level = min(peak.level, envelopes.map { $0[0..<stretch].max() ?? 0 }.max() ?? 0)
        guard level > 0, let rise = envelopes.compactMap({ FeltRise.timeToReach(level / 2, envelope: $0, tickRate: rate) }).min(),
            let above = times[first...].firstIndex(where: { intended($0) >= level / 2 })
        else { return nil }
        // Bisection for the first instant at or over half, between a time under it and one over.
        var low = above > 0 ? times[above - 1] : times[above], high = times[above]
        while high - low > resolution {
            let middle = (low + high) / 2
            if intended(middle) >= level / 2 { high = middle } else { low = middle }
        }
        let peakSample = renderer.sample(at: peak.time)
        return FeltTarget(
            intended50: high, peakIntensity: peakSample.intensity, peakDrive: drive(peakSample), level: level,
            floorFelt: Double(start) / rate + rise)
    }

    /// Seconds from the first sample of `drive` (a play's output from its first output tick) to
    /// its acceleration first reaching `level` / 2 on `model`, from rest; nil if it does not
    /// within `drive`.
    public func rise(of drive: [OutputSample], model: ActuatorSimulator.Model) -> Double? {
        var simulator = ActuatorSimulator(model: model)
        return FeltRise.timeToReach(level / 2, envelope: simulator.run(drive).map(\.envelope), tickRate: simulator.tickRate)
    }

    /// The felt lag of a play whose first output tick started `firstOutput` seconds after the
    /// call (its lead-in included) and whose drive took `rise` from there.
    public func lag(firstOutput: Double, rise: Double) -> Double { firstOutput + rise - intended50 }

    /// The floor with `transport` seconds of transport (the link's lower bound).
    public func floor(transport: Double) -> Double { transport + floorFelt - intended50 }

    /// The same stage with the fastest drive the actuator's limits allow: a ceiling kick whose
    /// window stays open for `ticks`, at full edge strength, decided from the simulated motion.
    static func fastest(_ model: ActuatorSimulator.Model, ticks: Int) -> ActuatorSimulator.Model {
        func ideal(_ e: EdgeParameters) -> EdgeParameters {
            EdgeParameters(overdriveRatio: e.overdriveRatio, kickTicks: ticks, brakeTicks: e.brakeTicks, brakeRatio: e.brakeRatio)
        }
        switch model {
        case .resonator(var p):
            p.edges = ideal(p.edges)
            return .resonator(p)
        case .erm(var p):
            p.edges = ideal(p.edges)
            return .erm(p)
        }
    }

    /// Every `samplePeriod` over the pattern, with its breakpoints, in order.
    static func samplingTimes(_ renderer: ReferenceRenderer) -> [Double] {
        let count = Int((renderer.duration / samplePeriod).rounded(.up))
        let grid = (0...max(0, count)).map { Double($0) * samplePeriod }
        return (grid + renderer.breakpoints).sorted()
    }
}

/// Felt lag or its floor over plays, milliseconds, percentiles as docs/performance.md defines
/// them (`Percentile`, the nearest rank on the exact values).
public struct FeltLagSummary: Encodable, Sendable, Hashable {
    public var p50Ms, p99Ms: Double

    public init(seconds values: [Double]) {
        let sorted = values.sorted()
        p50Ms = Percentile.nearestRank(50, ofSorted: sorted) * 1000
        p99Ms = Percentile.nearestRank(99, ofSorted: sorted) * 1000
    }
}
