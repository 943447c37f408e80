/// One thing a haptic designer should look at. `item` is a 0-based index into the pattern's `events`,
/// `parameters` or `curves`; `time` is where in the pattern it happens (seconds).
public struct LintWarning: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// More than `Lint.sustainedRateLimit` onsets within one second.
        case sustainedRate = "sustained-rate"
        /// More than `Lint.burstLimit` onsets within `Lint.burstWindow`.
        case burst
        /// A continuous event longer than Core Haptics' 30 s.
        case longContinuous = "long-continuous"
        /// An event whose peak effective intensity is below `Lint.weakIntensity`.
        case tooWeak = "too-weak"
        /// A curve with more than `Lint.maxCurvePoints` control points.
        case longCurve = "long-curve"
        /// Audio events and audio controls, which an actuator never plays.
        case audioIgnored = "audio-ignored"
    }

    public enum Item: Sendable, Hashable, CustomStringConvertible {
        case event(Int)
        case parameter(Int)
        case curve(Int)

        public var description: String {
            switch self {
            case .event(let i): return "event \(i)"
            case .parameter(let i): return "parameter \(i)"
            case .curve(let i): return "curve \(i)"
            }
        }
    }

    public var kind: Kind
    public var item: Item
    public var time: Double
    public var message: String

    /// `event 3 at 0.250 s: too-weak: ...`
    public var description: String {
        "\(item) at \(Lint.format(time)) s: \(kind.rawValue): \(message)"
    }
}

/// Design checks on a pattern (docs/semantics.md, "Lint"), with the haptic design guidelines this project
/// follows (docs/presets.md, "Sources") as limits.
public enum Lint {
    /// The iOS game haptics design guide's battery and frequency guidelines: at most 10 haptics a second, sustained.
    public static let sustainedRateLimit = 10
    public static let sustainedRateWindow = 1.0
    /// The same guidelines: bursts of at most 5 haptics in 500 ms, then a pause.
    public static let burstLimit = 5
    public static let burstWindow = 0.5
    /// Core Haptics plays a continuous event for at most 30 s (Apple's Core Haptics documentation).
    public static let maxContinuousDuration = 30.0
    /// Peak effective intensity below which an event is reported as not felt. With the usual square-law
    /// transfer (drive amplitude = intensity^2, Meta/Lofelt's convention and this project's LRA profiles) 0.1 is
    /// 1 % of full drive, an amplitude code of 3/255 or less. The Core Haptics reference guide's "values below 0.3
    /// may be too subtle" is a debugging hint, not a limit: the game design guide's own event catalogue plays item
    /// pickups at 0.3.
    public static let weakIntensity = 0.1
    /// Devices are believed to take at most 16 control points per curve (reported for Core Haptics, unverified;
    /// Meta/Lofelt's exporter splits curves into 16-point pieces).
    public static let maxCurvePoints = 16

    /// All warnings, sorted by time, then kind, then item.
    public static func check(_ pattern: HapticPattern) -> [LintWarning] {
        var warnings: [LintWarning] = []
        let renderer = ReferenceRenderer(pattern: pattern)

        // Onsets: every haptic event's start, in time order.
        let onsets = pattern.events.enumerated()
            .filter { $0.element.type.isHaptic && $0.element.time.isFinite }
            .map { (time: $0.element.time, index: $0.offset) }
            .sorted { ($0.time, $0.index) < ($1.time, $1.index) }
        warnings += rate(
            onsets, limit: sustainedRateLimit, window: sustainedRateWindow, kind: .sustainedRate,
            guideline: "the guideline is at most \(sustainedRateLimit) per second")
        warnings += rate(
            onsets, limit: burstLimit, window: burstWindow, kind: .burst,
            guideline: "the guideline is at most \(burstLimit) in \(format(burstWindow)) s, then a pause")

        for (index, event) in pattern.events.enumerated() {
            switch event.type {
            case .hapticContinuous where event.duration > maxContinuousDuration + 1e-9:
                warnings.append(
                    LintWarning(
                        kind: .longContinuous, item: .event(index), time: event.time,
                        message:
                            "continuous event lasts \(format(event.duration)) s; Core Haptics stops continuous events at \(format(maxContinuousDuration)) s: split it"
                    ))
            case .audioContinuous, .audioCustom:
                warnings.append(
                    LintWarning(
                        kind: .audioIgnored, item: .event(index), time: event.time,
                        message: "\(event.type.rawValue) event is kept in the file but never played on an actuator"))
            default:
                break
            }
            if event.type.isHaptic {
                let peak = renderer.peakIntensity(ofEvent: index)
                if peak < weakIntensity {
                    warnings.append(
                        LintWarning(
                            kind: .tooWeak, item: .event(index), time: event.time,
                            message: "peak intensity \(format(peak)) is below \(format(weakIntensity)) (1 % of full drive): it will not be felt"))
                }
            }
        }
        for (index, curve) in pattern.curves.enumerated() {
            if curve.controlPoints.count > maxCurvePoints {
                warnings.append(
                    LintWarning(
                        kind: .longCurve, item: .curve(index), time: curve.time,
                        message:
                            "\(curve.controlPoints.count) control points; devices take at most \(maxCurvePoints) per curve: split it into curves of \(maxCurvePoints)"
                    ))
            }
            if !curve.id.isHaptic {
                warnings.append(
                    LintWarning(
                        kind: .audioIgnored, item: .curve(index), time: curve.time,
                        message: "\(curve.id.rawValue) curve affects audio only and is ignored on an actuator"))
            }
        }
        for (index, step) in pattern.parameters.enumerated() where !step.id.isHaptic {
            warnings.append(
                LintWarning(
                    kind: .audioIgnored, item: .parameter(index), time: step.time,
                    message: "\(step.id.rawValue) affects audio only and is ignored on an actuator"))
        }

        let kindOrder = Dictionary(uniqueKeysWithValues: LintWarning.Kind.allCases.enumerated().map { ($1, $0) })
        func itemKey(_ item: LintWarning.Item) -> (Int, Int) {
            switch item {
            case .event(let i): return (0, i)
            case .parameter(let i): return (1, i)
            case .curve(let i): return (2, i)
            }
        }
        return warnings.sorted {
            ($0.time, kindOrder[$0.kind]!, itemKey($0.item).0, itemKey($0.item).1)
                < ($1.time, kindOrder[$1.kind]!, itemKey($1.item).0, itemKey($1.item).1)
        }
    }

    /// Windows [t_i, t_i + window) opening at an onset and holding more than `limit` onsets. A run of such
    /// windows (consecutive opening onsets) is one warning, at its first onset, with the largest count seen.
    static func rate(
        _ onsets: [(time: Double, index: Int)], limit: Int, window: Double,
        kind: LintWarning.Kind, guideline: String
    ) -> [LintWarning] {
        var warnings: [LintWarning] = []
        var end = 0
        var run: (start: Int, count: Int, last: Double)?
        func flush() {
            guard let r = run else { return }
            let first = onsets[r.start]
            warnings.append(
                LintWarning(
                    kind: kind, item: .event(first.index), time: first.time,
                    message:
                        "up to \(r.count) onsets in a \(format(window)) s window, between \(format(first.time)) s and \(format(r.last)) s; \(guideline)"
                ))
            run = nil
        }
        for i in onsets.indices {
            // 1e-9 s tolerance so onsets written exactly `window / limit` apart never count as too many.
            end = max(end, i)
            while end < onsets.count, onsets[end].time < onsets[i].time + window - 1e-9 { end += 1 }
            let count = end - i
            if count > limit {
                let last = onsets[end - 1].time
                if let r = run { run = (r.start, max(r.count, count), max(r.last, last)) } else { run = (i, count, last) }
            } else {
                flush()
            }
        }
        flush()
        return warnings
    }

    /// Times and values for messages: up to 3 decimals, no trailing zeros.
    static func format(_ value: Double) -> String {
        var text = String((value * 1000).rounded() / 1000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
