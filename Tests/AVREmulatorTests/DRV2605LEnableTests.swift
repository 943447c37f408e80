// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import HapticProtocol
    import TestSupport
    import Testing

    /// The DRV2605L stage's stop that always lands and its watch over the chip (hardware/README.md
    /// "Faults", PROTOCOL.md 2.18), on the wiring guide's board: EN on D4 with a pull-down. EN is low
    /// from reset until the bus answers and drops on every stage fault, whether or not the bus still
    /// works; the chip is checked at a fixed rate whatever plays, so a shutdown or a chip that lost its
    /// settings is found within a bound.
    @Suite struct DRV2605LEnableTests {
        /// A board with EN wired to D4, `fault` from power-up, booted and past HELLO.
        static func booted(fault: DRV2605LFault = .none) throws -> HostLink {
            let board = try AVRBoard(firmware: DRV2605LFaultTests.build.build(repositoryRoot: Repository.root.path))
            board.setDRV2605LEnablePin(true)
            board.setDRV2605LFault(fault)
            var link = HostLink(board: board)
            let reset = try link.await(ticks: 100) { if case .reset = $0 { return true } else { return false } }
            #expect(reset != nil)
            let hello = try link.send(.hello(.init()))
            #expect(try link.response(to: hello.sequence) != nil)
            return link
        }

        /// A ramp up and down over 400 ticks: the RTP value changes at every tick.
        static let ramp: [UInt8] = {
            var b = ProgramBuilder()
            b.append(.rampA(to: 255, duration: 200), at: 0)
            b.append(.rampA(to: 1, duration: 199), at: 200)
            return b.program(endingAt: 400).bytes
        }()

        /// Plays `program` until stopped and waits `ticks` into it.
        static func playing(_ link: inout HostLink, _ program: [UInt8] = ramp, ticks: Int = 40) throws {
            try DeviceFirmwareTests.upload(program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0, loops: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            _ = try link.await(ticks: ticks) { _ in false }
        }

        /// The first FAULT within `ticks`: its code and the tick it came.
        static func fault(_ link: inout HostLink, within ticks: Int) throws -> Message.Telemetry? {
            let reply = try link.await(ticks: ticks) { if case .telemetry(let t) = $0, t.event == .fault { return true } else { return false } }
            if case .telemetry(let t)? = reply?.message { return t }
            return nil
        }

        @Test func enIsLowFromResetAndRisesOnlyBeforeTheFirstTransfer() throws {
            let link = try Self.booted()
            let board = link.board
            #expect(board.drv2605lEnabled)
            let events = board.events()
            let rise = try #require(events.first { $0.kind == .drv2605lEnable(true) }, "EN never rose")
            let firstWrite = try #require(events.first { if case .drv2605lWrite = $0.kind { return true } else { return false } })
            #expect(rise.cycle < firstWrite.cycle, "EN high before the first transfer (TI's start-up)")
            #expect(!events.contains { $0.kind == .drv2605lEnable(true) && $0.cycle > rise.cycle }, "once")
            // A reset of the MCU: the pin floats to its pull-down at once, whatever the chip was doing.
            board.reset(bootloaderCycles: board.cyclesPerTick)
            #expect(!board.drv2605lEnabled)
        }

        /// SDA held low mid-play: no transfer gets through, so no stop can be written; EN drops and the
        /// play ends with DRIVER_BUS. The worst the stage's main-loop work takes meanwhile is measured.
        @Test(arguments: [DRV2605LFault.busLost, .busHang])
        func aBusLostMidPlayDropsEnAndEndsThePlay(fault: DRV2605LFault) throws {
            var link = try Self.booted()
            try Self.playing(&link)
            #expect(link.board.drv2605lOutputVolts > 0)
            link.board.resetProfile()
            link.board.setDRV2605LFault(fault)
            let t = try #require(try Self.fault(&link, within: 60), "no FAULT")
            #expect(t.code == MessageErrorCode.driverBus.rawValue)
            #expect(!link.board.drv2605lEnabled, "EN dropped")
            #expect(link.board.drv2605lOutputVolts == 0)
            let worst = link.board.profile().entries[.outputMainLoop]?.maxCyclesPerCall ?? 0
            let ms = Double(worst) / 16_000
            // 3 attempts, each a wait of at most 2,000 polls for TWINT and 2,000 for the STOP.
            #expect(ms < 8, "one register access with the bus lost: \(ms) ms")
            print("REPORT DRV2605L \(fault.rawValue) mid-play: FAULT DRIVER_BUS, EN low; worst output work \(worst) cycles (\(ms) ms)")
        }

        /// The chip loses power mid-play and comes back at its defaults, in standby, acknowledging
        /// writes: the MODE read-back finds it within 32 ticks, the play ends with DRIVER_RESET, EN drops
        /// and the stage stays off.
        @Test func aDriverThatLostPowerIsFoundAndLeftOff() throws {
            var link = try Self.booted()
            try Self.playing(&link)
            let before = link.board.cycle
            link.board.drv2605lPowerLoss()
            let t = try #require(try Self.fault(&link, within: 60), "no FAULT")
            #expect(t.code == MessageErrorCode.driverReset.rawValue)
            let ticks = (link.board.cycle - before) / link.board.cyclesPerTick
            #expect(!link.board.drv2605lEnabled)
            let report = try DRV2605LFaultTests.diag(&link)
            #expect(report.fault == .driverReset && report.flags.contains(.disabled))
            print("REPORT DRV2605L power loss mid-play: DRIVER_RESET within \(ticks) ticks")
        }

        /// A pattern whose RTP value changes every tick still has STATUS read (every 16 ticks): an
        /// over-temperature shutdown mid-ramp ends the play within 32 ticks.
        @Test func statusIsReadWhileTheAmplitudeChangesEveryTick() throws {
            var link = try Self.booted()
            try Self.playing(&link)
            let start = link.board.cycle
            link.board.setDRV2605LFault(.overtemp)
            let t = try #require(try Self.fault(&link, within: 60), "no FAULT while ramping")
            #expect(t.code == MessageErrorCode.overTemperature.rawValue)
            #expect((link.board.cycle - start) / link.board.cyclesPerTick <= 40)
            #expect(!link.board.drv2605lEnabled)
        }

        /// `haptic emulate --fault power-loss`: the chip browns out when it first drives.
        @Test func aSupplyThatSagsUnderTheLoadEndsTheFirstPlay() throws {
            var link = try Self.booted(fault: .powerLoss)
            try Self.playing(&link, ticks: 0)
            let t = try #require(try Self.fault(&link, within: 80), "no FAULT")
            #expect(t.code == MessageErrorCode.driverReset.rawValue)
            #expect(link.board.drv2605lBrownOuts >= 1)
        }

        /// `haptic emulate --fault bus-lost` from power-up: the bus recovery at boot fails, EN never rises.
        @Test func aBusLostAtBootNeverEnablesTheChip() throws {
            var link = try Self.booted(fault: .busLost)
            #expect(!link.board.events().contains { $0.kind == .drv2605lEnable(true) })
            let report = try DRV2605LFaultTests.diag(&link)
            #expect(report.fault == .driverBus)
        }
    }
#endif
