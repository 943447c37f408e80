import HapticConformance
import HapticPattern
import HapticProtocol

extension ConformanceCommand {
    /// What `haptic conformance` reports: `--json` encodes it (schema haptic-conformance/1,
    /// docs/cli.md), the table is printed from it.
    struct Report: Encodable {
        let schema = "haptic-conformance/1"
        var port: String
        var baud: Int
        /// The vector directory replayed; null when none was found.
        @Nullable var vectors: String?
        /// What INFO reported; null when the device never answered HELLO.
        @Nullable var device: Device?
        /// No check failed.
        var passed: Bool
        var counts: Counts
        var checks: [Check]

        struct Device: Encodable {
            var protocolVersion, firmware: String
            var actuator: Int
            var profileName: String
            var rate, slots, slotCapacity, maxBody, streamCapacity, rxBuffer, wakeTicks, idleTicks, watchdog, capabilities: Int
        }

        struct Counts: Encodable {
            var passed, failed, skipped: Int
        }

        struct Check: Encodable {
            /// "vector" or "live".
            var kind, name: String
            /// "passed", "failed" or "skipped".
            var status: String
            /// Passed: what was checked; failed: the first divergence; skipped: why.
            var detail: String
            /// Vectors: stretches compared, and where those left out as timing-dependent are; null for live checks.
            @Nullable var compared: Int?
            @Nullable var timingDependent: [String]?
            /// Vectors: where this device's configuration differs from the vector's (the replay runs at the device's).
            @Nullable var configurationChanges: [String]?
            var seconds: Double
        }
    }
}

extension ConformanceCommand.Report {
    init(_ run: ConformanceRun, baud: Int, vectors: String?) {
        port = run.port
        self.baud = baud
        self.vectors = vectors
        device = run.info.map { info in
            Device(
                protocolVersion: "\(info.version)", firmware: "\(info.firmwareMajor).\(info.firmwareMinor).\(info.firmwarePatch)",
                actuator: Int(info.actuatorCode), profileName: info.profileNameString, rate: Int(info.rate),
                slots: Int(info.slotCount), slotCapacity: Int(info.slotCapacity), maxBody: Int(info.maxBody),
                streamCapacity: Int(info.streamCapacity), rxBuffer: Int(info.rxBuffer), wakeTicks: Int(info.wakeTicks),
                idleTicks: Int(info.idleTicks), watchdog: Int(info.watchdog), capabilities: Int(info.capabilities.rawValue))
        }
        passed = run.passed
        counts = Counts(passed: run.count(.passed), failed: run.count(.failed), skipped: run.count(.skipped))
        checks = run.results.map {
            Check(
                kind: $0.kind.rawValue, name: $0.name, status: $0.status.rawValue, detail: $0.detail, compared: $0.compared,
                timingDependent: $0.timingDependent, configurationChanges: $0.configurationChanges, seconds: $0.seconds)
        }
    }

    /// The pass/fail table.
    var text: String {
        var lines: [String] = []
        if let d = device {
            lines.append(
                "conformance of \(port): protocol \(d.protocolVersion), firmware \(d.firmware)\(d.profileName.isEmpty ? "" : ", \(d.profileName)"), "
                    + "\(d.slots) slots x \(d.slotCapacity) bytes, stream \(d.streamCapacity), rx \(d.rxBuffer), \(d.rate) Hz")
        } else {
            lines.append("conformance of \(port): no session")
        }
        lines.append("vectors: \(vectors.map { "\($0), each replayed at this device's configuration" } ?? "none found (--vectors DIR)")")
        lines.append("")
        let nameWidth = max(5, checks.map { $0.kind.count + 1 + $0.name.count }.max() ?? 0)
        lines.append("check".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  result      time  detail")
        for check in checks {
            let name = "\(check.kind) \(check.name)".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            let result = ["passed": "pass", "failed": "FAIL", "skipped": "skip"][check.status] ?? check.status
            let seconds = String(format: "%6.2f s", check.seconds)
            lines.append("\(name)  \(result.padding(toLength: 6, withPad: " ", startingAt: 0))\(seconds)  \(check.detail)")
        }
        lines.append("")
        let timing = checks.compactMap(\.timingDependent?.count).reduce(0, +)
        let compared = checks.compactMap(\.compared).reduce(0, +)
        lines.append(
            "\(counts.passed) passed, \(counts.failed) failed, \(counts.skipped) skipped; vector stretches: \(compared) compared, "
                + "\(timing) timing-dependent (not compared); samples are not observable over the port")
        lines.append(passed ? "conforms" : "does not conform")
        return lines.joined(separator: "\n")
    }
}
