import ArgumentParser
import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern
import HapticPlots

/// `haptic bench [PATHS...] [--actuator NAME|PATH] [--json]`: compiles a folder of AHAP files and
/// reports sizes, errors and speed in one run (docs/cli.md; figures in docs/performance.md).
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Compile a set of AHAP files; report program bytes against raw samples and minified AHAP, error, and speed.",
        discussion: """
            PATHS are AHAP files or directories (their *.ahap files, sorted by name, not recursive); default: the folder \
            $HAPTIC_CORPUS names, else Examples/corpus (41 real files) of the checkout. \
            Files are decoded first (leniently); then the whole set is compiled --repeat times and the fastest run's \
            times are reported (the bytes are the same every run). Build with -c release for meaningful times.

            Gates for CI: --max-error LSB fails the run when the largest amplitude error over the files is above LSB; \
            --max-bytes N when the programs total more than N bytes. A missed gate is one line on standard error after the table.

            Exit status: 0 when every file loads and compiles within the tolerance and every gate given is met; 1 otherwise (errors on standard error); 64 for a bad command line.
            """
    )

    @Argument(help: "AHAP files or directories of them (default: $HAPTIC_CORPUS, else Examples/corpus).")
    var paths: [String] = []

    @OptionGroup var compiler: CompileFlags

    @Option(
        name: [.customShort("n"), .long], parsing: .unconditional, help: "Times to compile the whole set, 1 or more; times are from the fastest run.")
    var `repeat` = 5

    @Flag(help: "Write one JSON document (schema haptic-bench/2, docs/cli.md) instead of a table.")
    var json = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Gate: exit 1 when the largest amplitude error over the files is above this, in LSB, 0...255.", valueName: "lsb"))
    var maxError: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Gate: exit 1 when the programs total more than N bytes (headers included), 0 or more.", valueName: "n"))
    var maxBytes: Int?

    /// The most `--repeat`: the fastest of a thousand runs is as good as a figure gets.
    static let maxRepeat = 1000
    /// From this many repeats on, the runs show their progress (standard error).
    static let progressRepeats = 10

    /// One pass of `InterpreterBenchmark.program` (255 x 255 iterations of 40 ticks).
    static let modelBenchmarkTicks = 2_601_000

    func validate() throws {
        guard (1...Self.maxRepeat).contains(`repeat`) else { throw ValidationError("--repeat must be 1...\(Self.maxRepeat), not \(`repeat`)") }
        if !paths.isEmpty, try Self.ahapFiles(in: paths).isEmpty {
            throw ValidationError("no .ahap files in \(paths.joined(separator: ", ")) (name AHAP files or folders holding them)")
        }
        if let maxError, !(0...255).contains(maxError) { throw ValidationError("--max-error must be 0...255, not \(maxError)") }
        if let maxBytes, maxBytes < 0 { throw ValidationError("--max-bytes must be 0 or more, not \(maxBytes)") }
    }

    /// What `haptic bench` reports: `--json` encodes it (schema haptic-bench/2, docs/cli.md), the
    /// table is printed from it; `gates` holds `--max-error`, `--max-bytes` (empty when none was given).
    typealias Report = Gated<BenchReport>

    /// The gates given on the command line, judged on the report.
    func gates(_ report: Report) -> [Gate] {
        var gates: [Gate] = []
        if let maxError {
            gates.append(
                .atMost("max-error", "max amplitude error", value: Double(report.totals.amplitudeMaxError), limit: Double(maxError)) {
                    "\(Int($0)) LSB"
                })
        }
        if let maxBytes {
            gates.append(.atMost("max-bytes", "program bytes", value: Double(report.totals.programBytes), limit: Double(maxBytes)) { "\(Int($0))" })
        }
        return gates
    }

    func run() throws {
        let profile = try Compile.loadProfile(compiler.actuator)
        guard let inputs = paths.isEmpty ? DefaultCorpus.directory().map({ [$0] }) : paths else {
            throw CommandFailure(DefaultCorpus.missing)
        }
        let files = try Self.ahapFiles(in: inputs)
        guard !files.isEmpty else { throw CommandFailure("no .ahap files in \(inputs.joined(separator: ", "))") }
        var patterns: [(label: String, pattern: HapticPattern)] = []
        var unreadable: [(file: String, error: String)] = []
        for file in files {
            do {
                patterns.append((file, try AHAPDecoder().decode(contentsOfFile: file).pattern))
            } catch {
                unreadable.append((file, error.description))
            }
        }
        let options = compiler.options
        let progress = ProgressDisplay("bench", total: Double(`repeat`), quiet: json || `repeat` < Self.progressRepeats)
        var best = CompilerBenchmark.run(patterns, profile: profile, options: options)
        progress.advance()
        for _ in 1..<`repeat` {
            let again = CompilerBenchmark.run(patterns, profile: profile, options: options)
            if again.compileSeconds < best.compileSeconds { best = again }
            progress.advance()
        }
        progress.finish()
        // The model's speed on its busy benchmark program (every tick ramps, pulses overlap).
        let busy = InterpreterBenchmark.measure(ticks: Self.modelBenchmarkTicks)
        var report = Report(report: BenchReport(best, busy: busy, repeat: `repeat`, unreadable: unreadable))
        report.gates = gates(report)
        if json {
            emit(try reportJSON(report))
        } else {
            printTable(report)
        }
        try Gate.enforce(report.gates, failing: report.totals.outsideTolerance > 0 || !report.unreadable.isEmpty)
    }

    /// The .ahap files named or inside the directories named (`AHAPFiles`).
    static func ahapFiles(in paths: [String]) throws -> [String] {
        do {
            return try AHAPFiles.list(paths)
        } catch let missing as AHAPFiles.Missing {
            throw ValidationError("\(missing)")
        }
    }

    // MARK: Text

    private func printTable(_ bench: Report) {
        let f = Compile.format
        emit(
            "profile \(bench.profile), tolerance \(bench.options.tolerance) LSB, \(bench.options.tickRate) Hz, loops \(bench.options.loops ? "on" : "off")"
        )
        emit("")
        let header = ["file", "ticks", "A", "S", "PULSE", "LOOP", "program", "raw", "AHAP min", "raw/prog", "AHAP/prog", "max err", "mean err", "ms"]
        var rows: [[String]] = []
        for file in bench.files {
            let name = (file.file as NSString).lastPathComponent
            guard let r = file.report else {
                rows.append([name, "failed: " + (file.error ?? "")])
                continue
            }
            let i = r.instructions.counts
            var maxError = "\(r.fidelity.amplitudeMaxError)"
            if let s = r.fidelity.sharpnessMaxError { maxError += "/\(s)" }
            if !r.fidelity.withinTolerance { maxError += " !" }
            rows.append([
                name, "\(r.totalTicks)", "\(i.setA + i.rampA)", "\(i.setS + i.rampS)", "\(i.pulse)", "\(i.loop)",
                "\(r.programBytes)", "\(r.rawSampleBytes)", "\(r.ahapMinifiedBytes)", f(r.rawRatio, 1), f(r.ahapRatio, 1),
                maxError, f(r.fidelity.amplitudeMeanError, 3), f(r.compileSeconds * 1000, 2),
            ])
        }
        let t = bench.totals, ti = t.instructions.counts, speed = bench.speed, medians = bench.medians
        var totalError = "\(t.amplitudeMaxError)"
        if let s = t.sharpnessMaxError { totalError += "/\(s)" }
        let total = [
            "total (\(t.files))", "\(t.ticks)", "\(ti.setA + ti.rampA)", "\(ti.setS + ti.rampS)", "\(ti.pulse)", "\(ti.loop)",
            "\(t.programBytes)", "\(t.rawSampleBytes)", "\(t.ahapMinifiedBytes)",
            f(Double(t.rawSampleBytes) / Double(max(t.programBytes, 1)), 1),
            f(Double(t.ahapMinifiedBytes) / Double(max(t.programBytes, 1)), 1),
            totalError, f(t.amplitudeMeanError, 3), f(speed.compileSeconds * 1000, 1),
        ]
        for line in TextTable.lines([header] + rows + [total]) { emit(line) }
        emit("")
        emit("max err: amplitude/sharpness in LSB; A, S: SET+RAMP per channel")
        emit(
            "median per file: program \(f(medians.programBytes, 1)) bytes, raw/program \(f(medians.rawRatio, 1))x, AHAP/program \(f(medians.ahapRatio, 1))x, compile \(f(medians.compileSeconds * 1000, 3)) ms"
        )
        emit(
            "compile: \(f(speed.compileSeconds * 1000, 1)) ms for \(t.files) patterns = \(f(speed.patternsPerSecond, 0)) patterns/s (fastest of \(bench.repeat))"
        )
        emit(
            "interpreter model: \(f(speed.interpreterTicksPerSecond / 1e6, 1)) M ticks/s during the fidelity checks, "
                + "\(f(speed.interpreterBusyTicksPerSecond / 1e6, 1)) M ticks/s on its busy benchmark program (\(speed.interpreterBusyTicks) ticks)")
        emit("within tolerance: \(t.files - t.outsideTolerance) of \(t.files)")
        // Errors go to standard error, one line each, so the table can be piped on its own.
        for entry in bench.unreadable { FileHandle.standardError.write(Data("unreadable: \(entry.file): \(entry.error)\n".utf8)) }
    }
}
