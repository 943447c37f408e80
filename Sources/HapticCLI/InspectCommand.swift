import ArgumentParser
import Foundation
import HapticPattern

/// `haptic inspect FILE... [--strict] [--json] [--timing]`: what each AHAP file holds, what the
/// decoder repaired, or the one-line error. The `--json` output is documented in docs/ahap.md.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Summarise AHAP files: events, duration, parameter steps, curves, warnings; exit 1 if any file fails to load."
    )

    @Argument(help: "AHAP files to read, or preset:NAME.")
    var files: [String]

    @Flag(help: "Reject anything outside Apple's AHAP format instead of repairing it (docs/ahap.md).")
    var strict = false

    @Flag(help: "Write one JSON document (schema haptic-inspect/1, docs/ahap.md) instead of text.")
    var json = false

    @Flag(help: "Also measure load time: read once, decode --repeat times, report best and median.")
    var timing = false

    @Option(parsing: .unconditional, help: "Decode runs per file with --timing.")
    var `repeat` = 5

    /// Text output lists at most this many warnings per file (`--json` lists all).
    static let warningsShown = 20

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let mode: AHAPMode = strict ? .strict : .lenient
        let decoder = AHAPDecoder(mode: mode)
        var reports: [Report] = []
        for file in files {
            reports.append(inspect(file, decoder))
        }
        if json {
            print(jsonText(reports, mode: mode), terminator: "")
        } else {
            for report in reports { printText(report) }
            if timing && reports.count > 1 { printTotals(reports) }
        }
        if reports.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    // MARK: Loading

    /// Wall-clock and CPU time of each decode: on a loaded machine the CPU time (this thread's)
    /// is the stable figure, the wall-clock time includes waiting for a core.
    struct Timing {
        var bytes: Int
        var readSeconds: Double
        var decodeSeconds: [Double]
        var decodeCPUSeconds: [Double]

        var best: Double { decodeSeconds.min() ?? 0 }
        var bestCPU: Double { decodeCPUSeconds.min() ?? 0 }
        var median: Double {
            let sorted = decodeSeconds.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
    }

    struct Report {
        var file: String
        var document: AHAPDocument?
        var error: AHAPError?
        var timing: Timing?
    }

    private func inspect(_ file: String, _ decoder: AHAPDecoder) -> Report {
        // `preset:NAME`, like the other commands take: the preset's pattern, nothing to repair.
        if file.hasPrefix(PatternInput.presetPrefix) {
            let name = String(file.dropFirst(PatternInput.presetPrefix.count))
            guard let preset = Preset.named(name) else {
                return Report(file: file, error: AHAPError(file: file, message: "no preset named '\(name)'; `haptic presets` lists them"))
            }
            return Report(file: file, document: AHAPDocument(pattern: preset.pattern))
        }
        guard timing else {
            do {
                return Report(file: file, document: try decoder.decode(contentsOfFile: file))
            } catch {
                return Report(file: file, error: error)
            }
        }
        let clock = ContinuousClock()
        let readStart = clock.now
        let bytes: [UInt8]
        do {
            bytes = try AHAPDecoder.readFile(file)
        } catch {
            return Report(file: file, error: error)
        }
        let readSeconds = seconds(clock.now - readStart)
        var runs: [Double] = []
        var cpuRuns: [Double] = []
        var result: Result<AHAPDocument, AHAPError> = .failure(AHAPError(file: file, message: "not decoded"))
        for _ in 0..<`repeat` {
            let start = clock.now
            let cpuStart = threadCPUSeconds()
            result = Result { () throws(AHAPError) -> AHAPDocument in try decoder.decode(bytes, file: file) }
            cpuRuns.append(threadCPUSeconds() - cpuStart)
            runs.append(seconds(clock.now - start))
        }
        let measured = Timing(bytes: bytes.count, readSeconds: readSeconds, decodeSeconds: runs, decodeCPUSeconds: cpuRuns)
        switch result {
        case .success(let document): return Report(file: file, document: document, timing: measured)
        case .failure(let error): return Report(file: file, error: error, timing: measured)
        }
    }

    private func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    // MARK: Text

    private func printText(_ report: Report) {
        guard let document = report.document else {
            printError(report.error?.description ?? "\(report.file): not loaded")
            if let timing = report.timing { print("  timing: \(timingText(timing))") }
            return
        }
        let summary = AHAPSummary(document.pattern)
        let types = HapticEventType.allCases.compactMap { type -> String? in
            let count = summary.eventCounts[type] ?? 0
            return count > 0 ? "\(count) \(type.rawValue)" : nil
        }
        let events = "\(summary.eventCount) event\(summary.eventCount == 1 ? "" : "s")"
            + (types.isEmpty ? "" : " (\(types.joined(separator: ", ")))")
        print("\(report.file): \(events), \(format(summary.duration)) s")
        print("  parameter steps: \(countsText(summary.stepCounts, total: summary.stepCount))")
        print("  curves: \(curvesText(summary))")
        let ids = summary.eventParameterIDs.map(\.rawValue) + summary.dynamicParameterIDs.map(\.rawValue)
        print("  parameter IDs: \(ids.isEmpty ? "none" : ids.joined(separator: ", "))")
        if document.warnings.isEmpty {
            print("  warnings: none")
        } else {
            print("  warnings: \(document.warnings.count)")
            for warning in document.warnings.prefix(Self.warningsShown) { print("    \(warning)") }
            if document.warnings.count > Self.warningsShown {
                print("    ... \(document.warnings.count - Self.warningsShown) more (--json lists all)")
            }
        }
        if let timing = report.timing { print("  timing: \(timingText(timing))") }
    }

    private func countsText(_ counts: [DynamicParameterID: Int], total: Int) -> String {
        guard total > 0 else { return "none" }
        let parts = DynamicParameterID.allCases.compactMap { id in counts[id].map { "\(id.rawValue) \($0)" } }
        return "\(total) (\(parts.joined(separator: ", ")))"
    }

    /// Few curves are listed one by one; many are summarised per ID with point-count bounds.
    private func curvesText(_ summary: AHAPSummary) -> String {
        guard !summary.curves.isEmpty else { return "none" }
        if summary.curves.count <= 6 {
            let list = summary.curves.map { "\($0.id.rawValue) at \(format($0.time)) s, \($0.points) points" }
            return "\(summary.curves.count) (\(list.joined(separator: "; ")))"
        }
        let perID = countsText(summary.curveCounts, total: summary.curves.count)
        let points = summary.curves.map(\.points)
        return "\(perID), \(summary.controlPointCount) control points (\(points.min()!)...\(points.max()!) per curve)"
    }

    private func timingText(_ timing: Timing) -> String {
        let megabytes = Double(timing.bytes) / 1_000_000
        let rate = timing.bestCPU > 0 ? megabytes / timing.bestCPU : 0
        return "\(timing.bytes) bytes, read \(milliseconds(timing.readSeconds)) ms, decode best \(milliseconds(timing.best)) ms "
            + "(CPU \(milliseconds(timing.bestCPU)) ms, \(format(rate)) MB/s), median \(milliseconds(timing.median)) ms of \(timing.decodeSeconds.count)"
    }

    private func printTotals(_ reports: [Report]) {
        let timings = reports.compactMap(\.timing)
        let bytes = timings.reduce(0) { $0 + $1.bytes }
        let best = timings.reduce(0) { $0 + $1.best }
        let bestCPU = timings.reduce(0) { $0 + $1.bestCPU }
        let median = timings.reduce(0) { $0 + $1.median }
        let read = timings.reduce(0) { $0 + $1.readSeconds }
        let warned = reports.filter { ($0.document?.warnings.isEmpty ?? true) == false }.count
        let failed = reports.filter { $0.error != nil }.count
        print("total: \(reports.count) files, \(bytes) bytes, read \(milliseconds(read)) ms, "
              + "decode best \(milliseconds(best)) ms (CPU \(milliseconds(bestCPU)) ms), median \(milliseconds(median)) ms; "
              + "\(warned) with warnings, \(failed) failed")
    }

    private func milliseconds(_ seconds: Double) -> String { format(seconds * 1000) }

    /// Up to 3 decimals, trailing zeros dropped ("0.275", "2", "16.5").
    private func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return "\(rounded)"
    }

    private func printError(_ line: String) {
        var standardError = StandardError()
        print(line, to: &standardError)
    }

    // MARK: JSON (schema haptic-inspect/1, docs/ahap.md)
    //
    // As every `--json` output of the tool (docs/cli.md): keys sorted, every documented key present
    // (null where it does not apply). The writer calls below are in key order.

    private func jsonText(_ reports: [Report], mode: AHAPMode) -> String {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("files")
        writer.beginArray()
        for report in reports { write(report, to: &writer) }
        writer.endArray()
        writer.key("mode")
        writer.string(mode.rawValue)
        writer.key("schema")
        writer.string("haptic-inspect/1")
        writer.endObject()
        writer.endDocument()
        return writer.text
    }

    private func write(_ report: Report, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("error")
        if let error = report.error {
            writer.beginObject()
            writer.key("column")
            optional(error.column, to: &writer)
            writer.key("description")
            writer.string(error.description)
            writer.key("line")
            optional(error.line, to: &writer)
            writer.key("message")
            writer.string(error.message)
            writer.key("path")
            if let path = error.path { writer.string(path) } else { writer.null() }
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("file")
        writer.string(report.file)
        writer.key("ok")
        writer.bool(report.document != nil)
        writer.key("summary")
        if let document = report.document {
            write(AHAPSummary(document.pattern), to: &writer)
        } else {
            writer.null()
        }
        writer.key("timing")
        if let timing = report.timing {
            writer.beginObject()
            writer.key("bytes")
            writer.integer(timing.bytes)
            writer.key("decodeCPUSecondsBest")
            writer.number(timing.bestCPU)
            writer.key("decodeSecondsBest")
            writer.number(timing.best)
            writer.key("decodeSecondsMedian")
            writer.number(timing.median)
            writer.key("readSeconds")
            writer.number(timing.readSeconds)
            writer.key("runs")
            writer.integer(timing.decodeSeconds.count)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("warnings")
        writer.beginArray()
        for warning in report.document?.warnings ?? [] {
            writer.beginObject(inline: true)
            writer.key("kind")
            writer.string(warning.kind.rawValue)
            writer.key("message")
            writer.string(warning.message)
            writer.key("path")
            writer.string(warning.path)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    private func write(_ summary: AHAPSummary, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("curves")
        writer.beginObject()
        writer.key("byID")
        counts(summary.curveCounts, to: &writer)
        writer.key("controlPoints")
        writer.integer(summary.controlPointCount)
        writer.key("list")
        writer.beginArray()
        for curve in summary.curves {
            writer.beginObject(inline: true)
            writer.key("parameterID")
            writer.string(curve.id.rawValue)
            writer.key("points")
            writer.integer(curve.points)
            writer.key("time")
            writer.number(curve.time)
            writer.endObject()
        }
        writer.endArray()
        writer.key("total")
        writer.integer(summary.curves.count)
        writer.endObject()
        writer.key("duration")
        writer.number(summary.duration)
        writer.key("dynamicParameterIDs")
        writer.beginArray(inline: true)
        for id in summary.dynamicParameterIDs { writer.string(id.rawValue) }
        writer.endArray()
        writer.key("eventParameterIDs")
        writer.beginArray(inline: true)
        for id in summary.eventParameterIDs { writer.string(id.rawValue) }
        writer.endArray()
        writer.key("events")
        writer.beginObject()
        writer.key("byType")
        writer.beginObject()
        for type in HapticEventType.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
            writer.key(type.rawValue)
            writer.integer(summary.eventCounts[type] ?? 0)
        }
        writer.endObject()
        writer.key("total")
        writer.integer(summary.eventCount)
        writer.endObject()
        writer.key("parameterSteps")
        writer.beginObject()
        writer.key("byID")
        counts(summary.stepCounts, to: &writer)
        writer.key("total")
        writer.integer(summary.stepCount)
        writer.endObject()
        writer.endObject()
    }

    /// `{"HapticIntensityControl": 3, ...}`: the IDs that occur, keys sorted.
    private func counts(_ counts: [DynamicParameterID: Int], to writer: inout JSONWriter) {
        writer.beginObject()
        for (id, count) in counts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            writer.key(id.rawValue)
            writer.integer(count)
        }
        writer.endObject()
    }

    private func optional(_ value: Int?, to writer: inout JSONWriter) {
        if let value { writer.integer(value) } else { writer.null() }
    }
}

/// `print(..., to: &standardError)` for the one-line errors.
private struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
