import Foundation

/// Intensity and sharpness at one instant (both 0...1; sharpness is 0 wherever intensity is 0).
public struct RenderedSample: Sendable, Hashable, Codable {
    public var intensity: Double
    public var sharpness: Double

    public static let silence = RenderedSample(intensity: 0, sharpness: 0)
}

/// A transient as the renderer plays it: a rectangular pulse with parameters fixed at its onset.
public struct RenderedTransient: Sendable, Hashable, Codable {
    /// Onset, seconds.
    public var time: Double
    /// Effective intensity: clamp(HapticIntensity * intensity control at the onset, 0, 1).
    public var intensity: Double
    /// Effective sharpness: clamp(HapticSharpness + sharpness control at the onset, 0, 1).
    public var sharpness: Double
    /// Pulse length, from the sharpness code (see `lengthMilliseconds(sharpness:)`).
    public var lengthMilliseconds: Int

    public init(time: Double, intensity: Double, sharpness: Double, lengthMilliseconds: Int) {
        self.time = time
        self.intensity = intensity
        self.sharpness = sharpness
        self.lengthMilliseconds = lengthMilliseconds
    }

    /// End of the pulse in seconds (exclusive).
    public var endTime: Double { time + Double(lengthMilliseconds) / 1000 }

    /// The 8-bit sharpness code the device sees: round(255 * s).
    public static func sharpnessCode(_ sharpness: Double) -> Int {
        Int((min(max(sharpness, 0), 1) * 255).rounded())
    }

    /// L = 20 - ((code * 10 + 128) >> 8) ms: 20 ms at sharpness 0 down to 10 ms at 1 (sharper taps are
    /// shorter). Integer arithmetic, identical to the firmware kernel (contract; PROTOCOL.md).
    public static func lengthMilliseconds(sharpness: Double) -> Int {
        20 - ((sharpnessCode(sharpness) * 10 + 128) >> 8)
    }

    /// The pulse length in ticks at `rate` Hz: L at 1 kHz, round(L * rate / 1000) otherwise.
    public func lengthTicks(rate: Double) -> Int {
        Int((Double(lengthMilliseconds) * rate / 1000).rounded())
    }

    /// The tick at which the pulse starts: round(time * rate).
    public func startTick(rate: Double) -> Int {
        Int((time * rate).rounded())
    }
}

/// The ground-truth rendering of a pattern to intensity I(t) and sharpness S(t), in floating point.
/// Every rule is written down, with its reason, in docs/semantics.md; in short:
///
/// - Only haptic events play; audio events and audio controls are ignored.
/// - Continuous event: I = clamp(I_event) * envelope(t - t0) * intensityControl(t),
///   S = clamp(S_event + sharpnessControl(t), 0, 1), on [t0, t0 + duration). The envelope (`Envelope`)
///   lies inside the event; its times come from `EnvelopeTime`, with the time controls read at t0.
/// - Transient: a rectangle of `RenderedTransient.lengthMilliseconds` from its onset, parameters read at t0.
/// - Overlaps: I = max over all contributions; S of the loudest one; ties go to a transient over a continuous
///   event, then to the later start, then to the later event in the pattern. Where I == 0, S = 0.
///
/// Construction sorts everything once; `sample(at:)` is then a few binary searches and a loop over the
/// events actually playing, and `render(rate:)` walks the tick grid with a cursor.
public struct ReferenceRenderer: Sendable {
    public let pattern: HapticPattern
    /// Effective transients (intensity > 0), sorted by onset (then by event order).
    public let transients: [RenderedTransient]
    /// Seconds: the latest end among haptic events (a transient ends with its pulse), haptic `Parameter`
    /// steps and haptic curves. Audio items do not count: they never play on an actuator.
    public let duration: Double
    /// Sorted times in [0, duration] where I(t) or S(t) may jump or change slope: event starts and ends,
    /// envelope corners, intensity/sharpness control steps and curve points, pulse edges. Between two
    /// consecutive breakpoints every contribution is a product of linear functions of t.
    public let breakpoints: [Double]

    /// Event index (into `pattern.events`) of each entry of `transients`.
    let transientEventIndices: [Int]
    let voices: [Voice]
    let intensityControl: ControlTimeline
    let sharpnessControl: ControlTimeline
    /// Voice segmentation: between `segmentStarts[j]` and `segmentStarts[j + 1]` the voices playing are
    /// `segmentVoices[segmentOffsets[j] ..< segmentOffsets[j + 1]]` (indices into `voices`, in voice order).
    let segmentStarts: [Double]
    let segmentOffsets: [Int]
    let segmentVoices: [Int]

    /// Longest possible pulse (sharpness 0), seconds: bounds the backwards search for playing pulses.
    static let longestPulse = 0.020

    /// One continuous haptic event, resolved.
    struct Voice: Sendable {
        var eventIndex: Int
        var start: Double
        var end: Double
        var intensity: Double
        var sharpness: Double
        var envelope: Envelope

        /// This event's own contribution at t (0 intensity outside it), given the controls' values at t.
        func sample(at t: Double, intensityControl: Double, sharpnessControl: Double) -> RenderedSample {
            let i = intensity * envelope.gain(at: t - start) * intensityControl
            guard i > 0 else { return .silence }
            return RenderedSample(intensity: min(i, 1), sharpness: min(max(sharpness + sharpnessControl, 0), 1))
        }
    }

    public init(pattern: HapticPattern) {
        self.pattern = pattern
        let intensityControl = ControlTimeline(id: .hapticIntensityControl, pattern: pattern)
        let sharpnessControl = ControlTimeline(id: .hapticSharpnessControl, pattern: pattern)
        let attackControl = ControlTimeline(id: .hapticAttackTimeControl, pattern: pattern)
        let decayControl = ControlTimeline(id: .hapticDecayTimeControl, pattern: pattern)
        let releaseControl = ControlTimeline(id: .hapticReleaseTimeControl, pattern: pattern)
        self.intensityControl = intensityControl
        self.sharpnessControl = sharpnessControl

        func unit(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        // Event values enter the formulas as given (the codec decides about out-of-range input); only
        // the results are clamped, as the contract writes them.
        func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }

        var voices: [Voice] = []
        var pulses: [(RenderedTransient, Int)] = []
        var end = 0.0
        for (index, event) in pattern.events.enumerated() where event.time.isFinite {
            switch event.type {
            case .hapticContinuous:
                let t0 = event.time
                let length = event.duration.isFinite ? max(event.duration, 0) : 0
                end = max(end, t0 + length)
                guard length > 0 else { continue }
                let envelope = Envelope(
                    duration: length,
                    sustained: event.isSustained,
                    attack: EnvelopeTime.seconds(event.attackTime, control: attackControl.value(at: t0)),
                    decay: EnvelopeTime.seconds(event.decayTime, control: decayControl.value(at: t0)),
                    release: EnvelopeTime.seconds(event.releaseTime, control: releaseControl.value(at: t0)))
                voices.append(
                    Voice(
                        eventIndex: index, start: t0, end: t0 + length,
                        intensity: finite(event.intensity), sharpness: finite(event.sharpness), envelope: envelope))
            case .hapticTransient:
                let t0 = event.time
                let intensity = unit(finite(event.intensity) * intensityControl.value(at: t0))
                let sharpness = unit(finite(event.sharpness) + sharpnessControl.value(at: t0))
                let pulse = RenderedTransient(
                    time: t0, intensity: intensity, sharpness: sharpness,
                    lengthMilliseconds: RenderedTransient.lengthMilliseconds(sharpness: sharpness))
                end = max(end, pulse.endTime)
                if intensity > 0 { pulses.append((pulse, index)) }
            case .audioContinuous, .audioCustom:
                continue
            }
        }
        for step in pattern.parameters where step.id.isHaptic && step.time.isFinite { end = max(end, step.time) }
        for curve in pattern.curves where curve.id.isHaptic && curve.time.isFinite {
            for point in curve.controlPoints where point.time.isFinite { end = max(end, curve.time + point.time) }
        }
        duration = end

        // Voices in (start, event order); pulses in (onset, event order): "later" = further down the list.
        voices.sort { ($0.start, $0.eventIndex) < ($1.start, $1.eventIndex) }
        pulses.sort { ($0.0.time, $0.1) < ($1.0.time, $1.1) }
        self.voices = voices
        transients = pulses.map(\.0)
        transientEventIndices = pulses.map(\.1)

        // Segmentation by sweeping voice starts and ends.
        let bounds = Array(Set(voices.flatMap { [$0.start, $0.end] })).sorted()
        var offsets = [0]
        var members: [Int] = []
        var active: [Int] = []
        var next = 0
        for bound in bounds.dropLast() {
            active.removeAll { voices[$0].end <= bound }
            while next < voices.count, voices[next].start <= bound {
                if voices[next].end > bound { active.append(next) }
                next += 1
            }
            active.sort()
            members += active
            offsets.append(members.count)
        }
        segmentStarts = bounds
        segmentOffsets = offsets
        segmentVoices = members

        var times: Set<Double> = [0, end]
        for voice in voices {
            for tau in voice.envelope.breakpoints { times.insert(voice.start + tau) }
        }
        for t in intensityControl.breakpoints + sharpnessControl.breakpoints { times.insert(t) }
        for pulse in transients {
            times.insert(pulse.time)
            times.insert(pulse.endTime)
        }
        breakpoints = times.filter { $0 >= 0 && $0 <= end }.sorted()
    }

    // MARK: - Float time

    /// Continuous events only, at time t (seconds).
    public func continuousSample(at t: Double) -> RenderedSample {
        continuousSample(at: t, segment: segment(containing: t))
    }

    /// Continuous events and transients, at time t (seconds).
    public func sample(at t: Double) -> RenderedSample {
        var best = continuousSample(at: t)
        // Pulses with time <= t < endTime all start within the longest pulse length before t.
        var index = firstTransient(after: t - Self.longestPulse - 1e-9)
        while index < transients.count, transients[index].time <= t {
            let pulse = transients[index]
            if t < pulse.endTime, pulse.intensity >= best.intensity {
                best = RenderedSample(intensity: pulse.intensity, sharpness: pulse.sharpness)
            }
            index += 1
        }
        return best
    }

    // MARK: - Tick grid

    /// Number of ticks `render(rate:)` returns: ceil(duration * rate) (with a 1e-6 tick tolerance for
    /// floating-point noise), extended if a pulse rounded onto the grid would run past it.
    public func tickCount(rate: Double) -> Int {
        guard duration > 0 else { return 0 }
        var count = Int((duration * rate - 1e-6).rounded(.up))
        for pulse in transients { count = max(count, pulse.startTick(rate: rate) + pulse.lengthTicks(rate: rate)) }
        return max(count, 0)
    }

    /// The tick grid (contract): tick k holds the continuous part at t = k / rate; a transient covers ticks
    /// round(t0 * rate) ..< that + L_ticks; the two combine by the same max / tie rules as `sample(at:)`.
    public func render(rate: Double) -> [RenderedSample] {
        precondition(rate > 0 && rate.isFinite, "render(rate:) needs a positive rate")
        let count = tickCount(rate: rate)
        var out = [RenderedSample](repeating: .silence, count: count)
        if !voices.isEmpty {
            var segment = -1
            for k in 0..<count {
                let t = Double(k) / rate
                while segment + 1 < segmentStarts.count, segmentStarts[segment + 1] <= t { segment += 1 }
                out[k] = continuousSample(at: t, segment: segment)
            }
        }
        for pulse in transients {
            let first = pulse.startTick(rate: rate)
            let last = min(first + pulse.lengthTicks(rate: rate), count)
            var k = max(first, 0)
            while k < last {
                if pulse.intensity >= out[k].intensity {
                    out[k] = RenderedSample(intensity: pulse.intensity, sharpness: pulse.sharpness)
                }
                k += 1
            }
        }
        return out
    }

    // MARK: - Internals

    /// Index of the segment whose start is the last one <= t, or -1.
    func segment(containing t: Double) -> Int {
        var lo = 0, hi = segmentStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segmentStarts[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    func continuousSample(at t: Double, segment j: Int) -> RenderedSample {
        guard j >= 0, j + 1 < segmentOffsets.count else { return .silence }
        let members = segmentOffsets[j]..<segmentOffsets[j + 1]
        guard !members.isEmpty else { return .silence }
        let gain = intensityControl.value(at: t)
        let offset = sharpnessControl.value(at: t)
        var best = RenderedSample.silence
        // Voices are in (start, event order): `>=` lets the later one win a tie.
        for m in members {
            let s = voices[segmentVoices[m]].sample(at: t, intensityControl: gain, sharpnessControl: offset)
            if s.intensity > 0, s.intensity >= best.intensity { best = s }
        }
        return best
    }

    /// First transient whose onset is > t.
    func firstTransient(after t: Double) -> Int {
        var lo = 0, hi = transients.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transients[mid].time <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Peak intensity event `index` reaches on its own (ignoring overlaps), for lint: a transient's
    /// effective intensity; for a continuous event the maximum over its breakpoints and a 1 ms grid.
    func peakIntensity(ofEvent index: Int) -> Double {
        if let k = transientEventIndices.firstIndex(of: index) { return transients[k].intensity }
        guard let voice = voices.first(where: { $0.eventIndex == index }) else { return 0 }
        var times = voice.envelope.breakpoints.map { voice.start + $0 }
        times += breakpoints.filter { $0 > voice.start && $0 < voice.end }
        var t = voice.start
        while t < voice.end {
            times.append(t)
            t += 0.001
        }
        var peak = 0.0
        for t in times where t >= voice.start && t < voice.end {
            let s = voice.sample(at: t, intensityControl: intensityControl.value(at: t), sharpnessControl: 0)
            peak = max(peak, s.intensity)
        }
        // The envelope's last corner is the event end (gain 0); look just before it too.
        let justBefore = voice.end - 1e-9
        peak = max(peak, voice.sample(at: justBefore, intensityControl: intensityControl.value(at: justBefore), sharpnessControl: 0).intensity)
        return peak
    }
}
