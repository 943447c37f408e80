/// Fits one channel's band with few SET/RAMP instructions (docs/compiler.md, "Segment fitting").
///
/// The channel's path is a chain of anchors (tick, value); between two anchors the channel plays
/// one exact ramp (a RAMP, 3 bytes), holds (no instruction: a ramp's end value holds), or steps
/// one tick later (a SET, 2 bytes). From the current anchor the fitter sweeps the exact cone of
/// feasible ramps (`SegmentCone`), takes the last few feasible durations as candidate ends, and
/// keeps the end from which the *next* ramp reaches furthest (one step of look-ahead): greedy
/// longest-segment with an exact feasibility test, so the work is near-linear in the ticks.
/// Ties go to the cheaper instruction, the longer segment, then the value nearest the target.
/// The result is deterministic: integer arithmetic and a total order on the choices.
enum SegmentFit {
    /// Candidate end durations examined per segment (the last feasible ones).
    static let lookahead = 6
    /// End values examined per candidate duration when the band leaves a wide choice.
    static let sampledValues = 5

    /// Instructions (sorted by tick) whose played values stay inside `band` at every tick.
    static func fit(_ band: ChannelBand) -> [ChannelCommand] {
        let n = band.count
        guard n > 0 else { return [] }
        var commands: [ChannelCommand] = []
        var t = 0, v = 0
        if !band.contains(0, at: 0) {
            // The channel starts at 0; a SET at tick 0 puts it where the band wants it.
            v = bestStart(band)
            commands.append(ChannelCommand(tick: 0, value: UInt8(v), duration: 0))
        }
        var tail: [SegmentCone.Feasible] = []
        tail.reserveCapacity(lookahead)
        var values: [Int] = []
        while t < n - 1 {
            _ = SegmentCone.sweep(band, from: t, value: v, keep: lookahead, tail: &tail)
            // D = 1 is always feasible (no inner tick; the end band is not empty).
            var best: Choice?
            for entry in tail {
                let end = t + entry.duration
                candidates(low: entry.low, high: entry.high, preferred: Int(band.target[end]) - v, into: &values)
                for dv in values {
                    let score = end >= n - 1 ? Int.max : end + SegmentCone.reach(band, from: end, value: v + dv)
                    let choice = Choice(
                        score: score, cost: dv == 0 ? 0 : (entry.duration == 1 ? 2 : 3),
                        duration: entry.duration, miss: abs(v + dv - Int(band.target[end])), delta: dv)
                    if best.map({ choice.isBetter(than: $0) }) ?? true { best = choice }
                }
            }
            let choice = best!
            let value = v + choice.delta
            if choice.delta != 0 {
                if choice.duration == 1 {
                    commands.append(ChannelCommand(tick: t + 1, value: UInt8(value), duration: 0))
                } else {
                    commands.append(ChannelCommand(tick: t, value: UInt8(value), duration: choice.duration))
                }
            }
            t += choice.duration
            v = value
        }
        return commands
    }

    /// One candidate end: ordered by reach after the next segment, then bytes, then length,
    /// then distance from the target, then the delta itself (a total order: determinism).
    private struct Choice {
        var score: Int
        var cost: Int
        var duration: Int
        var miss: Int
        var delta: Int

        func isBetter(than other: Choice) -> Bool {
            if score != other.score { return score > other.score }
            if cost != other.cost { return cost < other.cost }
            if duration != other.duration { return duration > other.duration }
            if miss != other.miss { return miss < other.miss }
            return delta < other.delta
        }
    }

    /// End deltas worth trying in `low...high`: all of them when few, otherwise the ends, the
    /// preferred one (clamped), a hold (0, free) and the middle.
    private static func candidates(low: Int, high: Int, preferred: Int, into values: inout [Int]) {
        values.removeAll(keepingCapacity: true)
        if high - low < sampledValues {
            values.append(contentsOf: low...high)
            return
        }
        for dv in [low, high, min(max(preferred, low), high), (low + high) / 2] where !values.contains(dv) {
            values.append(dv)
        }
        if low <= 0 && 0 <= high && !values.contains(0) { values.append(0) }
    }

    /// The first value when tick 0's band excludes 0: the one the first ramp reaches furthest from.
    private static func bestStart(_ band: ChannelBand) -> Int {
        var values: [Int] = []
        let low = Int(band.lower[0]), high = Int(band.upper[0]), target = Int(band.target[0])
        candidates(low: low, high: high, preferred: target, into: &values)
        var best = (reach: -1, miss: Int.max, value: low)
        for u in values {
            let reach = SegmentCone.reach(band, from: 0, value: u)
            let miss = abs(u - target)
            if reach > best.reach || (reach == best.reach && (miss, u) < (best.miss, best.value)) {
                best = (reach, miss, u)
            }
        }
        return best.value
    }

    /// The value a ramp of `delta` over `duration` ticks shows `step` ticks after it starts at
    /// `from` (PROTOCOL.md 1.9, closed form; 0 <= step <= duration).
    @inline(__always)
    static func rampValue(from: Int, delta: Int, duration: Int, step: Int) -> Int {
        let q = (abs(delta) * step + duration / 2) / duration
        return delta >= 0 ? from + q : from - q
    }
}
