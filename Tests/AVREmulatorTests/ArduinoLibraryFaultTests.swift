// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import HapticProtocol
    import TestSupport
    import Testing

    /// The Arduino DRV2605L stage's safety contract in the simulated Uno (the DRV2605L example,
    /// HapticDRV2605L.h), each check failing when its fix is taken out: DEV_RESET before anything else,
    /// even after a reset that left the chip driving; EN (D4, PD4) high only while the stage works and
    /// dropped on a fault; the driver watched whatever the pattern (a play whose amplitude changes every
    /// tick still meets OVER_TEMP within the poll interval), and a fault leaves it at RTP 0 in standby.
    @Suite(.serialized) struct ArduinoLibraryFaultTests {
        static let portD: UInt16 = 0x2B
        static let ddrD: UInt16 = 0x2A
        static let enableBit: UInt8 = 1 << 4

        static func boot(fault: DRV2605LFault = .none) throws -> HostLink {
            let board = try AVRBoard(firmware: try ArduinoLibraryTests.elf.get())
            board.setDRV2605LFault(fault)
            var link = HostLink(board: board)
            let reset = try link.await(ticks: 3_000) { if case .reset = $0 { return true } else { return false } }
            #expect(reset != nil, "no RESET")
            return link
        }

        /// EN as the pin drives it: true high, false low, nil not an output.
        static func enable(_ board: AVRBoard) -> Bool? {
            guard board.readData(ddrD) & enableBit != 0 else { return nil }
            return board.readData(portD) & enableBit != 0
        }

        /// The DRV2605L register writes of the run, in order.
        static func writes(_ board: AVRBoard, after cycle: UInt64 = 0) -> [(register: UInt8, value: UInt8)] {
            board.events().compactMap { event in
                guard case .drv2605lWrite(let register) = event.kind, event.cycle >= cycle else { return nil }
                return (register, event.value)
            }
        }

        /// Uploads `program` to slot 0 in chunks the example's 63-byte receive buffer takes, and plays it.
        static func play(_ program: [UInt8], link: inout HostLink) throws -> UInt32 {
            for offset in stride(from: 0, to: program.count, by: 50) {
                let chunk = Array(program[offset..<min(program.count, offset + 50)])
                let sent = try link.send(.upload(.init(slot: 0, offset: UInt32(offset), data: chunk)))
                #expect(try link.response(to: sent.sequence)?.isAck == true)
            }
            let commit = try link.send(.commit(.init(slot: 0, program: program)))
            #expect(try link.response(to: commit.sequence)?.ackValue != nil)
            let play = try link.send(.play(.init(slot: 0)))
            return try #require(try link.response(to: play.sequence)?.ackValue)
        }

        @Test func devResetComesFirstAtEveryBeginEvenAfterAResetMidPlay() throws {
            var link = try Self.boot()
            let board = link.board
            #expect(Self.writes(board).first.map { [$0.register, $0.value] } == [0x01, 0x80], "\(Self.writes(board).prefix(3))")
            #expect(Self.enable(board) == true)
            _ = try Self.play(BoardBudget.busy, link: &link)
            try board.run(ticks: 50)
            #expect(board.drv2605lRegister(0x02) != 0, "the chip drives")
            // A reset (the port opened again, a watchdog) while the chip drives: the next begin() resets
            // it before it writes anything else.
            let resetCycle = board.cycle
            board.reset(bootloaderCycles: board.cyclesPerTick * 10)
            _ = try link.await(ticks: 3_000) { if case .reset = $0 { return true } else { return false } }
            let after = Self.writes(board, after: resetCycle)
            #expect(after.first.map { [$0.register, $0.value] } == [0x01, 0x80], "\(after.prefix(3))")
            #expect(board.drv2605lRegister(0x02) == 0 && board.drv2605lRegister(0x01) == 0x05)
        }

        @Test func enIsDroppedWhenTheDriverIsAbsent() throws {
            let link = try Self.boot(fault: .driverAbsent)
            #expect(Self.enable(link.board) == false, "EN must be driven low")
        }

        /// OVER_TEMP while a play changes its amplitude every tick: found by the check (STATUS every 16 ticks),
        /// reported, and the chip left at RTP 0 in standby with EN low.
        @Test func overTemperatureDuringABusyPlayIsCaughtAndStopsTheChip() throws {
            var link = try Self.boot(fault: .overtemp)
            let board = link.board
            #expect(Self.enable(board) == true)
            let start = try Self.play(BoardBudget.busy, link: &link)
            let fault = try link.await(ticks: 200) {
                if case .telemetry(let t) = $0 { return t.event == .fault } else { return false }
            }
            guard case .telemetry(let t)? = fault?.message else {
                Issue.record("no FAULT within 200 ticks of the play")
                return
            }
            #expect(t.code == 62, "\(t)")
            #expect(Int(t.tick) - Int(start) <= 16 + 2, "the fault came \(Int(t.tick) - Int(start)) ticks into the play")
            #expect(board.drv2605lRegister(0x02) == 0, "RTP")
            #expect(board.drv2605lRegister(0x01) & 0x40 == 0x40, "standby")
            #expect(Self.enable(board) == false, "EN")
        }

        /// An LRA profile on the H-bridge stage: begin() false, the device runs to say why and refuses
        /// every play with 76 UNSUPPORTED (TELEMETRY FAULT, DIAG_REPORT), and neither PWM pin (Timer1's
        /// OCR1A, OCR1B) ever leaves 0.
        @Test func aPWMStageGivenAnLRARefusesEveryPlayAndDrivesNothing() throws {
            let elf = try ArduinoLibraryStackTests.arduinoELF("hardware/arduino/test-sketches/PWMRefusesLRA")
            var link = HostLink(board: try AVRBoard(firmware: elf))
            let board = link.board
            #expect(try link.await(ticks: 100) { if case .reset = $0 { return true } else { return false } } != nil, "no RESET")
            let refused = try link.await(ticks: 10) {
                if case .telemetry(let t) = $0 { return t.event == .fault && t.code == 76 } else { return false }
            }
            #expect(refused != nil, "no FAULT 76 at the first step")
            let before = link.received.count
            _ = try Self.play(BoardBudget.busy, link: &link)
            try board.run(ticks: 100)  // past the stage's wake ticks, when the play would start
            link.pump()
            let ends = link.received.dropFirst(before).compactMap { r -> Message.Telemetry? in
                if case .telemetry(let t) = r.message, t.slot == 0 { return t } else { return nil }
            }
            // FAULT instead of STARTED (PROTOCOL.md 2.18): the play never starts
            #expect(ends.map(\.event) == [.fault] && ends.first?.code == 76, "\(ends)")
            try board.run(ticks: 100)
            let diag = try link.send(.diag(.init()))
            let report = try link.await(ticks: 10) { if case .diagReport = $0 { return true } else { return false } }
            guard case .diagReport(let d)? = report?.message else {
                Issue.record("no DIAG_REPORT to DIAG \(diag.sequence)")
                return
            }
            #expect(d.fault.rawValue == 76 && d.ratedMillivolts == 0 && d.limitMillivolts == 0, "\(d)")
            let driven = board.events().filter { ($0.kind == .ocr1a || $0.kind == .ocr1b) && $0.value != 0 }
            #expect(driven.isEmpty, "a PWM pin was driven: \(driven.prefix(3))")
        }

        /// The bus lost while the chip calibrates (SDA held low from then on): the reads of GO and STATUS
        /// fail, which is not a passed calibration (a failed read used to read as 0: GO done, no
        /// DIAG_RESULT). The stage reports 60 DRIVER_BUS, not calibrated, EN low, and refuses plays.
        @Test func aBusLostDuringCalibrationIsNotAPassedCalibration() throws {
            let board = try AVRBoard(firmware: try ArduinoLibraryTests.elf.get())
            board.setDRV2605LCalibrationCycles(board.cyclesPerTick * 200)
            var link = HostLink(board: board)
            // until GO is written (the calibration starts), then 20 ms into it
            while !Self.writes(board).contains(where: { $0.register == 0x0C && $0.value == 1 }) && board.cycle < board.cyclesPerTick * 100 {
                try board.run(ticks: 1)
            }
            try #require(Self.writes(board).contains { $0.register == 0x0C }, "no calibration started")
            try board.run(ticks: 20)
            board.setDRV2605LFault(.busLost)
            #expect(try link.await(ticks: 3_000) { if case .reset = $0 { return true } else { return false } } != nil, "no RESET")
            let diag = try link.send(.diag(.init()))
            let report = try link.await(ticks: 10) { if case .diagReport = $0 { return true } else { return false } }
            guard case .diagReport(let d)? = report?.message else {
                Issue.record("no DIAG_REPORT to DIAG \(diag.sequence)")
                return
            }
            #expect(d.fault.rawValue == 60, "\(d)")
            #expect(d.flags.contains(.present) && !d.flags.contains(.calibrated), "\(d)")
            #expect(Self.enable(board) == false, "EN")
        }
    }
#endif
