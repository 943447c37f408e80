// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import Foundation
    import HapticCompiler
    import HapticPattern
    import HapticProtocol
    import TestSupport
    import Testing

    /// The whole AHAP corpus (or the folder `HAPTIC_CORPUS` names) played on the simulated ATmega328P
    /// as `haptic play` plays it: each file compiled for the board from its INFO (its actuator profile,
    /// slots, ring and line rate: `CompileOptions(device:)`, so a streamed program has no loops),
    /// uploaded, committed and played from a slot when it fits (256 bytes), else streamed through the
    /// 128-byte ring with credit-based flow control at 500 kbaud. Every tick of the play, brake
    /// included, must drive the PWM stage exactly as the Swift model's sample for that tick says
    /// (FirmwareModel.Interpreter, fed as the board is: streamed programs through a ring, so files of
    /// any length are checked), with no underrun and no late tick.
    @Suite struct CorpusEquivalenceTests {
        /// Examples/corpus, or the folder `HAPTIC_CORPUS` names.
        static let corpus: URL = Corpus.directory

        static let slotCapacity = 256
        /// STREAM_DATA body bytes per frame: 4 + 4 + 64 + 2 bytes raw, 76 on the wire.
        static let streamChunk = 64
        static let brakeTicks = Int(DeviceConfiguration().brakeTicks)

        struct Outcome {
            var ticks = 0
            var streamed = false
            /// Worst tick window of the play (PLAY to the end of the brake): interpreter (device
            /// step, notices included) and UART RX interrupt cycles.
            var interpreterWorst = 0
            var receiveWorst = 0
            /// Worst tick window of the interpreter and all UART handling together (the 10 % budget).
            var budgetWorst = 0
            var handlerLongest = 0
            /// The play's slowest step: trigger to hand-off (must stay under the step lead), and
            /// how long it waited for the main loop to start it.
            var stepWorst = 0
            var stepWorstWait = 0
            var stepWorstTick = 0
            /// The play's first step (program load, first instructions), trigger to hand-off.
            var firstStep = 0
        }

        /// The board as its INFO describes it, for compiling (`CompileOptions(device:)`), and the
        /// actuator profile it names.
        static func board() throws -> (capabilities: DeviceCapabilities, profile: ActuatorProfile, streamCapacity: Int) {
            var link = try DeviceFirmwareTests.bootedLink()
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello.sequence)?.message else { throw AVRBoardError.load("no INFO") }
            let capabilities = DeviceCapabilities(info: info, baudRate: Int(link.board.frequency) * 10 / Int(link.board.uartCyclesPerByte))
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == info.profileNameString })
            return (capabilities, profile, Int(info.streamCapacity))
        }

        /// Plays `program` on a fresh board; returns the ticks compared.
        static func play(_ program: [UInt8], name: String) throws -> Outcome {
            var link = try DeviceFirmwareTests.bootedLink()
            let board = link.board
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello.sequence)?.message else {
                Issue.record("\(name): no INFO")
                return Outcome()
            }
            #expect(info.profileNameString == "lra-170hz-10mm")
            let totalTicks = (10..<14).reversed().reduce(0) { $0 << 8 | Int(program[$1]) }  // header bytes 10-13, LE
            var outcome = Outcome()
            outcome.streamed = program.count > Self.slotCapacity
            var feeder = StreamFeeder(program: program, chunk: Self.streamChunk)
            if outcome.streamed {
                try feeder.open(program, link: &link)
            } else {
                try DeviceFirmwareTests.upload(program, slot: 0, link: &link)
            }
            board.resetProfile()
            let play = try link.send(.play(.init(slot: outcome.streamed ? 0xFF : 0)))
            let start = try #require(try link.response(to: play.sequence)?.ackValue, "\(name): PLAY")
            // Run to the end of the play and its brake, feeding the stream as credits come, with a
            // PING every 250 ticks so that the host-silence watchdog (1,000 ticks) stays quiet.
            let total = totalTicks + Self.brakeTicks
            let end = board.cycle + UInt64(Int(start) + total + 30) * board.cyclesPerTick
            var ticks = 0
            while board.cycle < end {
                try board.run(until: min(end, board.cycle + board.cyclesPerTick))
                link.pump()
                if outcome.streamed { try feeder.feed(&link) }
                ticks += 1
                if ticks % 250 == 0 { try link.send(.ping(.init(echo: UInt32(ticks)))) }
            }
            let profile = board.profile()
            outcome.interpreterWorst = profile[.interpreterTick].maxCyclesPerTick
            outcome.receiveWorst =
                profile[.uartReceiveInterrupt].maxCyclesPerTick
                + profile[.uartPolledReceive].maxCyclesPerTick
            outcome.budgetWorst = profile.tickBudgetWorstCycles
            outcome.handlerLongest = profile[.protocolHandler].maxCyclesPerCall
            // Every step of the play, brake included, handed its sample over before its boundary.
            let timing = try #require(StepTiming(board: board), "\(name): step timing")
            let steps = timing.steps(in: Int(start)..<(Int(start) + total))
            outcome.firstStep = steps.first?.cycles ?? 0
            if let worst = steps.max(by: { $0.cycles < $1.cycles }) {
                outcome.stepWorst = worst.cycles
                outcome.stepWorstWait = worst.wait
                outcome.stepWorstTick = worst.tick - Int(start)
            }
            #expect(steps.count == total && !steps.contains(where: \.late), "\(name): late steps \(steps.filter(\.late).prefix(3))")
            if board.readGlobal("hb_output_late_ticks", size: 2) != 0 {
                print(
                    "REPORT late in \(name): interpreter longest \(profile[.interpreterTick].maxCyclesPerCall), handler longest \(outcome.handlerLongest)"
                )
                for (function, cycles) in try board.cyclesByFunction().prefix(10) { print("REPORT   \(name) cycles in \(function): \(cycles)") }
            }
            let telemetry = link.received.compactMap { r -> Message.Telemetry? in
                if case .telemetry(let t) = r.message { return t } else { return nil }
            }
            #expect(telemetry.contains { $0.event == .started && $0.tick == start }, "\(name): STARTED at \(start)")
            #expect(telemetry.contains { $0.event == .finished }, "\(name): FINISHED (no fault, no underrun): \(telemetry)")
            #expect(!telemetry.contains { $0.event == .fault }, "\(name): \(telemetry)")
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0, "\(name): late ticks")
            #expect(board.readGlobal("hb_uart_rx_overflows", size: 2) == 0, "\(name): RX ring overflow")

            let ring = outcome.streamed ? Int(info.streamCapacity) : nil
            let expected = try #require(ReferenceInterpreter.swiftModel(program, ticks: total, streamedThrough: ring), "\(name): model")
            let trace = try PWMComparison.trace(of: board)
            let mismatches = try PWMComparison.mismatches(trace, PWMComparison.silent(Int(start)) + expected) {
                "\(name): play tick \($0 - Int(start))"
            }
            #expect(mismatches == 0, "\(name)")
            outcome.ticks = total
            return outcome
        }

        @Test func everyCorpusFilePlaysOnTheBoardExactlyAsTheModel() throws {
            let files = Corpus.names()
            let board = try Self.board()
            #expect(board.profile.name == "lra-170hz-10mm")
            var ticks = 0, streamed = 0, played = 0
            var worst = (interpreter: 0, receive: 0, handler: 0, file: "", budget: 0, budgetFile: "")
            var slowest = (step: 0, wait: 0, tick: 0, file: "")
            var firstStep = (slot: 0, stream: 0)
            for file in files {
                let pattern = try AHAPDecoder().decode(contentsOfFile: Self.corpus.appendingPathComponent(file).path).pattern
                let compiled = try PatternCompiler.compile(pattern, profile: board.profile, options: CompileOptions(device: board.capabilities))
                let outcome = try Self.play(compiled.bytes, name: file)
                #expect(outcome.streamed == (compiled.report.placement == .stream), "\(file)")
                ticks += outcome.ticks
                streamed += outcome.streamed ? 1 : 0
                played += 1
                if outcome.interpreterWorst > worst.interpreter {
                    worst.interpreter = outcome.interpreterWorst
                    worst.file = file
                }
                worst.receive = max(worst.receive, outcome.receiveWorst)
                if outcome.budgetWorst > worst.budget {
                    worst.budget = outcome.budgetWorst
                    worst.budgetFile = file
                }
                worst.handler = max(worst.handler, outcome.handlerLongest)
                if outcome.streamed {
                    firstStep.stream = max(firstStep.stream, outcome.firstStep)
                } else {
                    firstStep.slot = max(firstStep.slot, outcome.firstStep)
                }
                if outcome.stepWorst > slowest.step {
                    slowest = (outcome.stepWorst, outcome.stepWorstWait, outcome.stepWorstTick, file)
                }
            }
            print(
                "REPORT corpus on the simulated ATmega328P: \(played) files, \(ticks) ticks equal to the model (brake included), \(streamed) streamed"
            )
            print(
                "REPORT corpus worst tick: interpreter \(worst.interpreter) cycles (\(Double(worst.interpreter) / 160) %, \(worst.file)), UART receive (interrupt + polled, each at its worst) \(worst.receive) cycles (\(Double(worst.receive) / 160) %), longest protocol handler piece \(worst.handler) cycles"
            )
            print(
                "REPORT corpus worst tick of interpreter + UART together: \(worst.budget) cycles (\(Double(worst.budget) / 160) %, \(worst.budgetFile))"
            )
            let lead = Int(DeviceFirmwareTests.stepLead)
            print(
                "REPORT corpus slowest step, trigger to hand-off: \(slowest.step) cycles (waited \(slowest.wait) for the main loop; play tick \(slowest.tick) of \(slowest.file)); step lead \(lead) cycles"
            )
            print(
                "REPORT corpus first step of a play, trigger to hand-off, worst: from a slot \(firstStep.slot) cycles, streamed \(firstStep.stream) cycles"
            )
            #expect(slowest.step < lead)
            #expect(played == files.count)
            // The shipped corpus has programs larger than a 256-byte slot, so the stream is exercised;
            // a folder of one's own (HAPTIC_CORPUS) may have none.
            if !Corpus.isCustom { #expect(streamed > 0) }
        }

        /// Generated patterns (TestSupport.GeneratedPatterns: periodic taps, a repeated motif, long
        /// tracks, dense curves, many events at once, very short and long events), compiled for this
        /// board from its INFO at its line rate (CompileOptions.device): each plays from a slot or
        /// streamed, tick for tick as the model, to FINISHED, no underrun, no late tick.
        @Test func generatedPatternsCompiledForTheBoardPlayExactly() throws {
            let (board, profile, _) = try Self.board()
            var streamed = 0, ticks = 0, slowest = 0
            for item in GeneratedPatterns.cases(seed: 0xB0A2D, perKind: 1) {
                let compiled = try PatternCompiler.compile(item.pattern, profile: profile, options: CompileOptions(device: board))
                let outcome = try Self.play(compiled.bytes, name: item.name)
                #expect(outcome.streamed == (compiled.report.placement == .stream), "\(item.name)")
                streamed += outcome.streamed ? 1 : 0
                ticks += outcome.ticks
                slowest = max(slowest, outcome.stepWorst)
            }
            print(
                "REPORT generated patterns on the simulated ATmega328P: \(GeneratedPatterns.Kind.allCases.count) compiled for the board, \(ticks) ticks equal to the model, \(streamed) streamed; slowest step \(slowest) cycles"
            )
            #expect(streamed > 0)
        }
    }
#endif
