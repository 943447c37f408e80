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

    /// What `haptic inspect` reports: `--json` encodes it (schema haptic-inspect/2, docs/ahap.md),
    /// the text output is printed from it.
    typealias Report = InspectReport

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
            for file in report.files {
                let (error, lines) = file.text(warningsShown: Self.warningsShown)
                if let error { printError(error) }
                for line in lines { emit(line) }
            }
            if timing && report.files.count > 1 { emit(InspectReport.totalsLine(report.files)) }
        }
        if report.files.contains(where: { !$0.ok }) { throw ExitCode(1) }
    }

    // MARK: Loading

    /// One file as loaded (`Report.File` is what is reported about it).
    struct Outcome {
        var file: String
        var document: AHAPDocument?
        var error: AHAPError?
        /// With --timing (`AHAPDecoder.decodeTimed`).
        var timing: AHAPLoadTiming?
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
        let (result, measured) = decoder.decodeTimed(contentsOfFile: file, runs: `repeat`)
        switch result {
        case .success(let document): return Outcome(file: file, document: document, timing: measured)
        case .failure(let error): return Outcome(file: file, error: error, timing: measured)
        }
    }

    // MARK: Text

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
