import Foundation
import TestSupport
import Testing

/// `haptic play` as a new user runs it (the built binary, a real process): what it reports on
/// every way a play can go, in text and as its `--json` document (issue 24's first list).
@Suite(.serialized) struct PlayOutcomeTests {
    /// The `--json` document `haptic play` printed, parsed.
    static func document(_ output: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        let root = try #require(object as? [String: Any], "not one JSON object: \(output)")
        #expect(root["schema"] as? String == "haptic-play/1")
        return root
    }

    static func error(_ root: [String: Any]) -> (status: Int?, message: String?) {
        let error = root["error"] as? [String: Any]
        return (error?["status"] as? Int, error?["message"] as? String)
    }

    /// A play scheduled seconds ahead waits for its start and its end (it timed out at 4 s and
    /// exited 3 before the start, printing no document).
    @Test func aPlayScheduledFarAheadIsWaitedFor() throws {
        let run = try HapticProcess.run(["play", "preset:impact.heavy", "--felt-at", "5000", "--json"], timeout: 60)
        #expect(run.status == 0, "\(run.errors)")
        let root = try Self.document(run.output)
        #expect((root["end"] as? [String: Any])?["event"] as? String == "finished")
        #expect(root["latency_ms"] as? Double ?? 0 > 4900)
        #expect(root["error"] is NSNull)
    }

    /// The latency of a play scheduled 2.5...4 s ahead (its FIRST_OUTPUT came after the wait for it ended).
    @Test func aPlayScheduledSecondsAheadKeepsItsLatency() throws {
        let run = try HapticProcess.run(["play", "preset:impact.heavy", "--felt-at", "3000"], timeout: 60)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("latency "), "\(run.output)")
    }

    /// Beyond the documented maximum: a bad command line, and still one document.
    @Test func aFeltAtBeyondTheMaximumIsRefusedWithADocument() throws {
        let run = try HapticProcess.run(["play", "preset:impact.heavy", "--felt-at", "100000", "--json"], timeout: 30)
        #expect(run.status == 64)
        #expect(run.errors.contains("0 to 60000"), "\(run.errors)")
        #expect(Self.error(try Self.document(run.output)).status == 64)
    }

    /// `--json` prints one document on exit 1 too: a port that does not open, a missing file.
    @Test(arguments: [["preset:impact.heavy", "--port", "/dev/nope"], ["/nope/missing.ahap"]])
    func everyFailedPlayPrintsADocument(arguments: [String]) throws {
        let run = try HapticProcess.run(["play"] + arguments + ["--json"], timeout: 30)
        #expect(run.status == 1)
        let root = try Self.document(run.output)
        let error = Self.error(root)
        #expect(error.status == 1)
        #expect(run.errors.contains(error.message ?? "no message"), "\(run.errors)")
        #expect(root["start_tick"] is NSNull && root["end"] is NSNull)
    }

    /// A play at intensity 0 (or so soft that every sample rounds to 0) is never felt.
    @Test(arguments: ["0", "0.01"])
    func aSilentPlayIsNeverFelt(intensity: String) throws {
        let run = try HapticProcess.run(["play", "preset:impact.rigid", "--intensity", intensity, "--json"], timeout: 30)
        #expect(run.status == 0, "\(run.errors)")
        let root = try Self.document(run.output)
        #expect(root["peak"] as? Int == 0)
        #expect(root["felt_onset_ms"] is NSNull)
        let text = try HapticProcess.run(["play", "preset:impact.rigid", "--intensity", intensity, "--no-plot"], timeout: 30)
        #expect(!text.output.contains("felt "), "\(text.output)")
    }

    /// A device that reboots during the play: the host saw its RESET notice and says so at once.
    @Test func aRebootDuringThePlayIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haptic-reboot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("long.ahap")
        let ahap =
            #"{"Version":1,"Pattern":[{"Event":{"Time":0,"EventType":"HapticContinuous","EventDuration":4,"#
            + #""EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.5}]}}]}"#
        try Data(ahap.utf8).write(to: file)
        let emulator = try HapticProcess(["emulate", "--reboot-after", "2"])
        defer { if emulator.process.isRunning { emulator.send(SIGKILL) } }
        let port = try #require(emulator.waitForPTY(timeout: 30))
        let started = Date()
        let run = try HapticProcess.run(["play", file.path, "--port", port, "--json"], timeout: 30)
        #expect(run.status == 2, "\(run.errors)")
        #expect(run.errors.contains("the device rebooted during the play (tick "), "\(run.errors)")
        #expect(Self.error(try Self.document(run.output)).status == 2)
        // The RESET notice ends the wait: well before the 4 s pattern + 2 s would have.
        #expect(Date().timeIntervalSince(started) < 5.5)
        emulator.send(SIGINT)
        _ = emulator.waitForExit(timeout: 10)
    }

    /// `-` is standard input, as for Unix tools.
    @Test func aPatternFromStandardInputPlays() throws {
        let run = try HapticProcess.run(
            ["play", "-", "--no-plot"], timeout: 30, standardInput: Repository.path("Examples/heartbeat.ahap"))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("standard input on"), "\(run.output)")
    }
}
