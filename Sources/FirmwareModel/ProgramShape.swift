import HapticProtocol

/// What a validation pass learns about a program's loops beyond rules 1-30
/// (firmware-protocol/PROTOCOL-3.md): rule (f) closed loops (3.1), the peak (3.1) and the seek
/// bound X (3.5). Fed every instruction the `InstructionChecker` accepted, in byte order, it keeps
/// fixed state as PROTOCOL-3.md 3.1 describes: for each open loop the relative ends of its last A
/// and S instructions and its largest pulse end, and for each open list the seek bound of its items
/// so far. Its verdicts and figures are the firmware's (hb_validate.c, which keeps the same ends as
/// pass times rather than relative ones: `Format3Tests` compares the two).
struct ProgramShape: Sendable {
    /// An open LOOP: its start, count, the ends rule (f) compares with its period (relative to the
    /// start; nil: the body has not touched the channel), and its body's X so far.
    private struct OpenLoop: Sendable {
        var start: UInt32
        var count: UInt8
        var endA: UInt32?
        var endS: UInt32?
        var endPulse: UInt32 = 0
        var bodyCost: UInt32 = 0
    }

    private var loops = FourSlots(filler: OpenLoop(start: 0, count: 0))
    /// X of the program's top-level items so far.
    private var cost: UInt32 = 0
    /// 3.1: the most instructions one program tick executes, restart included.
    private(set) var peak = 0
    /// Rule (f): false once a loop leaves a ramp or pulse running past its iteration's end.
    private(set) var isClosed = true

    /// The next instruction, which `checker` has just accepted; `before` is the checker's time
    /// before it.
    mutating func note(_ instruction: Instruction, checker: InstructionChecker, before: UInt32) {
        peak = max(peak, checker.run)
        switch instruction {
        case .loop(let count, _):
            loops.append(OpenLoop(start: checker.time, count: count))
        case .endLoop(let delay):
            close(endLoopTime: before + delay, headRun: checker.run + checker.endedHead)
        case .end:
            addCost(1)
            if checker.time != 0 { peak = max(peak, checker.run + checker.firstCount) }
        default:
            addCost(1)
            if !loops.isEmpty && isClosed { noteChannel(instruction, time: checker.time) }
        }
    }

    /// X (3.5): the most instructions a seek executes, saturated at 2^32 - 1.
    var seekBound: UInt32 { cost }

    private mutating func addCost(_ value: UInt32) {
        if loops.isEmpty {
            cost = Self.adding(cost, value)
        } else {
            var top = loops.last
            top.bodyCost = Self.adding(top.bodyCost, value)
            replaceLast(top)
        }
    }

    private mutating func noteChannel(_ instruction: Instruction, time: UInt32) {
        var top = loops.last
        let relative = time - top.start
        switch instruction {
        case .setA: top.endA = relative
        case .rampA(_, let duration, _): top.endA = Self.adding(relative, duration)
        case .setS: top.endS = relative
        case .rampS(_, let duration, _): top.endS = Self.adding(relative, duration)
        case .pulse(_, let sharpness, _):
            top.endPulse = max(top.endPulse, relative + UInt32(Instruction.pulseLength(sharpness: sharpness)))
        default: break
        }
        replaceLast(top)
    }

    /// The loop's ENDLOOP at `endLoopTime`: its X into the enclosing list, rule (f) against its
    /// period, and its ends moved to the enclosing loop at its last iteration's place.
    private mutating func close(endLoopTime: UInt32, headRun: Int) {
        let loop = loops.last
        loops.removeLast()
        if loop.count > 1 { peak = max(peak, headRun) }  // a jump's tick (count 1 never jumps)
        let period = endLoopTime - loop.start
        // X = 1 + min(count, s + 1) * (X(body) + 1), s = max(1, ceil(20 / period))
        let settle = Self.settle(period: period)
        let runs = min(UInt32(loop.count), settle + 1)
        var loopCost: UInt32 = 1
        for _ in 0..<runs { loopCost = Self.adding(loopCost, Self.adding(loop.bodyCost, 1)) }
        addCost(loopCost)
        guard isClosed else { return }
        for end in [loop.endA ?? 0, loop.endS ?? 0, loop.endPulse] where end > period {
            isClosed = false
            return
        }
        guard !loops.isEmpty else { return }
        var outer = loops.last
        let shift = loop.start - outer.start + UInt32(loop.count - 1) * period
        if let end = loop.endA { outer.endA = end + shift }
        if let end = loop.endS { outer.endS = end + shift }
        if loop.endPulse != 0 { outer.endPulse = max(outer.endPulse, loop.endPulse + shift) }
        replaceLast(outer)
    }

    /// 3.5: s = max(1, ceil(20 / P)), the iterations of a loop of period P > 0 after which every
    /// pulse started before them has ended (a pulse lasts at most 20 ticks): a seek skips the
    /// loop's later whole iterations.
    static func settle(period: UInt32) -> UInt32 {
        period >= 20 ? 1 : (20 + period - 1) / period
    }

    private mutating func replaceLast(_ loop: OpenLoop) {
        loops.removeLast()
        loops.append(loop)
    }

    private static func adding(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
