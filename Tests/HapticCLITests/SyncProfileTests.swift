import Foundation
import TestSupport
import Testing

/// `haptic emulate --drift-ppm` and `haptic profile --sync`, as processes: two emulators side by
/// side at -5,000 and +5,000 ppm, measured from the host.
@Suite(.serialized) struct SyncProfileTests {
    @Test func badCommandLinesSayWhatIsWrong() throws {
        for (arguments, message) in [
            (["emulate", "--drift-ppm", "30000"], "--drift-ppm 30000.0 is out of range: -20000...20000"),
            (["emulate", "--mcu", "microbit", "--drift-ppm", "100"], "QEMU runs the board on the host's clock"),
            (["profile", "--sync", "--port", "/dev/null"], "--sync needs two or more --port"),
            (["profile", "--port", "a", "--port", "b"], "more than one --port needs --sync"),
            (["profile", "--sync", "--port", "a", "--port", "b", "--max-p99", "3"], "--max-p99 does not go with --sync"),
        ] {
            let run = try HapticProcess.run(arguments, timeout: 30)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errors.contains(message), "\(run.errors)")
        }
    }

    @Test func twoDriftingEmulatorsAreMeasured() throws {
        let drifts = [-5_000.0, 5_000]
        let emulators = try drifts.map { try HapticProcess(["emulate", "--drift-ppm", String(Int($0)), "--seconds", "60"]) }
        defer { for emulator in emulators { emulator.send(SIGTERM) } }
        let ports = try emulators.map { try #require($0.waitForPTY(timeout: 30)) }
        #expect(Set(ports).count == 2, "each emulator has its own pty")
        let run = try HapticProcess.run(
            ["profile", "--sync", "-n", "3", "--long-play", "2", "--no-stretch", "--json"] + ports.flatMap { ["--port", $0] }, timeout: 60)
        #expect(run.status == 0, "\(run.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(json["schema"] as? String == "haptic-profile-sync/1")
        let start = try #require(json["start_skew"] as? [String: Any])
        let end = try #require(json["end_skew"] as? [String: Any])
        for skew in [start, end] {
            #expect(skew["p50_us"] is Double && skew["p99_us"] is Double)
        }
        let boards = try #require(json["boards"] as? [[String: Any]])
        #expect(boards.count == 2)
        for (board, drift) in zip(boards, drifts) {
            let rate = try #require(board["rate_ppm"] as? Double), bound = try #require(board["rate_ppm_bound"] as? Double)
            #expect(abs(rate - drift) <= bound, "\(rate) +- \(bound) for \(drift)")
        }
        // 10,000 ppm apart, not compensated: the long play's ends are about 10 ms a second apart.
        let long = try #require(json["long_play"] as? [String: Any])
        let seconds = try #require(long["seconds"] as? Double), endSkew = try #require(long["end_skew_us"] as? Double)
        #expect(endSkew > seconds * 5_000)
    }
}
