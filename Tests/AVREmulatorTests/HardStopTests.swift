// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticProtocol
    import TestSupport
    import Testing

    /// The hard stop (hardware/README.md, "Faults"): a main loop that stalls gets the AVR watchdog's
    /// interrupt at 250 ms, which turns the outputs off and has the watchdog reset the MCU 15 ms later;
    /// from reset until the stage's init the outputs are safe.
    @Suite struct HardStopTests {
        /// A test image whose main loop hangs at step 300 (interrupts still running).
        static let stalling = AVRFirmwareBuild(variables: ["DRV_FLAGS": "-DHB_TEST_STALL_AT_STEP=300"])

        @Test func aStalledMainLoopIsResetByTheWatchdog() throws {
            var link = try DeviceFirmwareTests.bootedLink(Self.stalling)
            let board = link.board
            try DeviceFirmwareTests.upload(DeviceFirmwareTests.program, slot: 0, link: &link)
            let play = try link.send(.play(.init(slot: 0, loops: 0)))
            #expect(try link.response(to: play.sequence)?.isAck == true)
            // Step 300 hangs; the watchdog's interrupt (250 ms: 4,000,000 cycles of its 128 kHz
            // oscillator's count) turns the outputs off and the reset 15 ms later restarts the MCU,
            // which boots and says so.
            let before = board.cycle
            let reset = try link.await(ticks: 600) { if case .reset = $0 { return true } else { return false } }
            guard case .reset(let notice)? = reset?.message else {
                Issue.record("no RESET after the stall")
                return
            }
            #expect(notice.reason == .hardwareWatchdog)
            #expect(board.resets == 1)
            let stalledTicks = Int((reset!.cycle - before) / board.cyclesPerTick)
            // From the reset on, the bridge's inputs are low and stay so until a play drives them.
            let events = board.events()
            let lastResetWrite = events.lastIndex { $0.kind == .tickTimerStart } ?? 0
            let after = events[lastResetWrite...].filter { $0.kind == .ocr1a || $0.kind == .ocr1b }
            #expect(after.allSatisfy { $0.value == 0 }, "outputs after the reset: \(after.prefix(4))")
            #expect(board.readData(0x24) & 0x06 == 0x06 && board.readData(0x25) & 0x06 == 0, "D9 and D10 outputs, low")
            print(
                "REPORT hard stop: the main loop hung during a play; the watchdog reset the MCU and its RESET notice (reason \(notice.reason.map { "\($0)" } ?? "?")) came \(stalledTicks) ticks later, outputs low from reset"
            )
        }
    }
#endif
