import HapticProtocol

/// The Swift model's speed on a busy program, in ticks per second (docs/performance.md, "Swift
/// model"; `haptic bench` reports it too). Busy means every tick does the interpreter's full
/// work: both channels always ramping, up to four pulse voices overlapping, a new pulse every 5
/// ticks, nested loops jumping back every 40 ticks.
public enum InterpreterBenchmark {
    /// 40-tick iterations: RAMP_A up and down, RAMP_S across the whole iteration, a pulse every
    /// 5 ticks (10-20 ticks long, so 2-4 overlap, some above the envelope, some below);
    /// 255 * 255 iterations, 2,601,000 ticks.
    public static let program: Program = {
        var builder = ProgramBuilder()
        builder.loop(count: 255, at: 0)
        builder.loop(count: 255, at: 0)
        builder.rampA(to: 255, duration: 20, at: 0)
        builder.rampS(to: 220, duration: 40, at: 0)
        let pulses: [(amplitude: UInt8, sharpness: UInt8)] = [
            (90, 40), (150, 120), (60, 255), (200, 0),
            (40, 90), (120, 200), (70, 10), (100, 160),
        ]
        for (index, pulse) in pulses.enumerated() {
            let time = UInt32(index * 5)
            if index == 4 { builder.rampA(to: 20, duration: 20, at: time) }
            builder.pulse(amplitude: pulse.amplitude, sharpness: pulse.sharpness, at: time)
        }
        builder.endLoop(at: 40)
        builder.endLoop(at: 255 * 40)
        return builder.program(endingAt: builder.time)
    }()

    public struct Measurement: Sendable {
        public var ticks: Int
        public var seconds: Double
        /// Sum of every sample's bytes: keeps the work observable (and checkable).
        public var checksum: UInt64

        public var ticksPerSecond: Double { Double(ticks) / seconds }
    }

    /// Steps the interpreter `ticks` times over `program` (reloaded whenever it ends) and
    /// returns ticks per second.
    public static func run(ticks: Int) -> Double {
        measure(ticks: ticks).ticksPerSecond
    }

    /// `run(ticks:)` with the details.
    @inline(never)
    public static func measure(ticks: Int) -> Measurement {
        let bytes = program.bytes
        var interpreter = Interpreter()
        var checksum: UInt64 = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<ticks {
            if interpreter.mode != .playing { try? interpreter.load(bytes) }
            let sample = interpreter.step()
            checksum &+= UInt64(sample.amplitude) &+ UInt64(sample.sharpness) << 8 &+ UInt64(sample.flags) << 16
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Measurement(ticks: ticks, seconds: max(seconds, 1e-9), checksum: checksum)
    }
}
