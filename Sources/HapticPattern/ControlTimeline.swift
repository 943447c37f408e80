/// The value of one dynamic control (`HapticIntensityControl`, ...) over time, built from the pattern's
/// `Parameter` steps and `ParameterCurve`s for that ID (docs/semantics.md, "Dynamic parameters").
///
/// Rules:
/// - Before the first step or curve the control is neutral (1 for intensity, 0 for the additive ones).
/// - At time t, the item with the latest start time <= t decides the value (latest-started wins). A step
///   starts at its `Time`; a curve at its own `Time`. Ties: a curve beats a step (it carries more),
///   then the later item in the pattern's list wins.
/// - A step holds its value until another item starts. A curve interpolates linearly between its control
///   points (times relative to the curve's `Time`), holds its first value before the first point and its
///   last value after the last one (never extrapolates), until another item starts.
/// - Values are clamped to the control's documented range.
///
/// Evaluation is a binary search over sorted pieces, then over the piece's points: O(log n).
public struct ControlTimeline: Sendable {
    public let id: DynamicParameterID
    /// The value before any step or curve.
    public let neutral: Double

    /// One step (a single point) or one curve, with absolute, sorted point times.
    struct Piece: Sendable {
        var start: Double
        var times: [Double]
        var values: [Double]

        func value(at t: Double) -> Double {
            if t <= times[0] { return values[0] }
            let last = times.count - 1
            if t >= times[last] { return values[last] }
            // Last point with times[i] <= t; then times[i] <= t < times[i + 1].
            var lo = 0, hi = last
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if times[mid] <= t { lo = mid } else { hi = mid }
            }
            let fraction = (t - times[lo]) / (times[lo + 1] - times[lo])
            return values[lo] + (values[lo + 1] - values[lo]) * fraction
        }
    }

    let pieces: [Piece]
    /// `pieces[i].start`, kept apart for a tight binary search.
    let starts: [Double]

    public init(id: DynamicParameterID, pattern: HapticPattern) {
        self.id = id
        self.neutral = id == .hapticIntensityControl || id == .audioVolumeControl ? 1 : 0
        let range = id.range
        func clamp(_ v: Double) -> Double { min(max(v, range.lowerBound), range.upperBound) }

        // (start, rank, index, piece): rank 0 = step, 1 = curve, so a curve wins a tie with a step.
        var keyed: [(Double, Int, Int, Piece)] = []
        for (index, step) in pattern.parameters.enumerated() where step.id == id && step.time.isFinite && step.value.isFinite {
            keyed.append((step.time, 0, index, Piece(start: step.time, times: [step.time], values: [clamp(step.value)])))
        }
        for (index, curve) in pattern.curves.enumerated() where curve.id == id && curve.time.isFinite {
            let points = curve.controlPoints
                .filter { $0.time.isFinite && $0.value.isFinite }
                .enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map(\.element)
            guard !points.isEmpty else { continue }
            keyed.append(
                (
                    curve.time, 1, index,
                    Piece(
                        start: curve.time,
                        times: points.map { curve.time + $0.time },
                        values: points.map { clamp($0.value) })
                ))
        }
        keyed.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        pieces = keyed.map(\.3)
        starts = pieces.map(\.start)
    }

    /// True when no step or curve sets this control: the value is `neutral` everywhere.
    public var isConstant: Bool { pieces.isEmpty }

    public func value(at t: Double) -> Double {
        // Last piece with start <= t.
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? neutral : pieces[lo - 1].value(at: t)
    }

    /// Times where the value may jump or change slope: piece starts and control points.
    public var breakpoints: [Double] {
        var times: Set<Double> = []
        for piece in pieces {
            times.insert(piece.start)
            for t in piece.times where t >= piece.start { times.insert(t) }
        }
        return times.sorted()
    }
}
