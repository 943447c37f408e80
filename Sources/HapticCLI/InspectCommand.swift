import ArgumentParser
import Foundation
import HapticCompiler
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

    @Flag(help: "Write one JSON document (schema haptic-inspect/2, docs/ahap.md) instead of text.")
    var json = false

    @Flag(help: "Also measure load time: read once, decode --repeat times, report best and median.")
    var timing = false

    @Option(name: [.customShort("n"), .long], parsing: .unconditional, help: "Decode runs per file with --timing, 1 or more.")
    var `repeat` = 5

    /// Text output lists at most this many warnings per file (`--json` lists all).
    static let warningsShown = 20

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let mode: AHAPMode = strict ? .strict : .lenient
        let decoder = AHAPDecoder(mode: mode)
        let report = Report(files: files.map { Report.File(inspect($0, decoder)) }, mode: mode.rawValue)
        if json {
            emit(try reportJSON(report))
        } else {
            for file in report.files { printText(file) }
            if timing && report.files.count > 1 { printTotals(report.files) }
        }
        if report.files.contains(where: { !$0.ok }) { throw ExitCode(1) }
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
        var median: Double { Percentile.median(decodeSeconds) }
    }

    /// One file as loaded (`Report.File` is what is reported about it).
    struct Outcome {
        var file: String
        var document: AHAPDocument?
        var error: AHAPError?
        var timing: Timing?
    }

    private func inspect(_ file: String, _ decoder: AHAPDecoder) -> Outcome {
        // `preset:NAME`, like the other commands take: the preset's pattern, nothing to repair.
        if file.hasPrefix(PatternInput.presetPrefix) {
            let name = String(file.dropFirst(PatternInput.presetPrefix.count))
            guard let preset = Preset.named(name) else {
                return Outcome(file: file, error: AHAPError(file: file, message: "no preset named '\(name)'; `haptic presets` lists them"))
            }
            return Outcome(file: file, document: AHAPDocument(pattern: preset.pattern))
        }
        // A haptic set (docs/channels.md): its decoder's error, or which commands read it.
        do {
            if let set = try HapticSetDecoder(mode: decoder.mode).decodeIfSet(contentsOfFile: file) {
                let what =
                    "a haptic set of \(set.set.entries.count) entries, \(set.warnings.count) warnings: `haptic render` and `haptic compile` read sets"
                return Outcome(file: file, error: AHAPError(file: file, message: what))
            }
        } catch {
            return Outcome(file: file, error: error)
        }
        guard timing else {
            do {
                return Outcome(file: file, document: try decoder.decode(contentsOfFile: file))
            } catch {
                return Outcome(file: file, error: error)
            }
        }
        let clock = ContinuousClock()
        let readStart = clock.now
        let bytes: [UInt8]
        do {
            bytes = try AHAPDecoder.readFile(file)
        } catch {
            return Outcome(file: file, error: error)
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
        case .success(let document): return Outcome(file: file, document: document, timing: measured)
        case .failure(let error): return Outcome(file: file, error: error, timing: measured)
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

    private func printText(_ file: Report.File) {
        guard let summary = file.summary else {
            printError(file.error?.description ?? "\(file.file): not loaded")
            if let timing = file.timing { emit("  timing: \(timingText(timing))") }
            return
        }
        let types = HapticEventType.allCases.compactMap { type -> String? in
            let count = summary.events.byType[type.rawValue] ?? 0
            return count > 0 ? "\(count) \(type.rawValue)" : nil
        }
        let total = summary.events.total
        let events = "\(total) event\(total == 1 ? "" : "s")" + (types.isEmpty ? "" : " (\(types.joined(separator: ", ")))")
        emit("\(file.file): \(events), \(format(summary.duration)) s")
        emit("  parameter steps: \(countsText(summary.parameterSteps.byID, total: summary.parameterSteps.total))")
        emit("  curves: \(curvesText(summary.curves))")
        let ids = summary.eventParameterIds + summary.dynamicParameterIds
        emit("  parameter IDs: \(ids.isEmpty ? "none" : ids.joined(separator: ", "))")
        if file.warnings.isEmpty {
            emit("  warnings: none")
        } else {
            emit("  warnings: \(file.warnings.count)")
            for warning in file.warnings.prefix(Self.warningsShown) {
                emit("    \(warning.path): \(warning.message) [\(warning.kind)]")
            }
            if file.warnings.count > Self.warningsShown {
                emit("    ... \(file.warnings.count - Self.warningsShown) more (--json lists all)")
            }
        }
        if let timing = file.timing { emit("  timing: \(timingText(timing))") }
    }

    /// Counts per dynamic parameter ID, in the enum's order.
    private func countsText(_ counts: [String: Int], total: Int) -> String {
        guard total > 0 else { return "none" }
        let parts = DynamicParameterID.allCases.compactMap { id in counts[id.rawValue].map { "\(id.rawValue) \($0)" } }
        return "\(total) (\(parts.joined(separator: ", ")))"
    }

    /// Few curves are listed one by one; many are summarised per ID with point-count bounds.
    private func curvesText(_ curves: Report.Curves) -> String {
        guard !curves.list.isEmpty else { return "none" }
        if curves.list.count <= 6 {
            let list = curves.list.map { "\($0.parameterID) at \(format($0.time)) s, \($0.points) points" }
            return "\(curves.total) (\(list.joined(separator: "; ")))"
        }
        let perID = countsText(curves.byID, total: curves.total)
        let points = curves.list.map(\.points)
        return "\(perID), \(curves.controlPoints) control points (\(points.min()!)...\(points.max()!) per curve)"
    }

    private func timingText(_ timing: Report.Timing) -> String {
        let megabytes = Double(timing.bytes) / 1_000_000
        let rate = timing.decodeCPUSecondsBest > 0 ? megabytes / timing.decodeCPUSecondsBest : 0
        return "\(timing.bytes) bytes, read \(milliseconds(timing.readSeconds)) ms, decode best \(milliseconds(timing.decodeSecondsBest)) ms "
            + "(CPU \(milliseconds(timing.decodeCPUSecondsBest)) ms, \(format(rate)) MB/s), "
            + "median \(milliseconds(timing.decodeSecondsMedian)) ms of \(timing.runs)"
    }

    private func printTotals(_ files: [Report.File]) {
        let timings = files.compactMap(\.timing)
        func sum(_ value: (Report.Timing) -> Double) -> String { milliseconds(timings.reduce(0) { $0 + value($1) }) }
        let bytes = timings.reduce(0) { $0 + $1.bytes }
        let warned = files.filter { !$0.warnings.isEmpty }.count
        let failed = files.filter { !$0.ok }.count
        emit(
            "total: \(files.count) files, \(bytes) bytes, read \(sum(\.readSeconds)) ms, "
                + "decode best \(sum(\.decodeSecondsBest)) ms (CPU \(sum(\.decodeCPUSecondsBest)) ms), median \(sum(\.decodeSecondsMedian)) ms; "
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
}

/// `print(..., to: &standardError)` for the one-line errors.
private struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
