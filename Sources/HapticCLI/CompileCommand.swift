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
        Each program is played through the firmware model and compared with the reference renderer tick by
        tick; a program outside the tolerance is an error (exit status 1). With one input, -o names the program
        file ('-' writes it to standard output). With several inputs, -o must be a directory: each program is
        written there as <input name>.bin (presets as <preset name>.bin).
        """
    )

    @Argument(help: "AHAP files, or preset:NAME (see `haptic presets`).")
    var inputs: [String]

    @Option(help: "Actuator profile: a name from hardware/actuators or a profile file path.")
    var actuator: String = ActuatorProfile.defaultName

    @Option(parsing: .unconditional, help: "Largest amplitude error allowed, in LSB of the 8-bit code.")
    var tolerance: Int = 1

    @Option(parsing: .unconditional, help: "Largest sharpness error allowed where the output sounds, in LSB (default: --tolerance).")
    var sharpnessTolerance: Int?

    @Flag(help: "Do not fold repeated stretches into LOOP/ENDLOOP.")
    var noLoops = false

    @Option(name: .shortAndLong, help: "Program file (one input) or directory (several inputs).")
    var output: String?

    @Flag(help: "Decode AHAP strictly (reject what lenient decoding repairs).")
    var strict = false

    @Flag(help: "Write one JSON document (schema haptic-compile/1, docs/cli.md) instead of text.")
    var json = false

    func validate() throws {
        guard (0...255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255") }
        if let s = sharpnessTolerance, !(0...255).contains(s) { throw ValidationError("--sharpness-tolerance must be 0...255") }
        if let output, inputs.count > 1 {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("with several inputs, -o must be an existing directory (one <name>.bin per input)")
            }
        }
        if output == "-" && json { throw ValidationError("-o - writes the program to standard output; it cannot be combined with --json") }
    }

    var options: CompileOptions {
        CompileOptions(tolerance: tolerance, sharpnessTolerance: sharpnessTolerance, loops: !noLoops,
                       failOnToleranceExceeded: false)
    }

    struct Outcome {
        var input: String
        var output: String?
        var compiled: CompiledProgram?
        var error: String?
    }

    func run() throws {
        let profile = try Self.loadProfile(actuator)
        var outcomes: [Outcome] = []
        for input in inputs {
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
        if json {
            print(jsonText(outcomes, profile: profile), terminator: "")
        } else if output != "-" {
            for outcome in outcomes { printText(outcome, profile: profile) }
        }
        if outcomes.contains(where: { $0.error != nil }) { throw ExitCode(1) }
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

    private func printText(_ outcome: Outcome, profile: ActuatorProfile) {
        guard let compiled = outcome.compiled else {
            // Decoder errors already start with the file name.
            let error = outcome.error ?? "failed"
            let line = error.hasPrefix(outcome.input) ? error : "\(outcome.input): \(error)"
            FileHandle.standardError.write(Data((line + "\n").utf8))
            return
        }
        let arrow = outcome.output.map { " -> \($0)" } ?? ""
        print("\(outcome.input)\(arrow)")
        for line in Self.describe(compiled.report) { print("  " + line) }
        if let error = outcome.error {
            FileHandle.standardError.write(Data("\(outcome.input): \(error)\n".utf8))
        }
    }

    /// The report as a few lines of text (shared with `haptic bench --verbose`).
    static func describe(_ r: CompileReport) -> [String] {
        let seconds = Double(r.totalTicks) / Double(r.tickRate)
        var lines: [String] = []
        lines.append("profile \(r.profile), \(r.tickRate) Hz: \(format(seconds, 3)) s, \(r.totalTicks) ticks; "
                     + "\(r.transients) transient(s), \(r.pulses) as PULSE; sharpness channel \(r.sharpnessChannel ? "on" : "off")")
        lines.append("instructions: " + r.instructions.byName.filter { $0.count > 0 }.map { "\($0.name) \($0.count)" }.joined(separator: ", "))
        lines.append("bytes: program \(r.programBytes) (body \(r.bodyBytes)) | raw samples \(r.rawSampleBytes) (\(format(r.rawRatio, 1))x)"
                     + " | minified AHAP \(r.ahapMinifiedBytes) (\(format(r.ahapRatio, 1))x)")
        let f = r.fidelity
        var error = "error: amplitude max \(f.amplitudeMaxError) mean \(format(f.amplitudeMeanError, 3)) LSB"
        if let s = f.sharpnessMaxError, let mean = f.sharpnessMeanError {
            error += "; sharpness max \(s) mean \(format(mean, 3)) LSB"
        } else {
            error += "; sharpness not rendered by this profile"
        }
        lines.append(error + " (tolerance \(f.tolerance)\(f.sharpnessTolerance != f.tolerance ? " / \(f.sharpnessTolerance)" : ""))"
                     + (f.problem.map { "; \($0)" } ?? ""))
        lines.append("compile time \(format(r.compileSeconds * 1000, 2)) ms (model playback \(format(f.playbackSeconds * 1000, 2)) ms)")
        for note in r.deviceNotes { lines.append("note: " + note) }
        return lines
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    // MARK: JSON (schema haptic-compile/1, docs/cli.md)

    private func jsonText(_ outcomes: [Outcome], profile: ActuatorProfile) -> String {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("files")
        writer.beginArray()
        for outcome in outcomes {
            writer.beginObject()
            writer.key("error")
            if let error = outcome.error { writer.string(error) } else { writer.null() }
            writer.key("input")
            writer.string(outcome.input)
            writer.key("output")
            if let path = outcome.output { writer.string(path) } else { writer.null() }
            writer.key("report")
            if let report = outcome.compiled?.report { Self.write(report, to: &writer) } else { writer.null() }
            writer.endObject()
        }
        writer.endArray()
        writer.key("options")
        Self.write(options, to: &writer)
        writer.key("profile")
        writer.string(profile.name)
        writer.key("schema")
        writer.string("haptic-compile/1")
        writer.endObject()
        writer.endDocument()
        return writer.text
    }

    static func write(_ options: CompileOptions, to writer: inout JSONWriter) {
        writer.beginObject(inline: true)
        writer.key("loops")
        writer.bool(options.loops)
        writer.key("sharpnessTolerance")
        writer.integer(options.effectiveSharpnessTolerance)
        writer.key("tickRate")
        writer.integer(Int(options.tickRate))
        writer.key("tolerance")
        writer.integer(options.tolerance)
        writer.endObject()
    }

    /// One compile report, keys sorted (shared with `haptic bench --json`).
    static func write(_ r: CompileReport, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("ahapMinifiedBytes")
        writer.integer(r.ahapMinifiedBytes)
        writer.key("ahapRatio")
        writer.number(r.ahapRatio)
        writer.key("bodyBytes")
        writer.integer(r.bodyBytes)
        writer.key("compileSeconds")
        writer.number(r.compileSeconds)
        writer.key("deviceNotes")
        writer.beginArray(inline: true)
        for note in r.deviceNotes { writer.string(note) }
        writer.endArray()
        writer.key("fidelity")
        writer.beginObject()
        let f = r.fidelity
        writer.key("amplitudeMaxError")
        writer.integer(f.amplitudeMaxError)
        writer.key("amplitudeMeanError")
        writer.number(f.amplitudeMeanError)
        writer.key("playbackSeconds")
        writer.number(f.playbackSeconds)
        writer.key("problem")
        if let problem = f.problem { writer.string(problem) } else { writer.null() }
        writer.key("sharpnessMaxError")
        if let s = f.sharpnessMaxError { writer.integer(s) } else { writer.null() }
        writer.key("sharpnessMeanError")
        if let s = f.sharpnessMeanError { writer.number(s) } else { writer.null() }
        writer.key("sharpnessTicks")
        writer.integer(f.sharpnessTicks)
        writer.key("sharpnessTolerance")
        writer.integer(f.sharpnessTolerance)
        writer.key("ticks")
        writer.integer(f.ticks)
        writer.key("tolerance")
        writer.integer(f.tolerance)
        writer.key("withinTolerance")
        writer.bool(f.withinTolerance)
        writer.endObject()
        writer.key("instructions")
        write(r.instructions, to: &writer)
        writer.key("profile")
        writer.string(r.profile)
        writer.key("programBytes")
        writer.integer(r.programBytes)
        writer.key("pulses")
        writer.integer(r.pulses)
        writer.key("rawRatio")
        writer.number(r.rawRatio)
        writer.key("rawSampleBytes")
        writer.integer(r.rawSampleBytes)
        writer.key("sharpnessChannel")
        writer.bool(r.sharpnessChannel)
        writer.key("sharpnessRendered")
        writer.bool(r.sharpnessRendered)
        writer.key("tickRate")
        writer.integer(r.tickRate)
        writer.key("totalTicks")
        writer.integer(r.totalTicks)
        writer.key("transients")
        writer.integer(r.transients)
        writer.endObject()
    }

    /// Instruction counts by PROTOCOL.md name, plus "total" (keys sorted).
    static func write(_ counts: InstructionCounts, to writer: inout JSONWriter) {
        writer.beginObject(inline: true)
        for (name, count) in (counts.byName + [("total", counts.total)]).sorted(by: { $0.name < $1.name }) {
            writer.key(name)
            writer.integer(count)
        }
        writer.endObject()
    }
}
