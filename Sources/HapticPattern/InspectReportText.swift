import Foundation

extension InspectReport.File {
    /// The file as `haptic inspect` prints it: its lines for standard output and, for a file that
    /// did not load, the one-line error for standard error (printed first); at most
    /// `warningsShown` warnings are listed.
    public func text(warningsShown: Int) -> (error: String?, lines: [String]) {
        guard let summary else {
            return (error?.description ?? "\(file): not loaded", timing.map { ["  timing: \($0.text)"] } ?? [])
        }
        var lines: [String] = []
        let types = HapticEventType.allCases.compactMap { type -> String? in
            let count = summary.events.byType[type.rawValue] ?? 0
            return count > 0 ? "\(count) \(type.rawValue)" : nil
        }
        let total = summary.events.total
        let events = "\(total) event\(total == 1 ? "" : "s")" + (types.isEmpty ? "" : " (\(types.joined(separator: ", ")))")
        lines.append("\(file): \(events), \(InspectReport.format(summary.duration)) s")
        lines.append("  parameter steps: \(InspectReport.countsText(summary.parameterSteps.byID, total: summary.parameterSteps.total))")
        lines.append("  curves: \(summary.curves.text)")
        let ids = summary.eventParameterIds + summary.dynamicParameterIds
        lines.append("  parameter IDs: \(ids.isEmpty ? "none" : ids.joined(separator: ", "))")
        if warnings.isEmpty {
            lines.append("  warnings: none")
        } else {
            lines.append("  warnings: \(warnings.count)")
            for warning in warnings.prefix(warningsShown) {
                lines.append("    \(warning.path): \(warning.message) [\(warning.kind)]")
            }
            if warnings.count > warningsShown {
                lines.append("    ... \(warnings.count - warningsShown) more (--json lists all)")
            }
        }
        if let timing { lines.append("  timing: \(timing.text)") }
        return (nil, lines)
    }
}

extension InspectReport.Curves {
    /// Few curves are listed one by one; many are summarised per ID with point-count bounds.
    var text: String {
        guard !list.isEmpty else { return "none" }
        if list.count <= 6 {
            let items = list.map { "\($0.parameterID) at \(InspectReport.format($0.time)) s, \($0.points) points" }
            return "\(total) (\(items.joined(separator: "; ")))"
        }
        let perID = InspectReport.countsText(byID, total: total)
        let points = list.map(\.points)
        return "\(perID), \(controlPoints) control points (\(points.min()!)...\(points.max()!) per curve)"
    }
}

extension InspectReport.Timing {
    var text: String {
        let ms = InspectReport.milliseconds
        let megabytes = Double(bytes) / 1_000_000
        let rate = decodeCPUSecondsBest > 0 ? megabytes / decodeCPUSecondsBest : 0
        return "\(bytes) bytes, read \(ms(readSeconds)) ms, decode best \(ms(decodeSecondsBest)) ms "
            + "(CPU \(ms(decodeCPUSecondsBest)) ms, \(InspectReport.format(rate)) MB/s), "
            + "median \(ms(decodeSecondsMedian)) ms of \(runs)"
    }
}

extension InspectReport {
    /// The line after several timed files: their sums, and how many warned or failed.
    public static func totalsLine(_ files: [File]) -> String {
        let timings = files.compactMap(\.timing)
        func sum(_ value: (Timing) -> Double) -> String { milliseconds(timings.reduce(0) { $0 + value($1) }) }
        let bytes = timings.reduce(0) { $0 + $1.bytes }
        let warned = files.filter { !$0.warnings.isEmpty }.count
        let failed = files.filter { !$0.ok }.count
        return "total: \(files.count) files, \(bytes) bytes, read \(sum(\.readSeconds)) ms, "
            + "decode best \(sum(\.decodeSecondsBest)) ms (CPU \(sum(\.decodeCPUSecondsBest)) ms), median \(sum(\.decodeSecondsMedian)) ms; "
            + "\(warned) with warnings, \(failed) failed"
    }

    /// Counts per dynamic parameter ID, in the enum's order.
    static func countsText(_ counts: [String: Int], total: Int) -> String {
        guard total > 0 else { return "none" }
        let parts = DynamicParameterID.allCases.compactMap { id in counts[id.rawValue].map { "\(id.rawValue) \($0)" } }
        return "\(total) (\(parts.joined(separator: ", ")))"
    }

    static func milliseconds(_ seconds: Double) -> String { format(seconds * 1000) }

    /// Up to 3 decimals, trailing zeros dropped ("0.275", "2", "16.5").
    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return "\(rounded)"
    }
}
