import Foundation

extension ConformanceReport {
    /// The pass/fail table, as `haptic conformance` prints it.
    public var text: String {
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

extension Conformance {
    /// The vectors in `directory`: its `.txt` files' names without the extension (none when it
    /// cannot be read).
    public static func vectorNames(in directory: String?) -> [String] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }
    }

    /// How many checks a run over the vectors of `directory` makes with the selection `only`.
    public static func checkCount(vectorsDirectory: String?, only: Set<String>?) -> Int {
        vectorNames(in: vectorsDirectory).filter { selects(only, kind: .vector, name: $0) }.count
            + liveChecks.filter { selects(only, kind: .live, name: $0) }.count
    }
}
