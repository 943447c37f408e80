// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticCompiler
    import TestSupport
    import Testing

    /// The bring-up firmware (APP=selftest) in simavr: UART timing and buffering, the tick, and
    /// the output stages recorded per tick against their Swift models.
    @Suite struct SelfTestFirmwareTests {
        static let root = Repository.root.path

        static func board(_ build: AVRFirmwareBuild) throws -> AVRBoard {
            try AVRBoard(firmware: build.build(repositoryRoot: root))
        }

        /// The self-test's built-in program, read back from the ELF's data.
        static func program(on board: AVRBoard) throws -> [UInt8] {
            let address = try #require(board.address(ofSymbol: "hb_selftest_program"))
            let length = try #require(board.readGlobal("hb_selftest_program_length", size: 1))
            return (0..<UInt16(length)).map { board.readData(address + $0) }
        }

        /// The same program through the Swift model (checked against the core built for this
        /// host): the reference for what the ATmega328P must output.
        static func hostSamples(_ program: [UInt8], ticks: Int) throws -> [OutputSample] {
            let result = try #require(ReferenceInterpreter.play(program, ticks: ticks))
            return result
        }

        /// The self-test computes program tick j at the step trigger of timer tick j (the step lead
        /// before its end); the DRV2605L stage writes it at the start of timer tick j + 1 (output.h;
        /// PWMTrace.updates(ofDeviceTick:) for the PWM stage).
        static let playbackOffset = 1

        @Test func bootBannerThenLosslessEchoAt500kbaud() throws {
            let board = try Self.board(AVRFirmwareBuild(application: .selftest))
            let banner = try board.runUntilOutput(count: 11, limit: 5 * board.cyclesPerTick)
            #expect(String(decoding: banner.map(\.value), as: UTF8.self) == "HBSELFTEST\n")
            #expect(board.uartCyclesPerByte == 320)

            var generator = SeededGenerator(seed: 6)
            let message = (0..<2_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            board.send(message)
            let echoed = try board.runUntilOutput(count: message.count, limit: 3_000 * board.cyclesPerTick)
            #expect(echoed.map(\.value) == message)
            // Back to back: byte i completes 320 cycles after byte i - 1.
            let input = board.inputLog
            #expect(zip(input, input.dropFirst()).allSatisfy { $1.cycle - $0.cycle == 320 })
            let stats = board.uartStatistics
            #expect(stats.overruns == 0)
            #expect(stats.maxBacklog <= 1)
            #expect(board.readGlobal("hb_uart_rx_overflows", size: 2) == 0)
            #expect(board.readGlobal("hb_uart_rx_errors", size: 2) == 0)
        }

        func expectPWM(_ build: AVRFirmwareBuild) throws {
            let model = PWMSynthesis(settings: try build.pwmSettings())
            let board = try Self.board(build)
            let ticks = 360  // 320 program ticks, 20 brake ticks, idle
            try board.run(ticks: ticks + 4)
            #expect(board.readGlobal("hb_selftest_load_result", size: 1) == 0)
            let samples = try Self.hostSamples(Self.program(on: board), ticks: ticks)
            let trace = try #require(
                PWMTrace(
                    events: board.events(), updatesPerTick: model.updatesPerTick,
                    cyclesPerTick: board.cyclesPerTick, until: board.cycle))
            #expect(trace.missingWrites == 0)
            var synthesis = model
            var mismatches = 0
            for j in 0..<ticks {
                let expected = synthesis.tick(samples[j])
                let recorded = Array(trace.updates(ofDeviceTick: j))
                if recorded != expected {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("program tick \(j): recorded \(recorded), model \(expected)") }
                }
            }
            #expect(mismatches == 0)
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
        }

        /// The default LRA build: lra-170hz-10mm's sharpness band, 160..180 Hz.
        @Test func lraCarrierMatchesTheSwiftModelUpdateByUpdate() throws {
            try expectPWM(AVRFirmwareBuild(application: .selftest))
        }

        /// A profile that renders edges: the carrier at the resonance, 170 Hz, edge strength 1.
        @Test func narrowBandLRAAtResonance() throws {
            try expectPWM(AVRFirmwareBuild(application: .selftest, variables: ["PROFILE": "lra-drv2605l-170hz-10mm"]))
        }

        /// lra-235hz-8mm's band, from a 3.3 V bridge supply.
        @Test func otherBandMapsSharpnessToItsFrequencies() throws {
            try expectPWM(AVRFirmwareBuild(application: .selftest, variables: ["PROFILE": "lra-235hz-8mm", "SUPPLY_MV": "3300"]))
        }

        @Test func ermDutyFollowsAmplitudeAndBrakesInReverse() throws {
            try expectPWM(AVRFirmwareBuild(actuator: .erm, application: .selftest))
            try expectPWM(AVRFirmwareBuild(actuator: .erm, application: .selftest, variables: ["PROFILE": "erm-cylinder-7mm"]))
        }

        @Test func phaseIncrementsFollowTheDocumentedFormula() {
            #expect(PWMSynthesis.phaseIncrement(hz: 170, updatesPerSecond: 8_000) == 1_393)
            #expect(PWMSynthesis.phaseIncrement(hz: 150, updatesPerSecond: 8_000) == 1_229)
            #expect(PWMSynthesis.phaseIncrement(hz: 250, updatesPerSecond: 8_000) == 2_048)
            let wide = PWMSynthesis(
                settings: PWMStageSettings(
                    kind: .lra, ratedMillivolts: 2_000, overdriveMillivolts: 2_500, kickMs: 0, brakeMs: 0, brakeRatioQ8: 0,
                    minimumEdgeQ8: 256, minimumHz: 150, maximumHz: 250, resonanceHz: 200, tauMicroseconds: 20_000,
                    coastTauMicroseconds: 20_000, bidirectional: true))
            #expect(wide.increment(sharpness: 0) == 1_229)
            #expect(wide.increment(sharpness: 255) == 1_229 + ((819 * 255 + 128) >> 8))
            #expect(wide.increment(sharpness: 128) == 1_229 + 410)
        }

        @Test func drv2605lInitSequenceAndRealTimePlayback() throws {
            let board = try Self.board(AVRFirmwareBuild(output: .drv2605l, application: .selftest))
            let ticks = 360
            try board.run(ticks: ticks + 4)
            let samples = try Self.hostSamples(Self.program(on: board), ticks: ticks)
            // Datasheet: no I2C within 250 us of power-up (4,000 cycles at 16 MHz).
            let first = try #require(board.drv2605lFirstAccess)
            #expect(first >= 4_000)
            #expect(board.drv2605lRegister(0x01) == 0x05)  // RTP mode, out of standby
            #expect(board.drv2605lRegister(0x1A) & 0x80 == 0x80)  // LRA
            #expect(board.drv2605lRegister(0x1D) & 0x08 == 0x08)  // unsigned RTP data
            #expect(board.drv2605lRegister(0x1C) & 0x80 == 0)  // unidirectional input
            #expect(board.drv2605lRegister(0x03) == 6)  // LRA library
            #expect(board.readGlobal("hb_drv2605l", size: 2) == 0x0003)  // present, calibrated; no fault
            #expect(board.drv2605lRegister(0x16) == 0x53 && board.drv2605lRegister(0x17) == 0x88)  // the profile's
            #expect(board.drv2605lRegister(0x1B) & 0x1F == 24)  // DRIVE_TIME: half of 170 Hz
            #expect(board.drv2605lRegister(0x1B) == 0x98 && board.drv2605lRegister(0x1C) == 0x75)  // the header's CONTROL1, CONTROL2

            let events = board.events()
            let writes = events.compactMap { e -> (UInt64, UInt8, UInt8)? in
                if case .drv2605lWrite(let r) = e.kind { return (e.cycle, r, e.value) }
                return nil
            }
            // Auto-calibration: mode 7, then GO.
            let modeWrites = writes.filter { $0.1 == 0x01 }.map(\.2)
            #expect(modeWrites == [0x80, 0x00, 0x07, 0x05])  // DEV_RESET first: nothing of an earlier sketch survives
            #expect(writes.contains { $0.1 == 0x0C && $0.2 == 1 })

            // RTP writes after entering RTP mode: one per change of the program's amplitude
            // (brake ticks write 0), each at the start of timer tick j + 1.
            let timerStart = try #require(events.first { $0.kind == .tickTimerStart }).cycle
            let rtp = writes.drop { !($0.1 == 0x01 && $0.2 == 0x05) }.filter { $0.1 == 0x02 }
            var expected: [(tick: Int, value: UInt8)] = []
            var last: UInt8 = 0
            for j in 0..<ticks {
                let s = samples[j]
                let v = s.isBraking ? 0 : s.amplitude
                if v != last {
                    expected.append((j + Self.playbackOffset, v))
                    last = v
                }
            }
            #expect(rtp.map(\.2) == expected.map(\.value))
            // What the chip drives (the simulator's datasheet equations, closed loop): code / 255 of the
            // rated 1.98 Vrms, never more, and nothing once the program is over.
            let volts = events.compactMap { e -> Int? in
                if case .drv2605lOutput(let mv) = e.kind { return Int(mv) }
                return nil
            }
            #expect(volts.max().map { (1_975...1_985).contains($0) } == true, "\(volts.max() ?? 0) mV at code 255")
            #expect(volts.min() == 0 && volts.last == 0)
            for (write, want) in zip(rtp, expected) {
                let tickStart = timerStart + UInt64(want.tick) * board.cyclesPerTick
                #expect(write.0 >= tickStart && write.0 < tickStart + board.cyclesPerTick / 4)
            }
        }
    }
#endif
