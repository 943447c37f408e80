// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import HapticTransport
    import SerialBridge
    import TestSupport
    import Testing

    /// `AVRBoardServer.serve`, as `haptic emulate --mcu atmega328p` runs it: the lines it says,
    /// its faults and unplug, a trace that needs a HELLO, and a stop asked by its caller.
    @Suite struct BoardServingTests {
        static let firmware = Result { try AVRFirmwareBuild().build(repositoryRoot: Repository.root.path) }

        @Test func servesForItsSimulatedTimeWithFaultsAndUnplug() throws {
            let path = try Self.firmware.get()
            var options = AVRBoardServer.Options(mcu: "atmega328p", firmware: path)
            options.seconds = 0.05
            options.fast = true
            options.knobs = EmulatorKnobs(faults: try FaultSpec("drop=0.1,seed=2"), trace: "/nonexistent/trace.jsonl", unplugAfter: 0.02)
            var lines: [String] = []
            try AVRBoardServer.serve(options, stopRequested: { false }, log: { lines.append($0) })
            try #require(lines.count == 7, "\(lines)")
            #expect(lines[0] == "emulating atmega328p at 16 MHz running \(path)")
            #expect(lines[1].hasPrefix("serial port: /dev/") && lines[1].hasSuffix("with --trace, opening it does not reset the board)"))
            #expect(lines[2] == "faults on the pty: drop=0.1,seed=2")
            #expect(lines[3] == "unplugged after 0.0 s: the pty is closed, the board runs on")
            // 0.05 s at 16 MHz, to the slice.
            let cycles = try #require(lines[4].split(separator: " ").dropFirst(2).first.flatMap { UInt64($0) })
            #expect(cycles >= 800_000 && cycles < 1_600_000)
            #expect(lines[5].hasPrefix("faults: to the board 0 bytes, 0 dropped"))
            #expect(lines[6] == "trace: not written: no host said HELLO, so the board's configuration (its INFO) is unknown")
        }

        @Test func stopsAtTheFirstSliceWhenAsked() throws {
            var options = AVRBoardServer.Options(mcu: "atmega328p", firmware: try Self.firmware.get())
            options.fast = true
            var asked = 0
            var lines: [String] = []
            try AVRBoardServer.serve(
                options,
                stopRequested: {
                    asked += 1
                    return true
                }, log: { lines.append($0) })
            #expect(asked == 1)
            #expect(lines.count == 3 && lines[1].hasSuffix("opening it resets the board, as an Arduino's DTR does)"))
            #expect(lines[2].hasPrefix("stopped after "))
        }
    }
#endif
