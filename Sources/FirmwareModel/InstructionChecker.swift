import HapticProtocol

/// The program rules that need context (firmware-protocol/PROTOCOL.md 1.6 (b), (c), (d) and the
/// END rules): loops, times, runs of instructions at one time. Fed every instruction in byte
/// order, it keeps O(1) state and never expands a loop. The validator runs it over a whole body;
/// a streamed program runs it on each fetch (1.14), so both apply the same rules.
struct InstructionChecker: Sendable {
    /// 1.6: at most 4 nested loops.
    static let maxLoopDepth = 4
    /// 1.6 (d): at most 16 instructions in a row at one time.
    static let maxRun = 16

    private let totalTicks: UInt32
    private let bodyLength: UInt32
    private let hasSharpness: Bool
    private let streamed: Bool
    /// An open LOOP: its time and count.
    private struct OpenLoop: Sendable {
        var start: UInt32
        var count: UInt8
    }

    private var loops = FourSlots(filler: OpenLoop(start: 0, count: 0))
    /// The current instruction's time, in the first iteration of every open loop (1.6 (c)).
    private var time: UInt32 = 0
    private var run = 0

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

        // (c) the instruction's time; no instruction of a valid program is later than its END.
        let delay = instruction.delay
        guard delay <= UInt32.max - time else { throw .ticksOverflow }
        time += delay
        guard time <= totalTicks else { throw .ticksMismatch }
        if opcode == .endLoop {
            // The loop occupies `count` iterations of `period` ticks after its LOOP's time (1.5).
            let loop = loops.last
            loops.removeLast()
            let period = time - loop.start
            guard period > 0 else { throw .loopEmpty }
            guard period <= (UInt32.max - loop.start) / UInt32(loop.count) else { throw .ticksOverflow }
            time = loop.start + period * UInt32(loop.count)
            guard time <= totalTicks else { throw .ticksMismatch }
        }

        // (d) instructions in a row at the same time, this one included.
        run = delay == 0 ? run + 1 : 1
        guard run <= Self.maxRun else { throw .runTooLong }

        if opcode == .end {
            guard loops.isEmpty else { throw .loopUnterminated }
            guard endOffset == bodyLength else { throw .endNotLast }
            guard time == totalTicks else { throw .ticksMismatch }
        }
        if case .loop(let count, _) = instruction {
            loops.append(OpenLoop(start: time, count: count))
        }
    }
}
