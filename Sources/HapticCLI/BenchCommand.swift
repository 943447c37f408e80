import ArgumentParser
import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern

/// `haptic bench [PATHS...] [--actuator NAME|PATH] [--json]`: compiles a folder of AHAP files and
/// reports sizes, errors and speed in one run (docs/cli.md; figures in docs/performance.md).
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Compile a set of AHAP files; report program bytes against raw samples and minified AHAP, error, and speed.",
        discussion: """
        PATHS are AHAP files or directories (their *.ahap files, sorted by name, not recursive); default: the folder
        $HAPTIC_CORPUS names, else Examples/corpus (41 real files) of the checkout.
        Files are decoded first (leniently); then the whole set is compiled --repeat times and the fastest run's
        times are reported (the bytes are the same every run). Build with -c release for meaningful times.
        """
    )

    @Argument(help: "AHAP files or directories of them (default: $HAPTIC_CORPUS, else Examples/corpus).")
    var paths: [String] = []

    @Option(help: "Actuator profile: a name from hardware/actuators or a profile file path.")
    var actuator: String = ActuatorProfile.defaultName

    @Option(parsing: .unconditional, help: "Largest amplitude error allowed, in LSB.")
    var tolerance: Int = 1

    @Option(parsing: .unconditional, help: "Largest sharpness error allowed where the output sounds, in LSB (default: --tolerance).")
    var sharpnessTolerance: Int?

    @Flag(help: "Do not fold repeated stretches into LOOP/ENDLOOP.")
    var noLoops = false

    @Option(parsing: .unconditional, help: "Times to compile the whole set; times are from the fastest run.")
    var `repeat` = 5

    @Flag(help: "Write one JSON document (schema haptic-bench/1, docs/cli.md) instead of a table.")
    var json = false

    /// One pass of `InterpreterBenchmark.program` (255 x 255 iterations of 40 ticks).
    static let modelBenchmarkTicks = 2_601_000

    func validate() throws {
        guard (0...255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255") }
        if let s = sharpnessTolerance, !(0...255).contains(s) { throw ValidationError("--sharpness-tolerance must be 0...255") }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let profile = try Compile.loadProfile(actuator)
        guard let inputs = paths.isEmpty ? DefaultCorpus.directory().map({ [$0] }) : paths else {
            throw CommandFailure(DefaultCorpus.missing)
        }
        let files = try Self.ahapFiles(in: inputs)
        guard !files.isEmpty else { throw CommandFailure("no .ahap files in \(inputs.joined(separator: ", "))") }
        var patterns: [(label: String, pattern: HapticPattern)] = []
        var unreadable: [(String, String)] = []
        for file in files {
            do {
                patterns.append((file, try AHAPDecoder().decode(contentsOfFile: file).pattern))
            } catch {
                unreadable.append((file, error.description))
            }
        }
        let options = CompileOptions(tolerance: tolerance, sharpnessTolerance: sharpnessTolerance, loops: !noLoops,
                                     failOnToleranceExceeded: false)
        var best = CompilerBenchmark.run(patterns, profile: profile, options: options)
        for _ in 1..<`repeat` {
            let again = CompilerBenchmark.run(patterns, profile: profile, options: options)
            if again.compileSeconds < best.compileSeconds { best = again }
        }
        // The model's speed on its busy benchmark program (every tick ramps, pulses overlap).
        let busy = InterpreterBenchmark.measure(ticks: Self.modelBenchmarkTicks)
        if json {
            print(jsonText(best, busy: busy, unreadable: unreadable), terminator: "")
        } else {
            printTable(best, busy: busy, unreadable: unreadable)
        }
        if best.failures > 0 || !unreadable.isEmpty { throw ExitCode(1) }
    }

    /// The .ahap files named or inside the directories named (sorted, not recursive).
    static func ahapFiles(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("no such file or directory: \(path)")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: path)
                files += names.filter { $0.lowercased().hasSuffix(".ahap") }.sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    // MARK: Text

    private func printTable(_ bench: CompilerBenchmark, busy: InterpreterBenchmark.Measurement, unreadable: [(String, String)]) {
        let f = Compile.format
        print("profile \(bench.profile), tolerance \(bench.options.tolerance) LSB, \(bench.options.tickRate) Hz, loops \(bench.options.loops ? "on" : "off")")
        print("")
        let header = ["file", "ticks", "A", "S", "PULSE", "LOOP", "program", "raw", "AHAP min", "raw/prog", "AHAP/prog", "max err", "mean err", "ms"]
        var rows: [[String]] = []
        for entry in bench.entries {
            let name = (entry.label as NSString).lastPathComponent
            guard let r = entry.report else {
                rows.append([name, "failed: " + (entry.error ?? "")])
                continue
            }
            let i = r.instructions
            var maxError = "\(r.fidelity.amplitudeMaxError)"
            if let s = r.fidelity.sharpnessMaxError { maxError += "/\(s)" }
            if !r.fidelity.withinTolerance { maxError += " !" }
            rows.append([name, "\(r.totalTicks)", "\(i.setA + i.rampA)", "\(i.setS + i.rampS)", "\(i.pulse)", "\(i.loop)",
                         "\(r.programBytes)", "\(r.rawSampleBytes)", "\(r.ahapMinifiedBytes)", f(r.rawRatio, 1), f(r.ahapRatio, 1),
                         maxError, f(r.fidelity.amplitudeMeanError, 3), f(r.compileSeconds * 1000, 2)])
        }
        let ti = bench.totalInstructions
        var totalError = "\(bench.amplitudeMaxError)"
        if let s = bench.sharpnessMaxError { totalError += "/\(s)" }
        let total = ["total (\(bench.entries.count))", "\(bench.totalTicks)", "\(ti.setA + ti.rampA)", "\(ti.setS + ti.rampS)", "\(ti.pulse)", "\(ti.loop)",
                     "\(bench.totalProgramBytes)", "\(bench.totalRawSampleBytes)", "\(bench.totalAHAPMinifiedBytes)",
                     f(Double(bench.totalRawSampleBytes) / Double(max(bench.totalProgramBytes, 1)), 1),
                     f(Double(bench.totalAHAPMinifiedBytes) / Double(max(bench.totalProgramBytes, 1)), 1),
                     totalError, f(bench.amplitudeMeanError, 3), f(bench.compileSeconds * 1000, 1)]
        printColumns([header] + rows + [total])
        print("")
        print("max err: amplitude/sharpness in LSB; A, S: SET+RAMP per channel")
        print("median per file: program \(f(bench.medianProgramBytes, 1)) bytes, raw/program \(f(bench.medianRawRatio, 1))x, AHAP/program \(f(bench.medianAHAPRatio, 1))x, compile \(f(bench.medianCompileSeconds * 1000, 3)) ms")
        print("compile: \(f(bench.compileSeconds * 1000, 1)) ms for \(bench.entries.count) patterns = \(f(bench.patternsPerSecond, 0)) patterns/s (fastest of \(`repeat`))")
        print("interpreter model: \(f(bench.interpreterTicksPerSecond / 1e6, 1)) M ticks/s during the fidelity checks, "
              + "\(f(busy.ticksPerSecond / 1e6, 1)) M ticks/s on its busy benchmark program (\(busy.ticks) ticks)")
        print("within tolerance: \(bench.entries.count - bench.failures) of \(bench.entries.count)")
        for (file, error) in unreadable { print("unreadable: \(file): \(error)") }
    }

    private func printColumns(_ rows: [[String]]) {
        var widths: [Int] = []
        for row in rows where row.count > 2 {
            for (index, cell) in row.enumerated() {
                if index >= widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        for row in rows {
            let cells = row.enumerated().map { index, cell -> String in
                guard row.count > 2 else { return cell }
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }
            print(cells.joined(separator: "  "))
        }
    }

    // MARK: JSON (schema haptic-bench/1, docs/cli.md)

    private func jsonText(_ bench: CompilerBenchmark, busy: InterpreterBenchmark.Measurement, unreadable: [(String, String)]) -> String {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("files")
        writer.beginArray()
        for entry in bench.entries {
            writer.beginObject()
            writer.key("error")
            if let error = entry.error { writer.string(error) } else { writer.null() }
            writer.key("file")
            writer.string(entry.label)
            writer.key("report")
            if let report = entry.report { Compile.write(report, to: &writer) } else { writer.null() }
            writer.endObject()
        }
        writer.endArray()
        writer.key("medians")
        writer.beginObject()
        writer.key("ahapRatio")
        writer.number(bench.medianAHAPRatio)
        writer.key("compileSeconds")
        writer.number(bench.medianCompileSeconds)
        writer.key("programBytes")
        writer.number(bench.medianProgramBytes)
        writer.key("rawRatio")
        writer.number(bench.medianRawRatio)
        writer.endObject()
        writer.key("options")
        Compile.write(bench.options, to: &writer)
        writer.key("profile")
        writer.string(bench.profile)
        writer.key("repeat")
        writer.integer(`repeat`)
        writer.key("schema")
        writer.string("haptic-bench/1")
        writer.key("speed")
        writer.beginObject()
        writer.key("compileSeconds")
        writer.number(bench.compileSeconds)
        writer.key("interpreterBusyTicksPerSecond")
        writer.number(busy.ticksPerSecond)
        writer.key("interpreterTicksPerSecond")
        writer.number(bench.interpreterTicksPerSecond)
        writer.key("patternsPerSecond")
        writer.number(bench.patternsPerSecond)
        writer.endObject()
        writer.key("totals")
        writer.beginObject()
        writer.key("ahapMinifiedBytes")
        writer.integer(bench.totalAHAPMinifiedBytes)
        writer.key("amplitudeMaxError")
        writer.integer(bench.amplitudeMaxError)
        writer.key("amplitudeMeanError")
        writer.number(bench.amplitudeMeanError)
        writer.key("bodyBytes")
        writer.integer(bench.totalBodyBytes)
        writer.key("files")
        writer.integer(bench.entries.count)
        writer.key("instructions")
        Compile.write(bench.totalInstructions, to: &writer)
        writer.key("outsideTolerance")
        writer.integer(bench.failures)
        writer.key("programBytes")
        writer.integer(bench.totalProgramBytes)
        writer.key("pulses")
        writer.integer(bench.totalPulses)
        writer.key("rawSampleBytes")
        writer.integer(bench.totalRawSampleBytes)
        writer.key("sharpnessMaxError")
        if let s = bench.sharpnessMaxError { writer.integer(s) } else { writer.null() }
        writer.key("sharpnessMeanError")
        if let s = bench.sharpnessMeanError { writer.number(s) } else { writer.null() }
        writer.key("ticks")
        writer.integer(bench.totalTicks)
        writer.key("transients")
        writer.integer(bench.totalTransients)
        writer.endObject()
        writer.key("unreadable")
        writer.beginArray()
        for (file, error) in unreadable {
            writer.beginObject(inline: true)
            writer.key("error")
            writer.string(error)
            writer.key("file")
            writer.string(file)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.endDocument()
        return writer.text
    }
}
