import FirmwareModel
import HapticCompiler
import HapticPattern
import HapticProtocol
import TestSupport
import Testing

/// Compiling for a device (docs/compiler.md, "Compiling for a device"): every program the
/// compiler emits for a device plays there to FINISHED, from a slot or streamed, exactly as the
/// compiler's fidelity check played it.
@Suite struct CompileForDeviceTests {
    struct Target: Sendable, CustomStringConvertible {
        var name: String
        var configuration: DeviceModel.Configuration
        var baudRate: Int
        var description: String { name }

        var capabilities: DeviceCapabilities {
            DeviceCapabilities(info: configuration.info(watchdog: configuration.watchdog), baudRate: baudRate)
        }
        var bytesPerTick: Double { Double(baudRate) / 10 / Double(configuration.core.rate) }
    }

    /// The default virtual device, the ATmega328P board's sizes, and a small slot and ring on a
    /// slow line.
    static let targets: [Target] = [
        Target(name: "virtual device", configuration: .default, baudRate: 500_000),
        Target(
            name: "ATmega328P",
            configuration: .init(
                core: DeviceConfiguration(maxBody: 240), slotCount: 2, slotCapacity: 256,
                streamCapacity: 128, rxBuffer: 128), baudRate: 500_000),
        Target(
            name: "small slot and ring",
            configuration: .init(
                core: DeviceConfiguration(maxBody: 48), slotCount: 1,
                slotCapacity: 64, streamCapacity: 32, rxBuffer: 64),
            baudRate: 115_200),
    ]

    static let profile = ActuatorProfile.builtIns.first { $0.name == "lra-170hz-10mm" }!

    /// Plays `compiled` on `target`'s model through the modelled line; the samples must be the
    /// interpreter's for the program (what the fidelity check compared with the reference).
    static func expectPlays(_ compiled: CompiledProgram, on target: Target, _ label: String) {
        var host = ModelDeviceHost(configuration: target.configuration, bytesPerTick: target.bytesPerTick)
        let ticks = Int(compiled.program.header.totalTicks)
        let outcome = host.play(compiled.program, limitTicks: ticks + 5_000)
        #expect(outcome.finished && outcome.fault == nil, "\(label): \(outcome.telemetry)")
        #expect(outcome.streamed == (compiled.report.placement == .stream), "\(label)")
        var core = target.configuration.core
        core.maxBody = max(core.maxBody, UInt32(compiled.program.body.count))  // a stream's is not bounded
        var interpreter = Interpreter(configuration: core)
        guard (try? interpreter.load(compiled.program)) != nil else {
            Issue.record("\(label): does not load")
            return
        }
        let expected = (0..<(ticks + Int(target.configuration.core.brakeTicks))).map { _ in interpreter.step() }
        let first = zip(outcome.samples, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            outcome.samples.count == expected.count && first == nil,
            "\(label): \(outcome.samples.count) of \(expected.count) samples, first difference at \(first.map(String.init) ?? "-")")
    }

    @Test(arguments: targets)
    func generatedPatternsPlayToTheEndOnEveryDevice(_ target: Target) throws {
        var placements: [ProgramPlacement: Int] = [:]
        var refused: [String] = []
        for item in GeneratedPatterns.cases(seed: 0xD3_71CE, perKind: 3) {
            let result = Result { () throws(CompileError) -> CompiledProgram in
                try PatternCompiler.compile(item.pattern, profile: Self.profile, options: CompileOptions(device: target.capabilities))
            }
            let compiled: CompiledProgram
            switch result {
            case .success(let program):
                compiled = program
            case .failure(.doesNotFit(let reason)):
                refused.append("\(item.name): \(reason)")
                continue
            case .failure(let error):
                Issue.record("\(item.name): \(error)")
                continue
            }
            placements[compiled.report.placement, default: 0] += 1
            #expect(compiled.report.fidelity.withinTolerance, "\(item.name)")
            if compiled.report.placement == .stream {
                // what a stream may hold (1.14): no loops
                let ops = try compiled.program.decodedInstructions().map(\.instruction.opcode)
                #expect(!ops.contains(.loop) && !ops.contains(.endLoop), "\(item.name)")
            }
            Self.expectPlays(compiled, on: target, "\(target.name), \(item.name)")
        }
        print(
            "compile for \(target.name): \(placements[.slot, default: 0]) from a slot, \(placements[.stream, default: 0]) streamed, \(refused.count) refused\(refused.isEmpty ? "" : ": " + refused.joined(separator: "; "))"
        )
        // Every shape reaches every device but the smallest on its slow line.
        #expect(placements[.slot, default: 0] > 0)
        if target.name != "small slot and ring" {
            #expect(refused.isEmpty)
            #expect(placements[.stream, default: 0] > 0)
        }
    }

    /// Taps `period` apart for `seconds`, three strengths in turn: with a period no whole number of
    /// ticks the repeats fall on uneven ticks and fold into many loops.
    static func taps(every period: Double, for seconds: Double) -> HapticPattern {
        HapticPattern(
            events: (0..<Int(seconds / period)).map { i in
                .transient(at: Double(i) * period, intensity: [0.9, 0.5, 0.7][i % 3], sharpness: 0.5)
            })
    }

    /// The issue's failure: a program with loops larger than the device's slots went to the stream
    /// and faulted with 23 (LOOP_IN_STREAM) partway through. Compiled for the device it plays.
    @Test func loopingProgramsLargerThanASlotPlayWhenCompiledForTheDevice() throws {
        let cases: [(Target, HapticPattern, String)] = [
            (Self.targets[1], Self.taps(every: 0.0191, for: 2.9), "150 taps over 3 s"),
            (Self.targets[0], Self.taps(every: 0.0191, for: 30), "30 s of repeated notes"),
        ]
        for (target, pattern, label) in cases {
            let unplaced = try PatternCompiler.compile(pattern, profile: Self.profile)
            #expect(
                unplaced.report.instructions.loop > 0 && unplaced.bytes.count > Int(target.configuration.slotCapacity),
                "\(label): \(unplaced.bytes.count) bytes")
            var host = ModelDeviceHost(configuration: target.configuration, bytesPerTick: target.bytesPerTick)
            let before = host.play(unplaced.program, limitTicks: unplaced.report.totalTicks + 1_000)
            #expect(before.streamed && before.fault == ProgramError.loopInStream.rawValue, "\(label): \(before.telemetry)")

            let compiled = try PatternCompiler.compile(pattern, profile: Self.profile, options: CompileOptions(device: target.capabilities))
            #expect(compiled.report.placement == .stream && compiled.report.instructions.loop == 0)
            print(
                "\(label) on the \(target.name): \(unplaced.bytes.count) bytes with \(unplaced.report.instructions.loop) loops (faulted 23 streamed), \(compiled.bytes.count) bytes loop-free, streamed"
            )
            Self.expectPlays(compiled, on: target, label)
        }
    }

    /// A stream the line cannot feed is refused, not emitted: the same program streamed anyway
    /// underruns (fault 48) on that line.
    @Test func aStreamTheLineCannotFeedIsRefused() throws {
        var target = Self.targets[2]
        target.baudRate = 38_400
        var rng = SeededGenerator(seed: 3)
        let pattern = GeneratedPatterns.pattern(.denseCurves, &rng)
        let result = Result { () throws(CompileError) -> CompiledProgram in
            try PatternCompiler.compile(pattern, profile: Self.profile, options: CompileOptions(device: target.capabilities))
        }
        guard case .failure(.doesNotFit(let reason)) = result else {
            Issue.record("compiled: \(result)")
            return
        }
        #expect(reason.contains("streamed"))
        let anyway = try PatternCompiler.compile(pattern, profile: Self.profile)
        var host = ModelDeviceHost(configuration: target.configuration, bytesPerTick: target.bytesPerTick)
        let outcome = host.play(anyway.program, limitTicks: anyway.report.totalTicks + 1_000)
        #expect(outcome.fault == ProgramError.underrun.rawValue, "\(outcome.telemetry)")
    }
}
