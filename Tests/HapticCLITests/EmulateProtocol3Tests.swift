import Foundation
import TestSupport
import Testing

/// `haptic emulate --protocol 3`: the 3.0 virtual device's shape from the command line, its
/// flags' ranges and defaults in --help, and the command lines it refuses (exit 64, one line).
/// What the device answers on its pty: HapticVirtualDeviceTests.VirtualDevice3Tests.
@Suite struct EmulateProtocol3Tests {
    @Test func servesTheAskedShapeAndStopsCleanly() throws {
        let emulator = try HapticProcess(["emulate", "--protocol", "3", "--channels", "3", "--players", "5"])
        defer { emulator.send(SIGKILL) }
        #expect(emulator.waitForPTY(timeout: 60) != nil, "\(emulator.standardError)")
        emulator.send(SIGINT)
        #expect(emulator.waitForExit(timeout: 20) == 0, "\(emulator.standardError)")
        let lines = emulator.standardOutput.split(separator: "\n")
        #expect(lines.first?.contains("firmware model, protocol 3.0: 3 channels, 5 players) on /dev/pts/") == true, "\(lines)")
        #expect(lines.contains { $0.contains("a 2.0 host's HELLO gets NACK VERSION_INCOMPATIBLE") }, "\(lines)")
        #expect(lines.last?.hasPrefix("stopped after ") == true, "\(lines)")
    }

    @Test func helpStatesTheDefaultsAndRanges() throws {
        let help = try HapticProcess.run(["emulate", "--help"], timeout: 30)
        #expect(help.status == 0)
        let text = help.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("--protocol <protocol> The protocol the virtual device speaks, 2 or 3"), "\(text)")
        #expect(text.contains("(default: 2)"), "\(text)")
        #expect(text.contains("channels, 1...16 (default 2), each of --actuator"), "\(text)")
        #expect(text.contains("players in the pool, 1...16 (default 4)"), "\(text)")
    }

    @Test(arguments: [
        (["--protocol", "4"], "--protocol must be 2 or 3, not 4"),
        (["--channels", "2"], "--channels and --players need --protocol 3"),
        (["--protocol", "3", "--channels", "17"], "--channels must be 1...16, not 17"),
        (["--protocol", "3", "--players", "0"], "--players must be 1...16, not 0"),
        (["--protocol", "3", "--mcu", "atmega328p"], "--protocol 3 with --mcu atmega328p: the simulated boards' firmware speaks 2.0"),
        (["--protocol", "3", "--trace", "t.jsonl"], "--trace records protocol 2.0's one channel"),
    ])
    func refusesWhatItCannotServe(_ flags: [String], _ message: String) throws {
        let run = try HapticProcess.run(["emulate"] + flags + ["--seconds", "1"], timeout: 30)
        #expect(run.status == 64, "\(flags): \(run.errors)")
        #expect(run.errors.contains(message), "\(flags): \(run.errors)")
        #expect(!run.output.contains("/dev/pts/"), "\(flags): it served")
    }
}
