// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import TestSupport
    import Testing

    /// The DRV2605L stage on a simulated chip that fails (PROTOCOL.md 2.18, hardware/README.md
    /// "Faults"): every failure is reported (DIAG_REPORT, and a play ends with TELEMETRY FAULT instead
    /// of playing silence), calibration is kept in EEPROM across resets, a stuck bus is recovered,
    /// and the chip's output follows the datasheet's equations.
    @Suite struct DRV2605LFaultTests {
        static let build = AVRFirmwareBuild(output: .drv2605l)

        /// A board running the DRV2605L firmware whose chip has `fault` from power-up, after its RESET.
        static func booted(fault: DRV2605LFault = .none, build: AVRFirmwareBuild = build) throws -> HostLink {
            let board = try AVRBoard(firmware: build.build(repositoryRoot: Repository.root.path))
            board.setDRV2605LFault(fault)
            var link = HostLink(board: board)
            let reset = try link.await(ticks: 100) { if case .reset = $0 { return true } else { return false } }
            #expect(reset != nil)
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello.sequence)?.message else {
                Issue.record("no INFO")
                return link
            }
            #expect(info.capabilities.contains(.diag))
            return link
        }

        static func diag(_ link: inout HostLink) throws -> Message.DiagReport {
            try link.send(.diag(.init()))
            let reply = try link.await(ticks: 20) { if case .diagReport = $0 { return true } else { return false } }
            guard case .diagReport(let report)? = reply?.message else {
                throw AVRBoardError.load("no DIAG_REPORT")
            }
            return report
        }

        static func telemetry(_ link: HostLink) -> [Message.Telemetry] {
            link.received.compactMap { if case .telemetry(let t) = $0.message { return t } else { return nil } }
        }

        @Test func aHealthyBoardReportsItsDriverAndCalibration() throws {
            var link = try Self.booted()
            let report = try Self.diag(&link)
            #expect(report.stage == .drv2605l && report.fault.rawValue == 0)
            #expect(report.flags == [.present, .calibrated])
            #expect(report.calibrationCompensation == 0x0D && report.calibrationBackEMF == 0x79)
            #expect(report.feedbackControl & 0x80 == 0x80 && report.feedbackControl & 0x03 == 0x02)
            let hz = try #require(report.measuredResonanceHz)
            #expect(abs(hz - 170) < 3, "LRA_PERIOD \(report.lraPeriod): \(hz) Hz")
            #expect(report.ratedMillivolts == 2_000 && report.limitMillivolts == 2_500)
            #expect(report.busErrors == 0 && report.retries == 0)
            print("REPORT DRV2605L diagnostics: \(report)")
        }

        /// Each failure, from power-up: the board says which (DIAG_REPORT), and a play ends with the
        /// fault instead of STARTED (absent, calibration) or right after it, when the chip shuts its
        /// output down (over-temperature, over-current: STATUS is read every 16 ticks).
        @Test(arguments: [
            (DRV2605LFault.driverAbsent, MessageErrorCode.driverAbsent), (.calibrationFails, .calibrationFailed),
            (.overtemp, .overTemperature), (.overcurrent, .overCurrent),
        ])
        func aFaultIsReportedInsteadOfSilence(fault: DRV2605LFault, code: MessageErrorCode) throws {
            var link = try Self.booted(fault: fault)
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            let faulted = try link.await(ticks: 400) {
                if case .telemetry(let t) = $0, t.event == .fault { return true } else { return false }
            }
            guard case .telemetry(let t)? = faulted?.message else {
                Issue.record("\(fault): no FAULT, telemetry \(Self.telemetry(link))")
                return
            }
            #expect(t.code == code.rawValue && t.slot == 0, "\(t)")
            let started = Self.telemetry(link).contains { $0.event == .started }
            #expect(started == (fault == .overtemp || fault == .overcurrent), "\(fault): STARTED only when the chip drives")
            let report = try Self.diag(&link)
            #expect(report.fault == code)
            #expect(report.flags.contains(.present) == (fault != .driverAbsent))
            if fault == .overtemp || fault == .overcurrent {
                #expect(report.flags.contains(.standby), "the chip is left in standby")
                #expect(link.board.drv2605lOutputVolts == 0)
            }
            // Every later play ends with it at once.
            let again = try link.send(.play(.init(slot: 0)))
            #expect(try link.response(to: again.sequence)?.isAck == true)
            _ = try link.await(ticks: 30) { _ in false }
            let last = Self.telemetry(link).last
            #expect(last?.event == .fault && last?.code == code.rawValue)
            print(
                "REPORT DRV2605L \(fault.rawValue): FAULT \(code) at tick \(t.tick); DIAG flags \(report.flags.rawValue), status 0x\(String(report.driverStatus, radix: 16))"
            )
        }

        /// A short play whose drive changes every tick (a ramp up and down, 40 ticks, as impact.heavy
        /// is): the chip shut down at its first drive, and the play must end with that fault, not
        /// FINISHED (the STATUS poll was starved by the RTP writes until the play was over).
        @Test(arguments: [(DRV2605LFault.overtemp, MessageErrorCode.overTemperature), (.overcurrent, .overCurrent)])
        func aShortPlayOnAFaultedChipEndsWithTheFault(fault: DRV2605LFault, code: MessageErrorCode) throws {
            var link = try Self.booted(fault: fault)
            var builder = ProgramBuilder()
            builder.rampA(to: 255, duration: 20, at: 0)
            builder.rampA(to: 1, duration: 20, at: 20)
            let program = builder.program(endingAt: 40)
            try DeviceFirmwareTests.upload(program.bytes, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            let ended = try link.await(ticks: 200) {
                if case .telemetry(let t) = $0, t.event == .fault || t.event == .finished { return true } else { return false }
            }
            guard case .telemetry(let t)? = ended?.message else {
                Issue.record("\(fault): no end, telemetry \(Self.telemetry(link))")
                return
            }
            #expect(t.event == .fault && t.code == code.rawValue, "\(fault): \(t)")
            #expect(link.board.drv2605lOutputVolts == 0)
        }

        /// The chip stops answering mid-play: the RTP writes fail after their retries, and the play ends
        /// with DRIVER_BUS (the board cannot stop a chip it cannot reach, but says so).
        @Test func aBusFailureMidPlayIsReported() throws {
            var link = try Self.booted()
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0, loops: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            _ = try link.await(ticks: 40) { _ in false }
            link.board.setDRV2605LFault(.driverAbsent)
            let faulted = try link.await(ticks: 100) {
                if case .telemetry(let t) = $0, t.event == .fault { return true } else { return false }
            }
            guard case .telemetry(let t)? = faulted?.message else {
                Issue.record("no FAULT: \(Self.telemetry(link))")
                return
            }
            #expect(t.code == MessageErrorCode.driverBus.rawValue)
            let report = try Self.diag(&link)
            #expect(report.busErrors >= 3)
        }

        /// A slave cut off mid-byte holds SDA low: the board clocks it free at boot and carries on.
        @Test func aStuckBusIsRecoveredAtBoot() throws {
            var link = try Self.booted(fault: .busStuck)
            let report = try Self.diag(&link)
            #expect(report.fault.rawValue == 0 && report.flags.contains(.present) && report.flags.contains(.calibrated), "\(report)")
        }

        /// Calibration once: the results go to EEPROM with the profile they belong to, and a reset (an
        /// Arduino resets whenever its port is opened) reuses them; RECALIBRATE forgets them and restarts.
        @Test func calibrationIsKeptAcrossResetsAndRedoneOnRequest() throws {
            var link = try Self.booted()
            let board = link.board
            #expect(board.drv2605lCalibrations == 1)
            board.reset(bootloaderCycles: board.cyclesPerTick * 10)
            let reset = try link.await(ticks: 100) { if case .reset = $0 { return true } else { return false } }
            #expect(reset != nil)
            let hello = try link.send(.hello(.init()))
            #expect(try link.response(to: hello.sequence) != nil)
            var report = try Self.diag(&link)
            #expect(board.drv2605lCalibrations == 1, "no second calibration")
            #expect(report.flags == [.present, .calibrated, .stored])
            #expect(report.calibrationCompensation == 0x0D && report.calibrationBackEMF == 0x79)
            #expect(board.drv2605lRegister(0x18) == 0x0D && board.drv2605lRegister(0x19) == 0x79)

            let before = link.received.count
            let recalibrate = try link.send(.setConfig(.init(key: .recalibrate, value: 1)))
            #expect(try link.response(to: recalibrate.sequence)?.ackValue == 1)
            let again = try link.await(ticks: 400) { if case .reset = $0 { return true } else { return false } }
            guard case .reset(let notice)? = again?.message else {
                Issue.record("no RESET after RECALIBRATE: \(link.received[before...].map(\.message))")
                return
            }
            #expect(notice.reason == .software || notice.reason == .hardwareWatchdog)
            #expect(board.drv2605lCalibrations == 2)
            let hello2 = try link.send(.hello(.init()))
            #expect(try link.response(to: hello2.sequence) != nil)
            report = try Self.diag(&link)
            #expect(report.flags == [.present, .calibrated])
        }
    }
#endif
