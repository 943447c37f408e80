import ArgumentParser
import Foundation
import HapticCompiler
import HapticPattern

/// `haptic compile FILE... [--actuator NAME|PATH] [--tolerance LSB] [-o OUT] [--json]`: patterns to
/// programs, each checked through the interpreter model (docs/cli.md, docs/compiler.md).
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile patterns to firmware programs for an actuator, and report size and fidelity.",
        discussion: """
            Each program is played through the firmware model and compared with the reference renderer tick by \
            tick; a program outside the tolerance is an error (exit status 1). With one input, -o names the program \
            file ('-' writes it to standard output). With several inputs, -o must be a directory: each program is \
            written there as <input name>.bin (presets as <preset name>.bin).

            Exit status: 0 when every input compiled within the tolerance; 1 otherwise; 64 for a bad command line.
            """
    )

    @Argument(help: "AHAP files, preset:NAME (see `haptic presets`), or haptic sets (docs/channels.md): each entry for its actuator.")
    var inputs: [String]

    @OptionGroup var compiler: CompileFlags

    @Option(name: .shortAndLong, help: "Program file (one input) or directory (several inputs).")
    var output: String?

    @Flag(help: "Decode AHAP strictly (reject what lenient decoding repairs).")
    var strict = false

    @Flag(help: "Write one JSON document (schema haptic-compile/2, docs/cli.md) instead of text.")
    var json = false

    func validate() throws {
        if let output, inputs.count > 1 {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("with several inputs, -o must be an existing directory (one <name>.bin per input)")
            }
        }
        if output == "-" && json { throw ValidationError("-o - writes the program to standard output; it cannot be combined with --json") }
    }

    var options: CompileOptions { compiler.options }

    struct Outcome {
        var input: String
        var output: String?
        var compiled: CompiledProgram?
        var error: String?
        var entry: HapticSetPlacement?
    }

    func run() throws {
        let profile = try Self.loadProfile(compiler.actuator)
        var outcomes: [Outcome] = []
        for input in inputs {
            do {
                if let set = try PatternInput.loadSet(input, strict: strict)?.set {
                    let entries = HapticSetCompiler.compile(set, defaultProfile: profile, options: options)
                    outcomes += try entries.map { try Outcome(set: input, $0, output: output) }
                    continue
                }
            } catch {
                outcomes.append(Outcome(input: input, error: "\(error)"))
                continue
            }
            var outcome = Outcome(input: input)
            do {
                let loaded = try PatternInput.load(input, strict: strict)
                let compiled = try PatternCompiler.compile(loaded.pattern, profile: profile, options: options)
                outcome.compiled = compiled
                if !compiled.report.fidelity.withinTolerance {
                    outcome.error = CompileError.toleranceExceeded(compiled).description
                } else if let path = outputPath(for: input, label: loaded.label) {
                    try writeOutput(compiled.bytes, to: path)
                    outcome.output = path
                }
            } catch let error as CompileError {
                outcome.error = error.description
            } catch let error as ValidationError {
                outcome.error = error.message
            } catch {
                outcome.error = "\(error)"
            }
            outcomes.append(outcome)
        }
        let report = Report(files: outcomes.map(Report.File.init), options: CompileOptionsReport(options), profile: profile.name)
        if json {
            emit(try reportJSON(report))
        } else if output != "-" {
            for file in report.files { printText(file) }
        }
        if report.files.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    /// -o as given for one input; <dir>/<stem>.bin for several; nil without -o.
    private func outputPath(for input: String, label: String) -> String? {
        guard let output else { return nil }
        guard inputs.count > 1 else { return output }
        let stem = input.hasPrefix(PatternInput.presetPrefix) ? label : ((label as NSString).deletingPathExtension)
        return (output as NSString).appendingPathComponent(stem + ".bin")
    }

    /// `--actuator` for every command: a profile name or file, with the loader's one-line error.
    static func loadProfile(_ nameOrPath: String) throws -> ActuatorProfile {
        do {
            return try ProfileLoader().load(nameOrPath)
        } catch {
            throw ValidationError(error.description)
        }
    }

    // MARK: Text

    private func printText(_ file: Report.File) {
        guard let report = file.report else {
            // Decoder errors already start with the file name.
            let error = file.error ?? "failed"
            let line = error.hasPrefix(file.input) ? error : "\(file.input): \(error)"
            FileHandle.standardError.write(Data((line + "\n").utf8))
            return
        }
        let arrow = file.output.map { " -> \($0)" } ?? ""
        emit("\(file.input)\(file.entry.map { " \($0.summary)" } ?? "")\(arrow)")
        for line in Self.describe(report) { emit("  " + line) }
        if let error = file.error {
            FileHandle.standardError.write(Data("\(file.input): \(error)\n".utf8))
        }
    }

    /// The report as a few lines of text.
    static func describe(_ r: ProgramReport) -> [String] {
        let seconds = Double(r.totalTicks) / Double(r.tickRate)
        var lines: [String] = []
        lines.append(
            "profile \(r.profile), \(r.tickRate) Hz: \(format(seconds, 3)) s, \(r.totalTicks) ticks; "
                + "\(r.transients) transient(s), \(r.pulses) as PULSE; sharpness channel \(r.sharpnessChannel ? "on" : "off")")
        lines.append("instructions: " + r.instructions.counts.byName.filter { $0.count > 0 }.map { "\($0.name) \($0.count)" }.joined(separator: ", "))
        lines.append(
            "bytes: program \(r.programBytes) (body \(r.bodyBytes)) | raw samples \(r.rawSampleBytes) (\(format(r.rawRatio, 1))x)"
                + " | minified AHAP \(r.ahapMinifiedBytes) (\(format(r.ahapRatio, 1))x)")
        let f = r.fidelity
        var error = "error: amplitude max \(f.amplitudeMaxError) mean \(format(f.amplitudeMeanError, 3)) LSB"
        if let s = f.sharpnessMaxError, let mean = f.sharpnessMeanError {
            error += "; sharpness max \(s) mean \(format(mean, 3)) LSB"
        } else {
            error += "; sharpness not rendered by this profile"
        }
        lines.append(
            error + " (tolerance \(f.tolerance)\(f.sharpnessTolerance != f.tolerance ? " / \(f.sharpnessTolerance)" : ""))"
                + (f.problem.map { "; \($0)" } ?? ""))
        lines.append("compile time \(format(r.compileSeconds * 1000, 2)) ms (model playback \(format(f.playbackSeconds * 1000, 2)) ms)")
        for note in r.deviceNotes { lines.append("note: " + note) }
        return lines
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
