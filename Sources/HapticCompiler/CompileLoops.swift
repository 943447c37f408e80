import HapticProtocol

/// Folds exactly repeating stretches of the instruction stream into LOOP/ENDLOOP
/// (docs/compiler.md, "Loops").
///
/// A stretch of m instructions repeats r times when every instruction of repetition q equals the
/// one of the first repetition (opcode and operands) and comes q * P ticks later. Played as a loop
/// with period P, every instruction executes at the same tick as in the flat stream, so the output
/// is identical tick for tick: folding is an encoding change only (and the fidelity check plays
/// the folded program anyway). The LOOP goes as early as allowed (not before the previous
/// instruction, and so that each iteration's ENDLOOP is not before its last body instruction),
/// which ends the loop early enough for the next instruction; when it still would not be, one
/// repetition is left out of the loop. A loop is kept only if it saves bytes, counted exactly
/// (delays and all), and only if every tick it touches executes at most `maxPerTick` instructions
/// (PROTOCOL.md 1.6 (d), (e)): its LOOP's tick, each jump's, its end's, and a looped play's
/// restart (END's tick and tick 0). One level, left to right, the best saving at each position.
///
/// Every loop is closed (PROTOCOL-3.md 3.1, rule (f)): each iteration finishes what it starts, so
/// the last ramp on each channel and every pulse of the body end by the iteration's end. Where
/// the earliest LOOP tick would leave one running across it, the loop boundary moves later (the
/// LOOP up to the body's first instruction); where that is not enough, the stretch is not folded
/// from there (a later start, one repetition left flat, may be).
enum LoopFolding {
    /// Longest loop body examined, in instructions.
    static let longestBody = 64
    static let maximumCount = 255

    struct Loop {
        var length: Int
        var count: Int
        var loopTick: Int
        var period: Int
        var saving: Int
    }

    /// What a loop may add to a tick (1.6 (d), (e)), from the instructions the flat stream has at
    /// each tick and the loops folded so far.
    struct TickBudget {
        var maxPerTick: Int
        var flatAt: [Int: Int]
        /// The tick the last folded loop ended at (its ENDLOOP's run goes on there).
        var closedAt = -1
        /// A loop starts at tick 0 (its LOOP is among tick 0's instructions, `first` of 1.6 (e)).
        var loopAtZero = false

        func flat(_ tick: Int) -> Int { flatAt[tick, default: 0] }

        /// Whether a loop from `loopTick`, of `period` and `count`, over body instructions
        /// `body` (their ticks), keeps every tick it touches within the bound.
        func allows(loopTick: Int, period: Int, count: Int, body: ArraySlice<TimedInstruction>, end: Int) -> Bool {
            let head = body.prefix { $0.tick == loopTick }.count
            let tail = body.reversed().prefix { $0.tick == loopTick + period }.count
            // The LOOP's run: the tick's other instructions, an ENDLOOP ending there, LOOP, head.
            guard flat(loopTick) + (closedAt == loopTick ? 1 : 0) + 1 <= maxPerTick else { return false }
            // Each jump: the iteration's last instructions, ENDLOOP, then the head again.
            guard tail + 1 + head <= maxPerTick else { return false }
            // Its end: the last iteration's tail, ENDLOOP, what follows at that tick.
            let close = loopTick + count * period
            guard flat(close) + 1 <= maxPerTick else { return false }
            // A restart at END (T > 0): END's run and tick 0's instructions.
            let first = flat(0) + (loopAtZero || loopTick == 0 ? 1 : 0)
            let endRun = close == end ? 2 : 1
            return endRun + first <= maxPerTick
        }
    }

    /// The body with loops, or nil if no loop saves anything.
    static func fold(_ timed: [TimedInstruction], end: Int, maxPerTick: Int = Int.max) -> [Instruction]? {
        var out: [Instruction] = []
        var time = 0
        var i = 0
        var folded = false
        var budget = TickBudget(maxPerTick: maxPerTick, flatAt: Dictionary(timed.map { ($0.tick, 1) }, uniquingKeysWith: +))
        while i < timed.count {
            guard let loop = bestLoop(timed, at: i, previous: time, end: end, budget: budget) else {
                out.append(timed[i].instruction.withDelay(UInt32(timed[i].tick - time)))
                time = timed[i].tick
                i += 1
                continue
            }
            folded = true
            out.append(.loop(count: UInt8(loop.count), delay: UInt32(loop.loopTick - time)))
            var last = loop.loopTick
            for item in timed[i..<i + loop.length] {
                out.append(item.instruction.withDelay(UInt32(item.tick - last)))
                last = item.tick
            }
            out.append(.endLoop(delay: UInt32(loop.loopTick + loop.period - last)))
            time = loop.loopTick + loop.count * loop.period
            i += loop.length * loop.count
            budget.closedAt = time
            if loop.loopTick == 0 { budget.loopAtZero = true }
        }
        out.append(.end(delay: UInt32(end - time)))
        return folded ? out : nil
    }

    /// The loop starting at instruction `i` that saves the most bytes, if any.
    static func bestLoop(_ timed: [TimedInstruction], at i: Int, previous: Int, end: Int, budget: TickBudget) -> Loop? {
        var best: Loop?
        let n = timed.count
        var m = 1
        while m <= longestBody && i + 2 * m <= n {
            defer { m += 1 }
            let period = timed[i + m].tick - timed[i].tick
            guard period >= 1 else { continue }
            var count = 1
            repetitions: while count < maximumCount && i + (count + 1) * m <= n {
                let base = i + count * m
                for j in 0..<m {
                    let a = timed[i + j], b = timed[base + j]
                    guard b.instruction == a.instruction, b.tick - a.tick == count * period else { break repetitions }
                }
                count += 1
            }
            guard count >= 2 else { continue }
            // Earliest LOOP tick: after the previous instruction, and each ENDLOOP at or after
            // its iteration's last body instruction.
            // Rule (f): late enough that the body's last ramps and its pulses end by the
            // iteration's end, and no later than the body's first instruction.
            let loopTick = max(previous, timed[i + m - 1].tick - period, closingEnd(timed[i..<i + m]) - period)
            guard loopTick <= timed[i].tick else { continue }
            // The next instruction (or END) may not come before the loop's end.
            let nextTick = { (r: Int) in i + r * m < n ? timed[i + r * m].tick : end }
            while count >= 2 && nextTick(count) < loopTick + count * period { count -= 1 }
            // Within 1.15's bound at every tick it touches (one repetition fewer may end it at a
            // quieter tick than T).
            while count >= 2
                && !budget.allows(
                    loopTick: loopTick, period: period, count: count,
                    body: timed[i..<i + m], end: end)
            { count -= 1 }
            guard count >= 2 else { continue }
            let saving =
                flatCost(timed, from: i, count: count * m, previous: previous, end: end)
                - loopCost(timed, from: i, length: m, count: count, previous: previous, loopTick: loopTick, period: period, end: end)
            if saving > 0 && saving > (best?.saving ?? 0) {
                best = Loop(length: m, count: count, loopTick: loopTick, period: period, saving: saving)
            }
        }
        return best
    }

    /// The tick by which an iteration of `body` must end for rule (f): the end of the last
    /// amplitude and sharpness instruction (a SET's tick, a RAMP's tick + duration) and of every
    /// pulse (tick + its length).
    static func closingEnd(_ body: ArraySlice<TimedInstruction>) -> Int {
        var lastA = 0, lastS = 0, pulses = 0
        for item in body {
            switch item.instruction {
            case .setA: lastA = item.tick
            case .rampA(_, let duration, _): lastA = item.tick + Int(duration)
            case .setS: lastS = item.tick
            case .rampS(_, let duration, _): lastS = item.tick + Int(duration)
            case .pulse(_, let sharpness, _): pulses = max(pulses, item.tick + Int(Instruction.pulseLength(sharpness: sharpness)))
            default: break
            }
        }
        return max(lastA, lastS, pulses)
    }

    /// Bytes of instructions i..<i+length laid out flat, plus the delay bytes of the one after.
    private static func flatCost(
        _ timed: [TimedInstruction], from i: Int, count length: Int,
        previous: Int, end: Int
    ) -> Int {
        var bytes = 0
        var last = previous
        for item in timed[i..<i + length] {
            bytes += item.instruction.withDelay(UInt32(item.tick - last)).encodedCount
            last = item.tick
        }
        return bytes + followingCost(timed, index: i + length, after: last, end: end)
    }

    /// Bytes of the loop (LOOP, one body, ENDLOOP), plus the delay bytes of the instruction after.
    private static func loopCost(
        _ timed: [TimedInstruction], from i: Int, length: Int, count: Int,
        previous: Int, loopTick: Int, period: Int, end: Int
    ) -> Int {
        var bytes = Instruction.loop(count: UInt8(count), delay: UInt32(loopTick - previous)).encodedCount
        var last = loopTick
        for item in timed[i..<i + length] {
            bytes += item.instruction.withDelay(UInt32(item.tick - last)).encodedCount
            last = item.tick
        }
        bytes += Instruction.endLoop(delay: UInt32(loopTick + period - last)).encodedCount
        return bytes + followingCost(timed, index: i + length * count, after: loopTick + count * period, end: end)
    }

    /// Extra delay bytes of the instruction at `index` (END if past the end) when it follows tick `after`.
    private static func followingCost(_ timed: [TimedInstruction], index: Int, after: Int, end: Int) -> Int {
        let tick = index < timed.count ? timed[index].tick : end
        return Instruction.end(delay: UInt32(tick - after)).encodedCount - 1
    }
}
