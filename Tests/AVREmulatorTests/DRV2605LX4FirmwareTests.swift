// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import TestSupport
    import Testing

    /// The protocol 3.0 image with DRV2605L behind a TCA9548A (make OUTPUT=drv2605l-x4: four
    /// channels, driver c behind port c with its EN on D(4 + c)) on the simulated board with two
    /// drivers: HELLO 3.0, INFO, DESCRIBE, the two missing drivers reported absent on their channels,
    /// a play on channels 0 and 1 whose every RTP value and every byte the board sends equal what
    /// `DeviceModel3` makes of the same input, and a driver that goes absent mid-play: a fault of
    /// its channel only, its EN low, while the other channel plays on.
    @Suite struct DRV2605LX4FirmwareTests {
        static let rtpRegister: UInt8 = 0x02

        /// 330 ticks: a ramp, a loop of steps closed by its SET_A, a fall.
        static let program = Protocol3Board.program([
            .rampA(to: 200, duration: 40, delay: 40), .loop(count: 6, delay: 0), .setA(150, delay: 20),
            .setA(60, delay: 20), .endLoop(delay: 0), .rampA(to: 0, duration: 30, delay: 30), .end(delay: 20),
        ])

        static func booted(mux fault: TCA9548AFault = .none) throws -> Protocol3Board {
            try Protocol3Board(elf: Protocol3Board.drv2605lX4.get()) { board in
                try board.attachTCA9548A(drivers: 2)
                for c in 0..<2 { board.setDRV2605LEnablePin(channel: c, arduinoPin: 4 + c) }
                board.setDRV2605LCalibrationCycles(board.cyclesPerTick * 20)
                board.setTCA9548AFault(fault)
            }
        }

        /// Driver `channel`'s RTP value at the end of timer tick k + 1 (device tick k's sample is
        /// written after the boundary of timer tick k + 1), for device ticks 0..<count.
        static func rtpValues(_ host: Protocol3Board, channel: Int, count: Int) -> [UInt8] {
            let writes = host.board.events().filter { $0.kind == .drv2605lWrite(register: rtpRegister) && $0.channel == channel }
            let T = host.board.cyclesPerTick
            var values: [UInt8] = []
            var index = 0
            var value: UInt8 = 0
            for k in 0..<count {
                let end = host.timerStart + UInt64(k + 2) * T
                while index < writes.count && writes[index].cycle < end {
                    value = writes[index].value
                    index += 1
                }
                values.append(value)
            }
            return values
        }

        static func expected(_ samples: [OutputSample]) -> [UInt8] { samples.map { $0.isBraking ? 0 : $0.amplitude } }

        @Test func bootsAnswersHelloInfoAndDescribeAndReportsTheMissingDrivers() throws {
            let host = try Self.booted()
            let (info, channels) = try host.helloAndDescribe()
            #expect(info.base.version == ProtocolVersion.version3)
            #expect(info.channelCount == 4 && info.players == 3)
            #expect(info.base.capabilities.contains(.trim))
            #expect(!info.base.capabilities.contains(.seek), "no SEEK on the ATmega328P (HB_PORT_SEEK 0)")
            try #require(channels.count == 4)
            for (c, ci) in channels.enumerated() {
                #expect(ci.channel == UInt8(c) && ci.stageCode == 3, "a DRV2605L behind a TCA9548A")
                #expect(String(decoding: ci.profileName, as: UTF8.self) == String("lra-drv2605l-170hz-10mm".prefix(16)))
                #expect(ci.capabilities.contains(.activeBrake) && ci.capabilities.contains(.diag))
            }
            let absent = host.telemetry.filter { $0.event == .fault }.map { [$0.channel, $0.code, $0.play] }
            #expect(absent == [[2, 59, 0xFE], [3, 59, 0xFE]], "DRIVER_ABSENT on the channels without a driver")
            #expect(host.board.drv2605lEnabled(channel: 0) && host.board.drv2605lEnabled(channel: 1))
            #expect(host.board.drv2605lCalibrations(channel: 0) == 1 && host.board.drv2605lCalibrations(channel: 1) == 1)
        }

        @Test func aPlayOnTwoChannelsEqualsTheModelAndAnAbsentDriverStopsOnlyItsChannel() throws {
            let host = try Self.booted()
            let (info, channels) = try host.helloAndDescribe()
            #expect(try host.load(Self.program))
            host.board.resetProfile()
            #expect(try host.ack(.play(.init(play: 1, channels: 0b11, slot: 0, flags: 2))) != nil)
            try host.run(ticks: 120)
            host.board.setDRV2605LFault(.driverAbsent, channel: 1)
            try host.run(ticks: 280)

            let faults = host.telemetry.filter { $0.event == .fault && $0.play == 1 }
            #expect(faults.map { [$0.channel, $0.code] } == [[1, 60]], "DRIVER_BUS on channel 1 only")
            let finished = host.telemetry.filter { $0.event == .finished }.map { [$0.play, $0.channel] }
            #expect(finished == [[1, 0]], "channel 0 plays on to its end")
            #expect(!host.board.drv2605lEnabled(channel: 1), "the absent driver's EN is low")
            #expect(host.board.drv2605lEnabled(channel: 0))
            let faultTick = try #require(faults.first).tick
            let profile = host.board.profile()
            print(
                "REPORT drv2605l-x4: longest step \(profile[.interpreterTick].maxCyclesPerCall) cycles (lead \(host.board.stepLeadCycles ?? 0)), longest bus work \(profile[.outputMainLoop].maxCyclesPerCall), longest frame handling \(profile[.protocolHandler].maxCyclesPerCall)"
            )

            let replay = ModelReplay3(
                board: host.board, timerStart: host.timerStart,
                configuration: Protocol3Board.configuration(info: info, channels: channels),
                faults: [
                    .init(tick: 0, channel: 2, code: 59), .init(tick: 0, channel: 3, code: 59), .init(tick: Int(faultTick), channel: 1, code: 60),
                ])
            #expect(replay.consumed == replay.inputCount)
            #expect(Array(host.allBytes.prefix(replay.bytes.count)) == replay.bytes, "every byte the board sent")
            #expect(host.allBytes.count == replay.bytes.count)
            let count = replay.samples[0].count
            let zero = Self.rtpValues(host, channel: 0, count: count)
            #expect(zero == Self.expected(replay.samples[0]), "channel 0, tick for tick")
            #expect(replay.samples[0].filter { $0.amplitude > 0 }.count > 250)
            let before = Int(faultTick) - 2
            let one = Self.rtpValues(host, channel: 1, count: before)
            #expect(one == Self.expected(Array(replay.samples[1].prefix(before))), "channel 1 until its driver went")
            #expect(host.board.readGlobal("hb_output_late_ticks", size: 2) == 0)

            // DIAG per channel (3.11): each driver's own report
            let diag = try (0..<2).map { c in
                try host.request(.diag(.init(channel: UInt8(c)))) { if case .diagReport = $0 { true } else { false } }
            }
            guard case .diagReport(let zeroReport)? = diag[0], case .diagReport(let oneReport)? = diag[1] else {
                Issue.record("no DIAG_REPORT")
                return
            }
            #expect(zeroReport.channel == 0 && oneReport.channel == 1)
            #expect(zeroReport.report.stageCode == 2 && zeroReport.report.fault.rawValue == 0)
            #expect(zeroReport.report.flags.contains(.calibrated) && !zeroReport.report.flags.contains(.disabled))
            #expect(oneReport.report.fault.rawValue == 60 && oneReport.report.flags.contains(.disabled))
            #expect(oneReport.report.busErrors >= 3 && zeroReport.report.busErrors == 0)

            // the stack (painted at boot, AVRBoardStack.swift) kept the Makefile's reserve of 64 bytes
            let free = try #require(host.board.stackFreeMinimum)
            #expect(free >= 64, "\(free) bytes of RAM the stack never reached")
            print("REPORT stack: \(free) bytes the stack never reached")
        }

        /// The mux's own fault belongs to every channel behind it (3.2): DRIVER_BUS on each, no driver
        /// enabled, and a play on them ends with it.
        @Test func aMuxThatDoesNotAnswerIsAFaultOfEveryChannelWithEveryDriverOff() throws {
            let host = try Self.booted(mux: .absent)
            _ = try host.helloAndDescribe()
            let boot = host.telemetry.filter { $0.event == .fault }.map { [$0.channel, $0.code] }
            #expect(boot == [[0, 60], [1, 60], [2, 60], [3, 60]])
            #expect(!host.board.drv2605lEnabled(channel: 0) && !host.board.drv2605lEnabled(channel: 1))
            #expect(host.board.drv2605lCalibrations(channel: 0) == 0)
            #expect(try host.load(Self.program))
            #expect(try host.ack(.play(.init(play: 1, channels: 0b11, slot: 0, flags: 2))) != nil)
            try host.run(ticks: 40)  // past the stage's wake-up (20 ticks)
            let ended = host.telemetry.filter { $0.play == 1 }.map { [$0.event.rawValue, $0.channel, $0.code] }
            #expect(ended == [[5, 0, 60], [5, 1, 60]], "FAULT instead of STARTED on each channel")
        }

        /// The hard stop (hardware/README.md, "Faults") turns every driver off: a main loop that hangs
        /// during a play on two channels gets the watchdog's interrupt, which drops every EN (D4..D7)
        /// before the reset.
        @Test func aHangTurnsEveryDriverOff() throws {
            let stalling = AVRFirmwareBuild(output: .drv2605lX4, variables: ["DRV_FLAGS": "-DHB_TEST_STALL_AT_STEP=300"])
            let elf = try stalling.build(repositoryRoot: Repository.root.path)
            let host = try Protocol3Board(elf: elf) { board in
                try board.attachTCA9548A(drivers: 2)
                for c in 0..<2 { board.setDRV2605LEnablePin(channel: c, arduinoPin: 4 + c) }
                board.setDRV2605LCalibrationCycles(board.cyclesPerTick * 20)
            }
            _ = try host.helloAndDescribe()
            #expect(try host.load(Self.program))
            #expect(try host.ack(.play(.init(play: 1, channels: 0b11, slot: 0, flags: 2, loops: 0))) != nil)
            let sounding = host.board.cycle
            // the watchdog's interrupt comes 250 ms into the hang, its reset 15 ms (240,000 cycles) later
            for _ in 0..<600 where host.board.resets == 0 { try host.board.run(ticks: 1) }
            #expect(host.board.resets == 1)
            let reset = host.board.cycle
            let off = host.board.events().filter { $0.cycle > sounding && $0.kind == .drv2605lEnable(false) }
            for c in 0..<2 {
                #expect(off.contains { $0.channel == c && $0.cycle < reset - 200_000 }, "driver \(c)'s EN dropped by the interrupt")
            }
        }

        /// A mux whose supply sags when a driver starts to drive comes back with no port connected;
        /// the board finds it at its next check of the mux (every 2 ticks) and reports it on every
        /// channel, every driver off, instead of selecting the port again and going on.
        @Test func aMuxThatLostItsSelectionIsAFaultOfEveryChannel() throws {
            let host = try Self.booted(mux: .powerLoss)
            _ = try host.helloAndDescribe()
            #expect(try host.load(Self.program))
            #expect(try host.ack(.play(.init(play: 1, channels: 0b11, slot: 0, flags: 2))) != nil)
            try host.run(ticks: 150)
            #expect(host.board.tca9548aBrownOuts >= 1)
            let faults = host.telemetry.filter { $0.event == .fault && $0.code == 60 }
            #expect(Set(faults.map(\.channel)) == [0, 1, 2, 3], "DRIVER_BUS on every channel")
            #expect(faults.filter { $0.play == 1 }.map(\.channel).sorted() == [0, 1], "the play ends on both")
            #expect(!host.board.drv2605lEnabled(channel: 0) && !host.board.drv2605lEnabled(channel: 1))
            #expect(host.board.drv2605lOutputVolts(channel: 0) == 0 && host.board.drv2605lOutputVolts(channel: 1) == 0)
        }

        /// The trim (3.10) in the 1-update tick: 250 Timer0 counts of 64 cycles, 2 or 3 counts less
        /// at +1 % (15,840 cycles on average), 2 or 3 more at -1 %.
        @Test func theTrimShortensAndLengthensEveryTick() throws {
            try Self.booted().checkTrim()
        }
    }
#endif
