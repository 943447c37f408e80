/// Whole-pattern rules applied after the per-value ones (docs/ahap.md, "Repairs"):
/// control points in time order, Lofelt-style absolute curve times, single-point curves as steps,
/// continuous events longer than 30 s split (lenient), and events, steps and curves in time order.
struct AHAPRepairs {
    private let mode: AHAPMode
    private var events: [HapticEvent]
    private var eventItems: [Int]
    private var steps: [DynamicParameter]
    private var stepItems: [Int]
    private var curves: [ParameterCurve]
    private var curveItems: [Int]
    private let metadata: [String: JSONValue]
    private let file: String?
    var warnings: [AHAPWarning]

    init(reader: AHAPReader) {
        mode = reader.mode
        events = reader.events
        eventItems = reader.eventItems
        steps = reader.steps
        stepItems = reader.stepItems
        curves = reader.curves
        curveItems = reader.curveItems
        metadata = reader.metadata
        file = reader.file
        warnings = reader.warnings
    }

    mutating func run() throws(AHAPError) -> HapticPattern {
        // Order is judged on what the file says, before repairs add pieces or steps of their own.
        // Steps and curves are judged per parameter ID: Lofelt files list all intensity chunks, then all
        // sharpness chunks, each in order, and that is no disorder (they control different things).
        reportOrder(events.map(\.time), eventItems, what: "events")
        for id in DynamicParameterID.allCases {
            let stepIndices = steps.indices.filter { steps[$0].id == id }
            reportOrder(stepIndices.map { steps[$0].time }, stepIndices.map { stepItems[$0] }, what: "\(id.rawValue) steps")
            let curveIndices = curves.indices.filter { curves[$0].id == id }
            reportOrder(curveIndices.map { curves[$0].time }, curveIndices.map { curveItems[$0] }, what: "\(id.rawValue) curves")
        }
        repairCurves()
        if mode == .lenient { try splitLongEvents() }
        events = Self.stableSorted(events, by: \.time)
        steps = Self.stableSorted(steps, by: \.time)
        curves = Self.stableSorted(curves, by: \.time)
        return HapticPattern(events: events, parameters: steps, curves: curves, metadata: metadata, version: 1.0)
    }

    private mutating func warn(_ kind: AHAPWarning.Kind, _ path: String, _ message: String) {
        warnings.append(AHAPWarning(kind: kind, path: path, message: message))
    }

    private mutating func reportOrder(_ times: [Double], _ items: [Int], what: String) {
        guard let index = times.indices.dropFirst().first(where: { times[$0] < times[$0 - 1] }) else { return }
        warn(
            .outOfOrder, "Pattern",
            "\(what) are not in time order (Pattern[\(items[index])] at \(AHAPText.number(times[index])) s follows "
                + "Pattern[\(items[index - 1])] at \(AHAPText.number(times[index - 1])) s); sorted by time, ties keep file order")
    }

    /// Per curve: points sorted by time; absolute times detected; one-point curves become steps.
    private mutating func repairCurves() {
        var kept: [ParameterCurve] = []
        var keptItems: [Int] = []
        kept.reserveCapacity(curves.count)
        for (curve, item) in zip(curves, curveItems) {
            var curve = curve
            let path = "Pattern[\(item)].ParameterCurve"
            let times = curve.controlPoints.map(\.time)
            if times.indices.dropFirst().contains(where: { times[$0] < times[$0 - 1] }) {
                curve.controlPoints = Self.stableSorted(curve.controlPoints, by: \.time)
                warn(
                    .outOfOrder, "\(path).ParameterCurveControlPoints",
                    "control points are not in time order; sorted by time, ties keep file order")
            }
            // Lofelt's exporter gives each 16-point chunk a Time and then writes absolute point
            // times: the first point's time equals the curve's Time. Apple says point times are
            // relative. Only exact equality is taken as evidence: after conversion the first point is
            // at 0 (< Time), so decoding the encoder's output never converts again.
            if curve.time > 0, let first = curve.controlPoints.first, first.time == curve.time {
                let start = AHAPText.number(curve.time)
                if mode == .lenient {
                    curve.controlPoints = curve.controlPoints.map { ControlPoint(time: $0.time - curve.time, value: $0.value) }
                    warn(
                        .absoluteCurveTimes, "\(path).ParameterCurveControlPoints",
                        "control point times start at the curve's Time (\(start)): read as absolute times "
                            + "(Lofelt convention) and made relative")
                } else {
                    warn(
                        .absoluteCurveTimes, "\(path).ParameterCurveControlPoints",
                        "control point times start at the curve's Time (\(start)), which suggests absolute times "
                            + "(Lofelt convention); read as relative, as Core Haptics does")
                }
            }
            if curve.controlPoints.count == 1 {
                let point = curve.controlPoints[0]
                steps.append(DynamicParameter(curve.id, value: point.value, at: curve.time + point.time))
                stepItems.append(item)
                warn(
                    .singlePointCurve, path,
                    "a curve with one control point; loaded as a Parameter step at "
                        + "\(AHAPText.number(curve.time + point.time)) s")
                continue
            }
            kept.append(curve)
            keptItems.append(item)
        }
        curves = kept
        curveItems = keptItems
    }

    /// Continuous events longer than 30 s become consecutive pieces of 30 s (the last one shorter),
    /// each with the event's parameters: what a player restarting the event every 30 s would play.
    private mutating func splitLongEvents() throws(AHAPError) {
        let limit = AHAPDecoder.maximumContinuousDuration
        guard events.contains(where: { $0.type != .hapticTransient && $0.type != .audioCustom && $0.duration > limit })
        else { return }
        var result: [HapticEvent] = []
        result.reserveCapacity(events.count)
        var added = 0
        for (event, item) in zip(events, eventItems) {
            guard event.type != .hapticTransient && event.type != .audioCustom && event.duration > limit else {
                result.append(event)
                continue
            }
            let pieces = (event.duration / limit).rounded(.up)
            guard pieces - 1 <= Double(AHAPDecoder.maximumSplitPieces - added) else {
                throw AHAPError(
                    file: file, path: "Pattern[\(item)].Event.EventDuration",
                    message: "splitting continuous events longer than 30 s would add more than "
                        + "\(AHAPDecoder.maximumSplitPieces) events")
            }
            let end = event.time + event.duration
            var count = Int(pieces)
            // Rounding can leave a last piece a hair over 30 s; one more piece keeps every piece legal.
            if end - (event.time + Double(count - 1) * limit) > limit { count += 1 }
            for piece in 0..<count {
                var part = event
                part.time = event.time + Double(piece) * limit
                part.duration = piece == count - 1 ? max(0, end - part.time) : limit
                result.append(part)
            }
            added += count - 1
            warn(
                .longEvent, "Pattern[\(item)].Event.EventDuration",
                "\(AHAPText.number(event.duration)) s is longer than the 30 s limit; split into \(count) events")
        }
        events = result
    }

    /// Stable sort by a time key (Swift's `sort` does not promise stability); no-op when sorted.
    static func stableSorted<Element>(_ elements: [Element], by time: (Element) -> Double) -> [Element] {
        let times = elements.map(time)
        guard times.indices.dropFirst().contains(where: { times[$0] < times[$0 - 1] }) else { return elements }
        let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        return order.map { elements[$0] }
    }
}
