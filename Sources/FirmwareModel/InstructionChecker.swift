import HapticProtocol

/// The program rules that need context (firmware-protocol/PROTOCOL.md 1.6 (b)-(e) and the END
/// rules): loops, times, the instructions one tick executes. Fed every instruction in byte
/// order, it keeps O(1) state and never expands a loop. The validator runs it over a whole body;
/// a streamed program runs it on each fetch (1.14), so both apply the same rules.
struct InstructionChecker: Sendable {
    /// 1.6: at most 4 nested loops.
    static let maxLoopDepth = 4
    /// 1.6 (d), (e): at most 9 instructions execute at one tick (a run, or a run and the head a
    /// jump or a looped play's restart leads to).
    static let maxRun = 9

    private let totalTicks: UInt32
    private let bodyLength: UInt32
    private let hasSharpness: Bool
    private let streamed: Bool
    /// A head of 1.6 (e) (a LOOP's, or the program's `first`): counting until an instruction with
    /// a nonzero delay ends it (then `count`), or still open since `run` was `openedAt`.
    private enum Head: Sendable {
        case open(openedAt: Int)
        case closed(count: Int)

        /// Ends the head at an instruction with a nonzero delay, `run` being the run before it.
        func closing(run: Int) -> Head {
            if case .open(let openedAt) = self { return .closed(count: run - openedAt) }
            return self
        }

        var count: Int {
            if case .closed(let count) = self { return count }
            return 0  // not reached: a head is closed wherever 1.6 (e) reads it
        }
    }

    /// An open LOOP: its time, count and head.
    private struct OpenLoop: Sendable {
        var start: UInt32
        var count: UInt8
        var head: Head
    }

    private var loops = FourSlots(filler: OpenLoop(start: 0, count: 0, head: .closed(count: 0)))
    /// The current instruction's time, in the first iteration of every open loop (1.6 (c)); after
    /// an ENDLOOP, the time after the loop's last iteration.
    private(set) var time: UInt32 = 0
    /// 1.6 (d): the instructions in a row at this time, the last one checked included.
    private(set) var run = 0
    /// The instructions tick 0 executes (1.6 (e)).
    private var first = Head.open(openedAt: 0)
    /// After an ENDLOOP: the head of the loop it closed (1.6 (e)), which its jump leads to.
    private(set) var endedHead = 0

    /// The instructions tick 0 executes, once an instruction with a nonzero delay has ended them.
    var firstCount: Int { first.count }

    init(header: ProgramHeader, streamed: Bool) {
        totalTicks = header.totalTicks
        bodyLength = header.bodyLength
        hasSharpness = header.hasSharpness
        self.streamed = streamed
    }

    /// Checks the next instruction; `endOffset` is the body offset just past it. Returns normally
    /// if it is acceptable (for END: the program is complete and consistent, CRC aside).
    mutating func check(_ instruction: Instruction, endOffset: UInt32) throws(ProgramError) {
        let opcode = instruction.opcode
        // (b) instruction rules, in this order.
        if (opcode == .setS || opcode == .rampS) && !hasSharpness { throw .noSharpChannel }
        if streamed && (opcode == .loop || opcode == .endLoop) { throw .loopInStream }
        if case .loop(let count, _) = instruction {
            if count == 0 { throw .loopCountZero }
            if loops.isFull { throw .loopTooDeep }
        }
        if opcode == .endLoop && loops.isEmpty { throw .endLoopWithoutLoop }

        // (e) an instruction with a nonzero delay closes the open heads.
        let delay = instruction.delay
        if delay != 0 {
            first = first.closing(run: run)
            for index in 0..<loops.count { loops[index].head = loops[index].head.closing(run: run) }
        }

        // (c) the instruction's time; no instruction of a valid program is later than its END.
        guard delay <= UInt32.max - time else { throw .ticksOverflow }
        time += delay
        guard time <= totalTicks else { throw .ticksMismatch }
        var ended: OpenLoop?
        if opcode == .endLoop {
            // The loop occupies `count` iterations of `period` ticks after its LOOP's time (1.5).
            let loop = loops.last
            loops.removeLast()
            ended = loop
            let period = time - loop.start
            guard period > 0 else { throw .loopEmpty }
            guard period <= (UInt32.max - loop.start) / UInt32(loop.count) else { throw .ticksOverflow }
            time = loop.start + period * UInt32(loop.count)
            guard time <= totalTicks else { throw .ticksMismatch }
        }

        // (d) instructions in a row at the same time, this one included.
        run = delay == 0 ? run + 1 : 1
        guard run <= Self.maxRun else { throw .runTooLong }
        // (e) a jump's tick: this run, then the loop's head.
        if let ended {
            endedHead = ended.head.count
            guard run + endedHead <= Self.maxRun else { throw .runTooLong }
        }

        if opcode == .end {
            guard loops.isEmpty else { throw .loopUnterminated }
            guard endOffset == bodyLength else { throw .endNotLast }
            guard time == totalTicks else { throw .ticksMismatch }
            // (e) a looped play's restart: this run, then tick 0's.
            guard time == 0 || run + first.count <= Self.maxRun else { throw .runTooLong }
        }
        if case .loop(let count, _) = instruction {
            loops.append(OpenLoop(start: time, count: count, head: .open(openedAt: run)))
        }
    }
}
