// The micro:bit tests reach the simulated boards' code: built with the package trait "Emulator" only.
#if Emulator
    import Foundation
    import HapticTrace
    import HapticTransport
    import QEMUEmulator
    import Testing

    /// `QEMUBoardServer.serve`, as `haptic emulate --mcu cortex-m` runs it: the lines it says, and
    /// what it refuses.
    @Suite struct MicrobitServingTests {
        @Test func servesForItsTimeAndSaysSo() throws {
            var lines: [String] = []
            try QEMUBoardServer.serve(
                firmware: MicrobitSession.firmware, seconds: 0.3, knobs: EmulatorKnobs(trace: "/nonexistent/trace.jsonl"),
                stopRequested: { false }, log: { lines.append($0) })
            try #require(lines.count == 4, "\(lines)")
            #expect(lines[0].hasPrefix("emulating the BBC micro:bit (nRF51822, Cortex-M0) in QEMU's microbit machine, in real time, running "))
            #expect(lines[1].hasPrefix("serial port: /dev/"))
            #expect(lines[2].hasPrefix("stopped after ") && lines[2].hasSuffix(" bytes out"))
            #expect(lines[3] == "trace: not written: no host said HELLO, so the board's configuration (its INFO) is unknown")
        }

        @Test func faultsAreRefusedBeforeAnythingStarts() throws {
            var lines: [String] = []
            let knobs = EmulatorKnobs(faults: try FaultSpec("drop=0.1"))
            #expect {
                try QEMUBoardServer.serve(firmware: nil, seconds: 1, knobs: knobs, stopRequested: { false }, log: { lines.append($0) })
            } throws: { error in
                "\(error)" == "--faults is not available with --mcu cortex-m yet (use --mcu atmega328p)"
            }
            #expect(lines.isEmpty)
        }
    }
#endif
