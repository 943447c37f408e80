import Foundation
import TestSupport
import Testing

/// The CI gates of `haptic profile` and `haptic bench`: a met gate changes nothing but the
/// report's `gates`; a missed one adds one line to standard error, after the normal output,
/// and exit status 1. Real processes, as a CI script runs them.
@Suite(.serialized) struct GateTests {
    /// A corpus file whose program has an amplitude error of 1 LSB at the default tolerance.
    static let file = Repository.path("Examples/corpus/Lofelt__NiceVibrations__3_points.ahap")

    static func json(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    static func gates(_ output: String) throws -> [String: [String: Any]] {
        let list = try #require(try json(output)["gates"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    static func gateLines(_ errors: String) -> [String] {
        errors.split(separator: "\n").map(String.init).filter { $0.hasPrefix("gate missed: ") }
    }

    @Test func benchGates() throws {
        let plain = try HapticProcess.run(["bench", Self.file, "-n", "1", "--json"], timeout: 60)
        #expect(plain.status == 0)
        #expect(try Self.json(plain.output)["gates"] as? [Any] != nil && Self.gates(plain.output).isEmpty)
        let totals = try #require(try Self.json(plain.output)["totals"] as? [String: Any])
        let error = try #require(totals["amplitude_max_error"] as? Int)
        let bytes = try #require(totals["program_bytes"] as? Int)
        try #require(error >= 1)

        let met = try HapticProcess.run(["bench", Self.file, "-n", "1", "--json", "--max-error", "\(error)", "--max-bytes", "\(bytes)"], timeout: 60)
        #expect(met.status == 0, "\(met.errors)")
        #expect(Self.gateLines(met.errors).isEmpty)
        let metGates = try Self.gates(met.output)
        #expect(
            metGates["max-error"]?["met"] as? Bool == true && metGates["max-error"]?["value"] as? Int == error
                && metGates["max-error"]?["limit"] as? Int == error)
        #expect(metGates["max-bytes"]?["met"] as? Bool == true && metGates["max-bytes"]?["value"] as? Int == bytes)

        let missed = try HapticProcess.run(
            ["bench", Self.file, "-n", "1", "--max-error", "\(error - 1)", "--max-bytes", "\(bytes - 1)"], timeout: 60)
        #expect(missed.status == 1)
        #expect(missed.output.contains("within tolerance: 1 of 1"), "the table still comes first: \(missed.output)")
        #expect(
            Self.gateLines(missed.errors) == [
                "gate missed: max amplitude error \(error) LSB > --max-error \(error - 1) LSB",
                "gate missed: program bytes \(bytes) > --max-bytes \(bytes - 1)",
            ], "\(missed.errors)")

        let bad = try HapticProcess.run(["bench", Self.file, "--max-error", "256"], timeout: 30)
        #expect(bad.status == 64)
    }

    /// A one-pattern corpus keeps the profiler quick.
    static func smallCorpus() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-corpus-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: directory.appendingPathComponent("one.ahap").path)
        return directory.path
    }

    @Test func profileGates() throws {
        let corpus = try Self.smallCorpus()
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let met = try HapticProcess.run(
            ["profile", "--corpus", corpus, "-n", "3", "--json", "--max-p99", "10000", "--min-speedup", "0.001"],
            timeout: 120)
        #expect(met.status == 0, "\(met.errors)")
        #expect(Self.gateLines(met.errors).isEmpty)
        let gates = try Self.gates(met.output)
        let prepared = try #require(try Self.json(met.output)["prepared"] as? [String: Any])
        #expect(gates["max-p99"]?["met"] as? Bool == true && gates["max-p99"]?["limit"] as? Double == 10000)
        #expect(gates["max-p99"]?["value"] as? Double == prepared["p99_ms"] as? Double)
        #expect(gates["min-speedup"]?["value"] as? Double == (try Self.json(met.output)["speedup_at_corpus_median"] as? Double))

        let missed = try HapticProcess.run(
            ["profile", "--corpus", corpus, "-n", "3", "--max-p99", "0.001", "--min-speedup", "1000000"],
            timeout: 120)
        #expect(missed.status == 1, "\(missed.errors)")
        #expect(missed.output.contains("prepared p99"), "the text report still comes first: \(missed.output) \(missed.errors)")
        let lines = Self.gateLines(missed.errors)
        #expect(lines.count == 2, "\(missed.errors)")
        #expect(lines.first?.hasPrefix("gate missed: prepared p99 ") == true && lines.first?.hasSuffix(" ms > --max-p99 0.001 ms") == true)
        #expect(
            lines.last?.hasPrefix("gate missed: prepared vs upload-then-play at the corpus median ") == true
                && lines.last?.hasSuffix("x < --min-speedup 1000000.0x") == true, "\(lines)")

        // With --cold the speedup gate judges the cold plays.
        let cold = try HapticProcess.run(["profile", "--corpus", corpus, "-n", "1", "--cold", "--min-speedup", "1000000"], timeout: 120)
        #expect(cold.status == 1)
        #expect(
            Self.gateLines(cold.errors).first?.hasPrefix("gate missed: prepared vs unprepared (cold) at the corpus median ") == true,
            "\(cold.errors)")

        let bad = try HapticProcess.run(["profile", "--max-p99", "0"], timeout: 30)
        #expect(bad.status == 64)
        #expect(bad.errors.contains("--max-p99 must be a number more than 0"), "\(bad.errors)")
    }

    /// `--max-felt-lag-over-floor`: met at the measured excess, missed just under it (issue 27).
    @Test func feltLagGate() throws {
        let corpus = try Self.smallCorpus()
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let run = try HapticProcess.run(["profile", "--corpus", corpus, "-n", "2", "--json", "--max-felt-lag-over-floor", "1000"], timeout: 120)
        #expect(run.status == 0, "\(run.errors)")
        let root = try Self.json(run.output)
        let lag = try #require(root["felt_lag"] as? [String: Double]), floor = try #require(root["felt_floor"] as? [String: Double])
        let lagP99 = try #require(lag["p99_ms"]), floorP99 = try #require(floor["p99_ms"])
        #expect(lag["p50_ms"] != nil && floor["p50_ms"] != nil && floorP99 > 0 && lagP99 >= floorP99)
        let gate = try #require(try Self.gates(run.output)["max-felt-lag-over-floor"])
        #expect(gate["met"] as? Bool == true && abs((gate["value"] as? Double ?? -1) - (lagP99 - floorP99)) < 1e-9)

        // Set to 0, below any measurable excess: a play's transport is the floor's line time plus
        // the host's path and the wait for the tick, so its lag p99 is above the floor's.
        let missed = try HapticProcess.run(["profile", "--corpus", corpus, "-n", "2", "--max-felt-lag-over-floor", "0"], timeout: 120)
        #expect(missed.status == 1, "\(missed.errors)")
        let line = Self.gateLines(missed.errors).first ?? ""
        #expect(
            line.hasPrefix("gate missed: felt lag p99 over its floor's p99 ") && line.hasSuffix(" ms > --max-felt-lag-over-floor 0.000 ms"),
            "\(missed.errors)")
        let bad = try HapticProcess.run(["profile", "--max-felt-lag-over-floor", "-1"], timeout: 30)
        #expect(bad.status == 64 && bad.errors.contains("--max-felt-lag-over-floor must be a number 0 or more"), "\(bad.errors)")
    }
}
