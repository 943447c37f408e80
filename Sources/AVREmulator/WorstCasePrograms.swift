import HapticProtocol

/// The valid programs that give a device the most work in one tick under PROTOCOL.md 2.0
/// (1.6 (d), (e), 1.15: at most 9 instruction executions per tick), for measuring the firmware's
/// worst tick (`BoardBudget.worstCase`, `haptic profile --mcu`, CycleBudgetTests).
///
/// A tick's 9 executions come in three shapes, each generated so that it recurs every tick (or
/// as often as its stream can be fed), crossed with the costliest instruction mixes:
///
/// - **jump**: a loop of one-tick iterations: `tail` instructions and the ENDLOOP at the end of
///   the iteration, then the jump and the body's head of `8 - tail` instructions;
/// - **restart**: a program of one tick whose 8 instructions at tick 0 play again at every tick
///   (PLAY with `loops` 0): END, the reload of the slot, and the 8 again;
/// - **streamed**: a flat program streamed through the ring, with runs of 9 instructions whose
///   bytes are the most the encoding allows (4-byte varint durations), as densely as the line can
///   feed them.
///
/// Mixes: ramps with 4-byte durations (the 32-bit path), ramps that divide (durations of 2 to 31
/// and deltas of at least the duration), pulses evicting voices, and the compiler's own shape (a
/// SET and the RAMP from it on each channel, 4 pulses). Every program is valid (the tests check
/// it with the validator and count 9 executions at its busy ticks).
public enum WorstCasePrograms {
    public enum Mix: String, CaseIterable, Sendable {
        case longRamps = "long-ramps", dividingRamps = "dividing-ramps", pulses, compiled
    }

    public enum Shape: Sendable, Hashable {
        /// `tail` instructions before the ENDLOOP at each iteration's end (0...8), `8 - tail` in the head.
        case jump(tail: Int)
        /// Plays again every tick: PLAY with `loops` 0.
        case restart
    }

    public struct Case: Sendable {
        public var name: String
        public var program: [UInt8]
        /// PLAY's `loops`: 0 (until stopped) for the restart shape, else 1.
        public var loops: UInt16
        /// Ticks at which the program executes 9 instructions, within its first `busyPeriod`.
        public var busyPeriod: Int
    }

    /// The 8 instructions (besides the one loop or end instruction) of a busy tick, in order.
    /// `salt` varies values between ticks so that every ramp moves and every pulse evicts.
    static func instructions(_ mix: Mix, salt: Int) -> [Instruction] {
        (0..<8).map { i in
            let high = (i + salt) % 2 == 0
            let level: UInt8 = high ? 255 : UInt8(truncatingIfNeeded: 3 + salt)
            switch mix {
            case .longRamps:
                // Above 2^21 - 1: 4-byte varints, long-ramp state; the channel alternates.
                let duration = Instruction.maxDuration - UInt32(i * 7 + salt)
                return i % 2 == 0 ? .rampA(to: level, duration: duration) : .rampS(to: level, duration: duration)
            case .dividingRamps:
                let duration = UInt32(2 + (i * 5 + salt) % 30)
                return i % 2 == 0 ? .rampA(to: level, duration: duration) : .rampS(to: level, duration: duration)
            case .pulses:
                return .pulse(amplitude: UInt8(truncatingIfNeeded: 200 + i * 7 + salt), sharpness: UInt8(truncatingIfNeeded: i * 37 + salt))
            case .compiled:
                switch i {
                case 0: return .setA(level)
                case 1: return .rampA(to: 255 - level, duration: UInt32(2 + salt % 29))
                case 2: return .setS(level)
                case 3: return .rampS(to: 255 - level, duration: UInt32(3 + salt % 28))
                default: return .pulse(amplitude: UInt8(truncatingIfNeeded: 230 + i + salt), sharpness: UInt8(truncatingIfNeeded: i * 50 + salt))
                }
            }
        }
    }

    /// One program of `shape` and `mix`.
    public static func program(_ shape: Shape, _ mix: Mix) -> Case {
        var b = ProgramBuilder()
        switch shape {
        case .jump(let tail):
            precondition((0...8).contains(tail))
            let busy = instructions(mix, salt: 0)
            // One-tick iterations from tick 1: head at 1, tail and ENDLOOP at 2 (the next
            // iteration's 1). Tick 0 executes nothing, so that END (a tick after the loop) and a
            // restart's tick 0 stay within 9 (1.6 (e)).
            b.loop(count: 255, at: 1)
            for instruction in busy[tail...] { b.append(instruction, at: 1) }
            for instruction in busy[..<tail] { b.append(instruction, at: 2) }
            b.endLoop(at: 2)
            return Case(
                name: "jump-\(tail)+\(8 - tail)-\(mix.rawValue)", program: b.program(endingAt: 257).bytes,
                loops: 0, busyPeriod: 1)
        case .restart:
            for instruction in instructions(mix, salt: 0) { b.append(instruction, at: 0) }
            return Case(name: "restart-\(mix.rawValue)", program: b.program(endingAt: 1).bytes, loops: 0, busyPeriod: 1)
        }
    }

    /// Every slot program: the jump with its ENDLOOP after 0, 4 and 8 instructions, and the
    /// restart, each with every mix.
    public static let slotCases: [Case] = {
        var out: [Case] = []
        for mix in Mix.allCases {
            for shape in [Shape.jump(tail: 0), .jump(tail: 4), .jump(tail: 8), .restart] {
                out.append(program(shape, mix))
            }
        }
        return out
    }()

    /// A streamed program (no loops: 1.14) of `ticks` ticks: runs of 9 instructions at tick 1
    /// (what the ring holds at the start) and then every `spacing` ticks, 8 at tick 0 (so that
    /// END's rule (e) holds); with `longRamps` each instruction has 6 bytes, the most an
    /// instruction after the first of a run can have.
    public static func streamed(_ mix: Mix, spacing: Int, ticks: Int) -> Case {
        var b = ProgramBuilder()
        var tick = 0
        var salt = 0
        while tick < ticks {
            var run = instructions(mix, salt: salt)
            if tick > 0 { run.append(run[salt % 8]) }
            for instruction in run { b.append(instruction, at: UInt32(tick)) }
            salt += 1
            tick += tick == 0 ? 1 : spacing
        }
        return Case(
            name: "streamed-\(mix.rawValue)-every-\(spacing)", program: b.program(endingAt: UInt32(ticks + 1)).bytes,
            loops: 1, busyPeriod: spacing)
    }
}
