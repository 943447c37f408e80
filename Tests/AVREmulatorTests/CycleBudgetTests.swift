// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import Testing

    /// Latency and CPU load of the device firmware on the simulated ATmega328P, in cycles
    /// (16,000 per 1 kHz tick). The figures are printed as REPORT lines (hardware/README.md quotes
    /// them) and held to budgets here.
    @Suite struct CycleBudgetTests {
        /// The programs and measurements are BoardBudget's (AVREmulator), shared with `haptic profile --mcu`.
        static let tap = BoardBudget.tap
        static let busy = BoardBudget.busy
        static func firmware() throws -> String { try AVRFirmwareBuild().build(repositoryRoot: DeviceFirmwareTests.root) }

        @Test func playLatencyWarmAndCold() throws {
            let firmware = try Self.firmware()
            let sweep = try BoardBudget.playLatencySweep(firmware: firmware, phases: 16)
            let cold = try BoardBudget.playLatency(firmware: firmware, prepare: false)
            let lead = sweep.stepLead
            let bound = 16_000 + sweep.playFrameBytes * 320
            for point in sweep.points {
                print("REPORT latency PLAY (stage warm) ending at cycle \(point.phase) of a tick -> first PWM output: \(point.cycles) cycles")
            }
            print(
                "REPORT latency PLAY (stage warm after PREPARE) -> first PWM output over \(sweep.points.count) phases: min \(sweep.minCycles), max \(sweep.maxCycles) cycles = \(Double(sweep.maxCycles) / 16_000) ms (worst ending at cycle \(sweep.worstPhase))"
            )
            print("REPORT latency PLAY (stage cold, W = 20 ticks) -> first PWM output: \(cold.cycles) cycles = \(Double(cold.cycles) / 16_000) ms")
            print(
                "REPORT latency bound (one tick + the PLAY frame's \(sweep.playFrameBytes) bytes on the line): \(bound) cycles; step lead \(lead) cycles"
            )
            // The frame takes effect at the next step trigger (the lead before a boundary) and is
            // output from that boundary: between the lead and one tick plus the lead after the last
            // byte, whatever the phase, so under the bound (hardware/README.md, "PLAY latency").
            #expect(sweep.points.count == 16 + 3)
            #expect(Set(sweep.points.prefix(16).map { $0.phase / 1_000 }).count == 16)
            #expect(lead >= 4_000 && lead < 5_760)
            for point in sweep.points {
                #expect(point.cycles > lead && point.cycles < bound, "frame ending at cycle \(point.phase)")
            }
            // The worst case is a frame that just misses a step: one tick plus the lead.
            #expect(sweep.maxCycles > 16_000 + lead - 600)
            // Cold: 20 wake ticks more.
            #expect(cold.cycles > 20 * 16_000 + lead && cold.cycles < 20 * 16_000 + bound)
        }

        static func report(_ title: String, _ profile: CycleProfile) {
            print("REPORT \(title) (\(profile.ticks) ticks):")
            for line in profile.report.split(separator: "\n") { print("REPORT   \(line)") }
        }

        /// Steady playback: the interpreter and the 8 kHz synthesis interrupt, nothing else.
        @Test func cpuLoadWhilePlaying() throws {
            let (link, start) = try DeviceFirmwareTests.playing(Self.busy)
            let board = link.board
            // The start tick loads (and validates) the program: measured on its own.
            board.resetProfile()
            try board.run(ticks: Int(start) + 25 - Int(board.cycle / board.cyclesPerTick))
            let startup = board.profile()
            for (function, cycles) in try board.cyclesByFunction().prefix(8) {
                print("REPORT   play start, cycles in \(function): \(cycles)")
            }
            let lateAtStart = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
            board.resetProfile()
            try board.run(ticks: 500)
            let steady = board.profile()
            Self.report("playing a busy looped program, steady state", steady)
            print(
                "REPORT   play start (program load and validation, one tick): \(startup[.interpreterTick].maxCyclesPerCall) cycles, late ticks \(lateAtStart)"
            )
            let timing = try #require(StepTiming(board: board))
            let first = timing.steps[Int(start)]
            let worst = try #require(timing.steps(in: Int(start)..<timing.steps.count).max { $0.cycles < $1.cycles })
            print("REPORT   step trigger to hand-off: play start \(first.cycles) cycles, worst while playing \(worst.cycles) (lead \(timing.lead))")
            #expect(timing.steps(in: Int(start)..<timing.steps.count).allSatisfy { !$0.late })
            // Steady playback never misses a tick boundary.
            #expect(lateAtStart == 0)
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
            // Budgets, share of a 16,000-cycle tick: interpreter worst 25 %, timer interrupt 10 %.
            #expect(steady.worstLoadPercent(.interpreterTick) < 25)
            #expect(steady.worstLoadPercent(.tickInterrupt) < 10)
        }

        /// The generator of PROTOCOL.md 1.15's worst ticks makes valid programs that do execute 9
        /// instructions at their busy ticks (the restart: END's tick and the next tick 0 together).
        @Test func worstCaseProgramsAreValidAndBusy() throws {
            for item in WorstCasePrograms.slotCases + WorstCasePrograms.streamedCases {
                var model = Interpreter()
                try model.load(item.program)
                var executed: [Int] = []
                for _ in 0..<40 {
                    _ = model.step()
                    executed.append(model.executedLastStep)
                }
                if item.name.hasPrefix("restart") {
                    #expect(executed[0] == 8 && executed[1] == 1, "\(item.name): \(executed)")
                } else if item.name.hasPrefix("jump") {
                    #expect(executed[2...].allSatisfy { $0 == 9 }, "\(item.name): \(executed)")
                } else {
                    #expect(
                        executed[0] == 8 && stride(from: 1, to: 40, by: item.busyPeriod).allSatisfy { executed[$0] == 9 },
                        "\(item.name): \(executed)")
                }
            }
        }

        /// Every worst case of 1.15 on the board with the line at its rate (UPLOADs back to back from
        /// the slot, the stream's own bytes when streamed): no tick is late, nothing faults or underruns.
        @Test func worstCaseTicksAreOnTime() throws {
            let report = try BoardBudget.worstCase(firmware: Self.firmware())
            for run in report.runs {
                print(
                    "REPORT worst case \(run.name): interpreter + UART worst tick \(run.worstTickCycles) cycles (\(Double(run.worstTickCycles) / 160) %), interpreter worst \(run.profile[.interpreterTick].maxCyclesPerTick), slowest step \(run.slowestStepCycles) of \(report.stepLead), late \(run.lateTicks), \(run.receivedBytes) bytes received"
                )
                #expect(run.lateTicks == 0, "\(run.name)")
                #expect(!run.faulted, "\(run.name): \(run.telemetry)")
                #expect(run.slowestStepCycles < report.stepLead, "\(run.name)")
                #expect(run.receivedBytes > 1_000, "\(run.name): the line was busy")
            }
            for run in report.runs where run.name.hasPrefix("streamed") {
                #expect(run.telemetry.contains { $0.event == .finished }, "\(run.name): \(run.telemetry)")
            }
            let worst = try #require(report.worst)
            print(
                "REPORT worst case over \(report.runs.count) programs: \(report.worstTickCycles) cycles (\(report.worstTickPercent) % of a tick, \(worst.name)); slowest step \(report.slowestStepCycles) of the \(report.stepLead)-cycle lead; late ticks \(report.lateTicks)"
            )
            #expect(report.lateTicks == 0)
        }

        /// UPLOAD frames at line rate while a program plays: nothing is lost and no tick is late.
        @Test func lineRateUploadsWhilePlaying() throws {
            let run = try BoardBudget.lineRateProfile(firmware: Self.firmware())
            let board = run.link.board
            let profile = run.profile
            Self.report("playing while receiving UPLOAD frames back to back", profile)
            for (function, cycles) in try board.cyclesByFunction().prefix(10) {
                print("REPORT   line-rate uploads, cycles in \(function): \(cycles)")
            }
            let stats = board.uartStatistics
            let highWater = board.readGlobal("hb_uart_rx_high_water", size: 1) ?? 0
            let late = run.late
            let interrupted = profile[.uartReceiveInterrupt]
            let polledBytes = run.bytes - Int(interrupted.calls)
            let perByte = Double(interrupted.totalCycles + profile[.uartPolledReceive].totalCycles) / Double(run.bytes)
            print(
                "REPORT   uart: \(run.bytes) bytes received, \(interrupted.calls) through the RX interrupt (longest \(interrupted.maxCyclesPerCall) cycles), \(polledBytes) polled; \(perByte) cycles per byte over both paths"
            )
            print("REPORT   uart: deepest unread backlog \(stats.maxBacklog) byte(s) (the chip holds 2), RX ring high water \(highWater) of 128")
            print("REPORT   ticks whose sample was computed late (frame handling over a tick): \(late)")
            let timing = try #require(StepTiming(board: board))
            let worst = try #require(timing.steps.suffix(60).max { $0.cycles < $1.cycles })
            print(
                "REPORT   step trigger to hand-off while UPLOADs arrive: worst \(worst.cycles) cycles, of which \(worst.wait) waiting for a piece of frame handling (lead \(timing.lead))"
            )
            // What the board guarantees: no byte lost in the UART or the ring.
            #expect(stats.overruns == 0)
            #expect(stats.maxBacklog <= 1)
            #expect(board.readGlobal("hb_uart_rx_overflows", size: 2) == 0)
            // Receive costs (hardware/README.md, "Receiving"): the interrupt's fixed path is 49
            // cycles; most bytes take the polled path, so a byte costs under 20 on average.
            #expect(interrupted.maxCyclesPerCall <= 49)
            #expect(polledBytes > run.bytes / 2)
            #expect(perByte < 20)
            // Long frames yield to due ticks (hb_device_set_yield): every sample is on time.
            #expect(late == 0)
        }

        /// COMMIT validates the whole slot in the main loop (PROTOCOL.md 2.5 allows it to take
        /// several ticks): measured, and its effect on a running play reported.
        @Test func commitValidationCost() throws {
            var link = try DeviceFirmwareTests.bootedLink()
            var filler = ProgramBuilder()
            for i in 0..<115 { filler.setA(UInt8(i), at: UInt32(i)) }
            let image = filler.program(endingAt: 200).bytes
            try DeviceFirmwareTests.upload(Self.busy, slot: 0, link: &link)
            let board = link.board
            board.resetProfile()
            try DeviceFirmwareTests.upload(image, slot: 1, link: &link)
            let idle = board.profile()[.protocolHandler].maxCyclesPerCall
            for (function, cycles) in try board.cyclesByFunction().prefix(8) {
                print("REPORT   upload and COMMIT, cycles in \(function): \(cycles)")
            }
            let play = try link.send(.play(.init(slot: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            try board.run(ticks: 25)
            let lateBefore = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
            try DeviceFirmwareTests.upload(image, slot: 1, link: &link)
            let late = (board.readGlobal("hb_output_late_ticks", size: 2) ?? 0) - lateBefore
            print(
                "REPORT COMMIT of a \(image.count)-byte program: \(idle) cycles in the protocol handler (\(Double(idle) / 16_000) ticks); during a play it made \(late) tick(s) late"
            )
            #expect(image.count <= 256)
            #expect(late == 0)
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
        }

        /// The DRV2605L stage writes RTP_INPUT over I2C in the main loop when the amplitude changes,
        /// and checks the chip with one read every 8 ticks, after that tick's write if there is one.
        @Test func drv2605lBusTimePerTick() throws {
            var link = try DeviceFirmwareTests.bootedLink(AVRFirmwareBuild(output: .drv2605l))
            try DeviceFirmwareTests.upload(Self.busy, slot: 0, link: &link)
            let board = link.board
            let play = try link.send(.play(.init(slot: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            try board.run(ticks: 25)
            let lateBefore = board.readGlobal("hb_output_late_ticks", size: 2) ?? 0
            board.resetProfile()
            try board.run(ticks: 500)
            let profile = board.profile()
            Self.report("DRV2605L stage, playing a busy looped program", profile)
            let writes = profile[.outputMainLoop]
            #expect(writes.calls > 100)
            // A write: START, address, register, value, STOP, 29 SCL periods of 40 cycles at 400 kHz;
            // a STATUS read: START, address, register, repeated START, address, value, STOP, 39
            // periods; both in one tick, 68 periods (2,720 cycles); plus code.
            #expect(writes.maxCyclesPerCall > 1_560 && writes.maxCyclesPerCall < 3_300)
            #expect(writes.totalCycles / UInt64(profile.ticks) < 700)
            #expect(lateBefore == 0)
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)
        }
    }
#endif
