import FirmwareModel
import HapticProtocol
import Testing

/// The interpreter's arithmetic against the formulas of PROTOCOL.md, and its API.
struct InterpreterTests {
    static func play(
        _ program: Program, ticks: Int, configuration: DeviceConfiguration = .default,
        before: (Int, inout Interpreter) -> Void = { _, _ in }
    ) throws -> [OutputSample] {
        var model = Interpreter(configuration: configuration)
        try model.load(program)
        return (0..<ticks).map { tick in
            before(tick, &model)
            return model.step()
        }
    }

    /// 1.9: every tick of a ramp equals v0 + sgn * floor((|dv| * k + floor(D / 2)) / D).
    @Test func rampsFollowTheClosedForm() throws {
        let levels: [UInt8] = [0, 1, 3, 100, 127, 128, 200, 254, 255]
        for v0 in levels {
            for v1 in levels {
                for duration in [0, 1, 2, 3, 7, 10, 64, 254, 255, 256, 257, 1000] as [UInt32] {
                    let program = Program(instructions: [
                        .setA(v0, delay: 1), .rampA(to: v1, duration: duration),
                        .end(delay: duration + 3),
                    ])
                    let samples = try Self.play(program, ticks: Int(duration) + 4)
                    let dv = Int(v1) - Int(v0)
                    for k in 0...Int(duration) + 2 {
                        let exact =
                            k >= Int(duration)
                            ? Int(v1)
                            : Int(v0) + dv.signum() * ((abs(dv) * k + Int(duration) / 2) / Int(duration))
                        guard Int(samples[k + 1].amplitude) == exact else {
                            Issue.record("ramp \(v0) -> \(v1) over \(duration): k \(k) gives \(samples[k + 1].amplitude), expected \(exact)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// 1.11: out = (amp * m' + 128) >> 8 with m' = m + (m >> 7), for every amp and m.
    @Test func masterScaleForEveryCode() throws {
        var builder = ProgramBuilder(sharpness: false)
        for amp in 0...255 { builder.setA(UInt8(amp), at: UInt32(amp)) }
        let program = builder.program(endingAt: 256)
        var configuration = DeviceConfiguration()
        configuration.safetyTicks = .max
        for m in 0...255 {
            let samples = try Self.play(program, ticks: 256, configuration: configuration) { tick, model in
                if tick == 0 { model.setMasterScale(UInt8(m)) }
            }
            let scale = m + (m >> 7)
            #expect(samples.map { Int($0.amplitude) } == (0...255).map { ($0 * scale + 128) >> 8 }, "m \(m)")
        }
    }

    /// 1.10: a 5th overlapping pulse replaces the oldest, not the shortest.
    @Test func fifthPulseEvictsTheOldest() throws {
        let program = Program(instructions: [
            .pulse(amplitude: 250, sharpness: 255),  // 10 ticks, oldest
            .pulse(amplitude: 10, sharpness: 0, delay: 1), .pulse(amplitude: 20, sharpness: 0),
            .pulse(amplitude: 30, sharpness: 0), .pulse(amplitude: 40, sharpness: 128, delay: 1), .end(delay: 30),
        ])
        let samples = try Self.play(program, ticks: 24)
        #expect(samples[0] == OutputSample(amplitude: 250, sharpness: 255))
        #expect(samples[1] == OutputSample(amplitude: 250, sharpness: 255))
        // Tick 2: the 250 pulse is gone; the loudest is the new 40 (sharpness 128, 15 ticks: 2...16).
        #expect(samples[2] == OutputSample(amplitude: 40, sharpness: 128))
        #expect(samples[16] == OutputSample(amplitude: 40, sharpness: 128))
        #expect(samples[17] == OutputSample(amplitude: 30, sharpness: 0))  // 20-tick pulses from tick 1: 1...20
        #expect(samples[20] == OutputSample(amplitude: 30, sharpness: 0))
        #expect(samples[21] == .silent)
    }

    /// 1.13: stop mid-pulse with a brake of 3 ticks, then idle; without brake, idle at once.
    @Test func stopMidPulse() throws {
        let program = Program(instructions: [.pulse(amplitude: 200, sharpness: 0, delay: 2), .end(delay: 30)])
        let configuration = DeviceConfiguration(brakeTicks: 3)
        let braked = try Self.play(program, ticks: 10, configuration: configuration) { tick, model in
            if tick == 5 { model.stop(brake: true) }
        }
        let brake = OutputSample(amplitude: 0, sharpness: 0, flags: OutputSample.brakeFlag)
        #expect(
            braked == [.silent, .silent] + Array(repeating: OutputSample(amplitude: 200, sharpness: 0), count: 3)
                + [brake, brake, brake] + [.silent, .silent])
        var model = Interpreter(configuration: configuration)
        try model.load(program)
        for _ in 0..<5 { _ = model.step() }
        model.stop(brake: false)
        #expect(model.step() == .silent)
        #expect(model.status == Interpreter.Status(mode: .idle, error: nil, tick: 5))
    }

    /// A value type: a copy plays on independently.
    @Test func copiesAreIndependent() throws {
        var original = Interpreter()
        try original.load(Program(instructions: [.rampA(to: 100, duration: 10), .end(delay: 20)]))
        for _ in 0..<3 { _ = original.step() }
        var copy = original
        copy.setMasterScale(0)
        #expect(copy.step().amplitude == 0)
        #expect(original.step().amplitude == 30)
        #expect(copy.tick == 4 && original.tick == 4)
    }

    /// Streaming through the interpreter's writer side: the ring fills, the reader releases what
    /// it fetched, a byte not there in time is an underrun (1.14).
    @Test func streamedProgramThroughARing() throws {
        let program = Program(instructions: [.setA(100), .setA(50, delay: 2), .setA(0, delay: 2), .end(delay: 1)])
        var model = Interpreter(configuration: DeviceConfiguration(brakeTicks: 2))
        try model.loadStream(header: program.header.bytes, ring: try #require(ByteSource.ring(capacity: 4)))
        #expect(model.feedSpace == 4)
        #expect(model.feed(program.body) == 4)  // SET_A 100, SET_A 50
        #expect(model.step() == OutputSample(amplitude: 100, sharpness: 0))
        #expect(model.feedSpace == 4)  // both instructions fetched, so released
        #expect(model.step() == OutputSample(amplitude: 100, sharpness: 0))
        // Tick 2 executes SET_A 50 and fetches SET_A 0, which is not written: underrun.
        #expect(model.step().isBraking)
        #expect(model.status.error == .underrun)
    }

    @Test func byteSources() throws {
        #expect(ByteSource.ring(capacity: 6) == nil)
        #expect(ByteSource.ring(capacity: 0) == nil)
        var ring = try #require(ByteSource.ring(capacity: 4))
        #expect(ring.write([1, 2, 3, 4, 5]) == 4)
        #expect(ring.byte(at: 3) == 4 && ring.byte(at: 4) == nil)
        ring.release(upTo: 2)
        #expect(ring.write([5, 6, 7]) == 2)
        #expect(ring.byte(at: 4) == 5 && ring.byte(at: 5) == 6 && ring.written == 6)
        let flat = ByteSource.flat(bytes: [9, 9, 7, 8], bodyStart: 2)
        #expect(flat.byte(at: 0) == 7 && flat.byte(at: 1) == 8 && flat.byte(at: 2) == nil && flat.space == 0)
    }

    /// Invalid programs brake; the error stays through stops and until the next load.
    @Test func rejectedLoadBrakesAndKeepsTheError() throws {
        var model = Interpreter(configuration: DeviceConfiguration(brakeTicks: 2))
        #expect(throws: ProgramError.badMagic) { try model.load([0x00, 0x50] + Array(repeating: 0, count: 14)) }
        #expect(model.status == Interpreter.Status(mode: .braking, error: .badMagic, tick: 0))
        #expect(model.step().isBraking && model.step().isBraking && model.step() == .silent)
        model.stop(brake: false)
        #expect(model.status.error == .badMagic)
        try model.load(Program(instructions: [.end()]))
        #expect(model.status.error == nil)
    }
}
