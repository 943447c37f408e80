// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import HapticProtocol
    import TestSupport
    import Testing

    /// The firmware behind the real bootloaders of Debian's arduino-core-avr (hardware/README.md,
    /// "Bootloaders"): after the watchdog's hard stop and after RECALIBRATE the board comes back as a
    /// working device with each, and its RESET says why it started.
    @Suite(.enabled(if: AVRBootloader.allCases.allSatisfy { $0.problem == nil }, "needs arduino-core-avr's bootloader images"))
    struct BootloaderTests {
        static func build(_ bootloader: AVRBootloader, stallAt step: Int? = nil) -> AVRFirmwareBuild {
            var build = AVRFirmwareBuild(output: .drv2605l)
            bootloader.configure(&build)
            if let step { build.variables["DRV_FLAGS"] = "-DHB_TEST_STALL_AT_STEP=\(step)" }
            return build
        }

        /// A board with `bootloader` in flash at its address, EN wired, powered up: the firmware's RESET.
        static func powered(_ bootloader: AVRBootloader, stallAt step: Int? = nil) throws -> (HostLink, Message.Reset) {
            let board = try AVRBoard(firmware: build(bootloader, stallAt: step).build(repositoryRoot: Repository.root.path))
            board.setDRV2605LEnablePin(true)
            try board.loadBootloader(bootloader.hexPath)
            var link = HostLink(board: board)
            let reset = try link.await(ticks: 4_000) { if case .reset = $0 { return true } else { return false } }
            guard case .reset(let notice)? = reset?.message else { throw AVRBoardError.load("\(bootloader): no RESET at power-up") }
            return (link, notice)
        }

        /// The next RESET within `ticks`, then HELLO answered with INFO.
        static func comesBack(_ link: inout HostLink, within ticks: Int) throws -> (Message.Reset, Message.Info) {
            let reset = try link.await(ticks: ticks) { if case .reset = $0 { return true } else { return false } }
            guard case .reset(let notice)? = reset?.message else { throw AVRBoardError.load("no RESET within \(ticks) ticks") }
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello.sequence)?.message else { throw AVRBoardError.load("no INFO") }
            return (notice, info)
        }

        /// A play of the test program to FINISHED.
        static func playsToTheEnd(_ link: inout HostLink) throws -> Bool {
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0)))
            guard try link.response(to: play.sequence)?.isAck == true else { return false }
            let end = try link.await(ticks: 400) {
                if case .telemetry(let t) = $0, t.event == .finished || t.event == .fault { return true } else { return false }
            }
            if case .telemetry(let t)? = end?.message { return t.event == .finished }
            return false
        }

        @Test(arguments: AVRBootloader.allCases)
        func recalibrateComesBackAsAWorkingDevice(bootloader: AVRBootloader) throws {
            var (link, _) = try Self.powered(bootloader)
            let board = link.board
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello.sequence)?.message else {
                Issue.record("no INFO")
                return
            }
            #expect(info.capabilities.contains(.softRestart) == (bootloader == .atmegaboot))
            let recalibrate = try link.send(.setConfig(.init(key: .recalibrate, value: 1)))
            #expect(try link.response(to: recalibrate.sequence)?.ackValue == 1)
            let (notice, _) = try Self.comesBack(&link, within: 4_000)
            #expect(notice.reason == .software)
            #expect(board.drv2605lCalibrations == 2, "calibrated again")
            #expect(try Self.playsToTheEnd(&link))
            #expect(board.resets == (bootloader == .atmegaboot ? 0 : 1), "a watchdog reset only where the bootloader survives it")
            print("REPORT \(bootloader.rawValue): RECALIBRATE came back (RESET \(notice.reason.map { "\($0)" } ?? "?")), a play finished")
        }

        @Test(arguments: AVRBootloader.allCases)
        func theHardStopComesBackAsAWorkingDevice(bootloader: AVRBootloader) throws {
            var (link, _) = try Self.powered(bootloader, stallAt: 300)
            let board = link.board
            let hello = try link.send(.hello(.init()))
            #expect(try link.response(to: hello.sequence) != nil)
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0, loops: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            let before = board.cycle
            let (notice, _) = try Self.comesBack(&link, within: 4_000)
            #expect(notice.reason == .hardwareWatchdog)
            #expect(board.resets == (bootloader == .atmegaboot ? 0 : 1))
            let ticks = (board.cycle - before) / board.cyclesPerTick
            #expect(try Self.playsToTheEnd(&link), "a play after the hard stop (the stall comes again at step 300 only)")
            print("REPORT \(bootloader.rawValue): hard stop came back within \(ticks) ticks, a play finished")
        }

        /// Why the ATmegaBOOT build restarts in software: the firmware built for Optiboot (a watchdog
        /// reset for RECALIBRATE) behind ATmegaBOOT never comes back; the chip resets every 16 ms.
        @Test func aWatchdogResetLoopsForGoodInATmegaBOOT() throws {
            let board = try AVRBoard(firmware: Self.build(.optiboot).build(repositoryRoot: Repository.root.path))
            try board.loadBootloader(AVRBootloader.atmegaboot.hexPath)
            var link = HostLink(board: board)
            _ = try #require(try link.await(ticks: 4_000) { if case .reset = $0 { return true } else { return false } })
            let hello = try link.send(.hello(.init()))
            #expect(try link.response(to: hello.sequence) != nil)
            let recalibrate = try link.send(.setConfig(.init(key: .recalibrate, value: 1)))
            #expect(try link.response(to: recalibrate.sequence)?.ackValue == 1)
            let again = try link.await(ticks: 3_000) { if case .reset = $0 { return true } else { return false } }
            #expect(again == nil, "no RESET: the firmware never runs again")
            #expect(board.resets > 100, "\(board.resets) watchdog resets in 3 s")
            print("REPORT atmegaboot with a watchdog reset: \(board.resets) resets in 3 s, the firmware never ran again")
        }

        /// After a reset pin (an Arduino's DTR), Optiboot clears MCUSR and passes nothing on: the
        /// firmware says it does not know, not a made-up reason; ATmegaBOOT leaves MCUSR as it was.
        @Test(arguments: AVRBootloader.allCases)
        func theResetReasonIsTrueBehindEachBootloader(bootloader: AVRBootloader) throws {
            var (link, _) = try Self.powered(bootloader)
            let before = link.board.cycle
            link.board.reset(bootloaderCycles: 0)
            let reset = try link.await(ticks: 4_000) { if case .reset = $0 { return true } else { return false } }
            guard case .reset(let notice)? = reset?.message else {
                Issue.record("no RESET after the reset pin")
                return
            }
            #expect(notice.reason == (bootloader == .optiboot ? .unknown : .resetPin), "\(notice)")
            let ms = (reset!.cycle - before) / link.board.cyclesPerTick
            print(
                "REPORT \(bootloader.rawValue): from the reset pin to the firmware's RESET notice \(ms) ms (the bootloader's wait, then a calibration-free boot)"
            )
        }
    }
#endif
