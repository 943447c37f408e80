// The micro:bit tests reach the simulated boards' code: built with the package trait "Emulator" only.
#if Emulator
    import FirmwareModel
    import Foundation
    import HapticCompiler
    import HapticPattern
    import HapticProtocol
    import QEMUEmulator
    import TestSupport
    import Testing

    /// The AHAP corpus and the generated patterns on the emulated micro:bit (Cortex-M0, QEMU's
    /// `microbit` machine, in lockstep): each compiled for the board from its INFO, uploaded to a
    /// 1,024-byte slot or streamed through its 256-byte ring, played to its end and its brake. Every
    /// step's recorded sample, and every byte the board sent, must be the Swift model's, replayed on
    /// the bytes the board took before each step (QEMUTrace), and the play's samples the
    /// interpreter's for the program from the tick it started.
    @Suite struct CorpusOnMicrobitTests {
        struct Outcome {
            var ticks = 0
            var streamed = false
        }

        static func play(_ program: [UInt8], name: String) throws -> Outcome {
            var session = try MicrobitSession()
            let play = try session.play(program)
            let replay = try session.replay()
            #expect(replay.sampleMismatches.isEmpty, "\(name): steps \(replay.sampleMismatches.prefix(5)) differ from the model")
            #expect(replay.frameMismatch == nil, "\(name): the board's frames differ from the model's from frame \(replay.frameMismatch ?? 0)")
            #expect(replay.bytesReplayed == session.link.board.inputLog.count, "\(name): bytes the board never took")
            #expect(play.telemetry.contains { $0.event == .started && Int($0.tick) == play.start }, "\(name): STARTED at \(play.start)")
            #expect(play.telemetry.contains { $0.event == .finished }, "\(name): FINISHED (no fault, no underrun): \(play.telemetry)")
            #expect(!play.telemetry.contains { $0.event == .fault }, "\(name): \(play.telemetry)")
            // The play itself, tick for tick, as the interpreter alone plays the program.
            var interpreter = Interpreter()
            try interpreter.load(program)
            let expected = (0..<play.ticks).map { _ in interpreter.step() }
            let recorded = Array(session.link.board.steps.dropFirst(play.start).prefix(play.ticks).map(\.sample))
            let firstDifference = zip(recorded, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(
                recorded.count == expected.count && firstDifference == nil,
                "\(name): the play's samples differ from play tick \(firstDifference ?? recorded.count)")
            return Outcome(ticks: play.ticks, streamed: play.streamed)
        }

        @Test func everyCorpusFilePlaysOnTheMicrobitExactlyAsTheModel() throws {
            let probe = try MicrobitSession()
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == probe.info.profileNameString })
            let options = CompileOptions(device: probe.capabilities)
            var ticks = 0, streamed = 0, played = 0
            for file in Corpus.files() {
                let name = (file as NSString).lastPathComponent
                let pattern = try AHAPDecoder().decode(contentsOfFile: file).pattern
                let compiled = try PatternCompiler.compile(pattern, profile: profile, options: options)
                let outcome = try Self.play(compiled.bytes, name: name)
                ticks += outcome.ticks
                streamed += outcome.streamed ? 1 : 0
                played += 1
            }
            print(
                "REPORT corpus on the emulated micro:bit (Cortex-M0, QEMU): \(played) files, \(ticks) ticks equal to the model (brake included), \(streamed) streamed"
            )
            if !Corpus.isCustom { #expect(streamed > 0) }
        }

        @Test func generatedPatternsCompiledForTheMicrobitPlayExactly() throws {
            let probe = try MicrobitSession()
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == probe.info.profileNameString })
            var ticks = 0, streamed = 0
            for item in GeneratedPatterns.cases(seed: 0xB0A2D, perKind: 1) {
                let compiled = try PatternCompiler.compile(item.pattern, profile: profile, options: CompileOptions(device: probe.capabilities))
                let outcome = try Self.play(compiled.bytes, name: item.name)
                #expect(outcome.streamed == (compiled.report.placement == .stream), "\(item.name)")
                streamed += outcome.streamed ? 1 : 0
                ticks += outcome.ticks
            }
            print(
                "REPORT generated patterns on the emulated micro:bit: \(GeneratedPatterns.Kind.allCases.count) compiled for the board, \(ticks) ticks equal to the model, \(streamed) streamed"
            )
        }
    }
#endif
