import Foundation
import TestSupport
import Testing

/// A user presses Ctrl-C during `haptic play --port`, or the client is killed outright: the next
/// `haptic play` must succeed at once, on the virtual device and on the simulated ATmega328P.
/// Real processes, real signals, real pseudo-terminals.
@Suite(.serialized) struct InterruptTests {
    /// 70 s long: still playing whenever the signal comes.
    static let longPattern = "Examples/corpus/Lofelt__NiceVibrations__long_clip.ahap"

    enum Server: String, CaseIterable {
        case virtualDevice, simulatedATmega328P

        var arguments: [String] {
            switch self {
            case .virtualDevice: return ["emulate", "--seconds", "120"]
            case .simulatedATmega328P: return ["emulate", "--mcu", "atmega328p", "--seconds", "120"]
            }
        }
    }

    /// Starts a long play, waits until it runs, ends the client with `signal`, and plays a preset
    /// right after it on the same port.
    func interruptThenPlay(port: String, signal: Int32) throws {
        let client = try HapticProcess(["play", Self.longPattern, "--port", port, "--no-plot"])
        let started = client.waitForOutput(timeout: 30) { $0.contains(" on \(port): ") ? true : nil }
        #expect(started == true, "the long play did not start: \(client.standardError)")
        Thread.sleep(forTimeInterval: 1.0)  // upload, clock sync, and well into the play
        client.send(signal)
        let status = client.waitForExit(timeout: 10)
        if signal == SIGINT {
            #expect(status == 128 + SIGINT, "stderr: \(client.standardError)")
            #expect(client.standardError.contains("SIGINT: stopped the play (brake) and closed the session"))
        } else {
            #expect(status != nil && status != 0)
        }
        let next = try HapticProcess.run(["play", "preset:impact.heavy", "--port", port, "--no-plot"], timeout: 20)
        #expect(next.status == 0, "the play after \(signal == SIGINT ? "SIGINT" : "SIGKILL") failed: \(next.errors)")
        #expect(next.output.contains("finished slot"), "\(next.output)")
    }

    @Test(arguments: Server.allCases)
    func aPlayAfterAnInterruptedOrKilledClientSucceedsAtOnce(server: Server) throws {
        let emulator = try HapticProcess(server.arguments)
        defer { if emulator.process.isRunning { emulator.send(SIGKILL) } }
        let port = try #require(
            emulator.waitForPTY(timeout: 120), "no pty from haptic \(server.arguments.joined(separator: " ")): \(emulator.standardError)")
        try interruptThenPlay(port: port, signal: SIGINT)
        try interruptThenPlay(port: port, signal: SIGKILL)
        // The emulator itself stops cleanly on SIGINT, with its summary.
        emulator.send(SIGINT)
        #expect(emulator.waitForExit(timeout: 10) == 0)
        #expect(emulator.standardOutput.contains("stopped after"), "\(emulator.standardOutput)")
    }
}
