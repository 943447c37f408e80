/// Builds a program from absolute tick times: the builder turns them into the delays the format
/// stores (firmware-protocol/PROTOCOL.md 1.5) and computes the header on `program(endingAt:)`.
///
///     var builder = ProgramBuilder()
///     builder.rampA(to: 255, duration: 100, at: 0)
///     builder.pulse(amplitude: 255, sharpness: 200, at: 40)
///     builder.loop(count: 3, at: 100)
///     builder.setA(0, at: 100)
///     builder.pulse(amplitude: 180, sharpness: 0, at: 110)
///     builder.endLoop(at: 150)          // 50-tick iterations: the loop ends at 100 + 3 * 50
///     let program = builder.program(endingAt: 300)
///
/// Inside a loop, times are those of the first iteration. Times never go backwards. The builder
/// keeps time and loop structure (it traps on a time earlier than the last one, a gap longer than
/// `Instruction.maxDelay`, an ENDLOOP without LOOP, an empty iteration, a loop left open at the
/// end, or an expanded time past 2^32 - 1); everything a device decides (rate, body size, loop
/// depth, instructions per tick, SET_S without SHARP) is the validator's verdict.
public struct ProgramBuilder: Sendable {
    /// SHARP: the program has a sharpness channel.
    public let sharpness: Bool
    public let rate: UInt16
    public private(set) var instructions: [Instruction] = []
    /// Time of the last instruction appended (first iteration of open loops; after an ENDLOOP,
    /// the loop's expanded end). The next instruction may not be earlier.
    public private(set) var time: UInt32 = 0
    /// Body bytes so far.
    public private(set) var byteCount = 0
    private var loopStarts: [(time: UInt32, count: UInt8)] = []

    public init(sharpness: Bool = true, rate: UInt16 = ProgramHeader.defaultRate) {
        self.sharpness = sharpness
        self.rate = rate
    }

    /// Loops opened and not yet closed.
    public var loopDepth: Int { loopStarts.count }

    /// Appends `instruction` to execute at `tick`, replacing its delay with `tick - time`.
    public mutating func append(_ instruction: Instruction, at tick: UInt32) {
        precondition(tick >= time, "instruction at tick \(tick) before the previous one at \(time)")
        let delay = tick - time
        precondition(delay <= Instruction.maxDelay, "gap of \(delay) ticks exceeds \(Instruction.maxDelay)")
        let placed = instruction.withDelay(delay)
        instructions.append(placed)
        byteCount += placed.encodedCount
        time = tick
    }

    public mutating func setA(_ value: UInt8, at tick: UInt32) {
        append(.setA(value), at: tick)
    }

    public mutating func rampA(to value: UInt8, duration: UInt32, at tick: UInt32) {
        append(.rampA(to: value, duration: duration), at: tick)
    }

    public mutating func setS(_ value: UInt8, at tick: UInt32) {
        append(.setS(value), at: tick)
    }

    public mutating func rampS(to value: UInt8, duration: UInt32, at tick: UInt32) {
        append(.rampS(to: value, duration: duration), at: tick)
    }

    public mutating func pulse(amplitude: UInt8, sharpness: UInt8, at tick: UInt32) {
        append(.pulse(amplitude: amplitude, sharpness: sharpness), at: tick)
    }

    /// Opens a loop at `tick` whose body (the instructions until the matching `endLoop`) plays
    /// `count` times in total.
    public mutating func loop(count: UInt8, at tick: UInt32) {
        precondition(count >= 1, "a loop plays at least once")
        append(.loop(count: count), at: tick)
        loopStarts.append((tick, count))
    }

    /// Closes the innermost loop; `tick` is the end of its first iteration, at least one tick
    /// after the LOOP. Afterwards `time` is the loop's end: LOOP time + count * iteration.
    public mutating func endLoop(at tick: UInt32) {
        guard let start = loopStarts.popLast() else { preconditionFailure("endLoop without an open loop") }
        append(.endLoop(), at: tick)
        let period = UInt64(tick - start.time)
        precondition(period >= 1, "a loop iteration lasts at least one tick")
        let end = UInt64(start.time) + period * UInt64(start.count)
        precondition(end <= UInt64(UInt32.max), "loop ends past tick 2^32 - 1")
        time = UInt32(end)
    }

    /// The program with END at `tick` (its total ticks): the last sample is tick `tick - 1`.
    public func program(endingAt tick: UInt32) -> Program {
        precondition(loopStarts.isEmpty, "\(loopStarts.count) loop(s) left open")
        var builder = self
        builder.append(.end(), at: tick)
        return Program(instructions: builder.instructions, sharpness: sharpness, rate: rate)
    }
}
