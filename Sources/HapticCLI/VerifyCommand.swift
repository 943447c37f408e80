import ArgumentParser
import FirmwareModel
import Foundation
import HapticCompiler
import HapticProtocol
import HapticSession
import SerialBridge

/// `haptic verify PATTERN --trace FILE [--actuator NAME] [--play N]`: a golden check of a
/// recorded trace (haptic-trace/1, from `haptic emulate --trace`, `haptic play --trace`, or any
/// device that writes one) against what the firmware model plays for that pattern on that device.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a recorded trace against what the model says the pattern must produce.",
        discussion: """
            Compiles the pattern for the trace's actuator profile (or --actuator) at its tick rate, finds the play in \
            the trace (its STARTED telemetry, with the PLAY's scale, offset and loops), runs the firmware model from \
            that tick and compares amplitude, sharpness and flags tick by tick through the brake and the first idle \
            tick after it. A trace without output records (haptic play --port --trace) is checked by its end event \
            instead. Prints the first differing tick and the ticks around it.

            Exit status: 0 when the trace equals the model; 1 on any difference (or no play in the trace, or a pattern that does not compile); 64 for a bad command line or a trace that is not haptic-trace/1 (one line naming the line).
            """
    )

    @Argument(help: "The AHAP file, or preset:NAME, that was played.")
    var input: String

    @Option(help: "The trace to check (.jsonl, haptic-trace/1).")
    var trace: String

    @Option(help: "Actuator profile to compile for (default: the trace header's profile).")
    var actuator: String?

    @Option(parsing: .unconditional, help: "Which play of the trace to check, counting from 1 (1 or more).")
    var play: Int = 1

    /// The line rate the play ran at (as `haptic play --baud`): whether a long program can be streamed.
    @OptionGroup var line: LineOptions

    func validate() throws {
        guard play >= 1 else { throw ValidationError("--play must be 1 or more, not \(play)") }
        if let actuator { _ = try Compile.loadProfile(actuator) }
    }

    func run() throws {
        let file: DeviceTrace.File
        do {
            file = try DeviceTrace.read(contentsOf: trace)
        } catch {
            // A file that cannot be read says why; one that is not haptic-trace/1 names its line.
            let problem = Self.unreadable(trace) ?? "\(trace) \(error)"
            FileHandle.standardError.write(Data("Error: \(problem)\n".utf8))
            throw ExitCode(64)
        }
        let loaded = try PatternInput.load(input)
        let profileName = actuator ?? file.header.profile
        let profile: ActuatorProfile
        do {
            profile = try ProfileLoader().load(profileName)
        } catch {
            throw CommandFailure(
                "the trace's profile '\(profileName)' is not one this haptic knows: pass --actuator NAME|PATH (\(error.description))")
        }
        var options = CompileOptions()
        options.tickRate = UInt16(clamping: file.header.tickRate)
        // As `haptic play` compiles for the device (HapticDevice.compile), from the INFO the trace recorded.
        if let info = file.deviceInfo { options.target(info, baudRate: line.baud) }
        let program: CompiledProgram
        do {
            program = try PatternCompiler.compile(loaded.pattern, profile: profile, options: options)
        } catch {
            throw CommandFailure("\(loaded.label) does not compile for \(profile.name): \(error.description)")
        }
        let result = DeviceTrace.compare(file, program: program.program, playIndex: play - 1)
        let what = "\(loaded.label) on \(profile.name) (\(file.header.source) trace \((trace as NSString).lastPathComponent))"
        if let problem = result.problem {
            emit("verify: \(what)")
            throw CommandFailure(problem)
        }
        let slot = result.play.slot.map { DeviceEvent.source($0) } ?? "a play"
        emit("verify: \(what): \(slot) started at tick \(result.play.startTick)")
        emit("program: \(Self.describe(program.report, hasInfo: file.deviceInfo != nil))")
        if let mismatch = program.report.placement.mismatch(playedFrom: result.play.slot) { throw CommandFailure(mismatch) }
        guard let difference = result.firstDifference else {
            if result.ticks > 0 {
                emit("equal: \(result.ticks) ticks (play ticks 0...\(result.ticks - 1), the brake and the first idle tick included)")
            } else {
                emit("equal: \(result.summary)")
            }
            return
        }
        emit(
            "first difference at tick \(difference.tick) (play tick \(difference.playTick)): trace \(Self.text(difference.trace)), model \(Self.text(difference.model))"
        )
        emit("    tick  play  trace                      model")
        for row in result.context {
            let mark = row == difference ? ">" : " "
            let model = row.playTick < 0 ? "before the play" : Self.text(row.model)
            let columns = [String(row.tick), String(row.playTick), Self.text(row.trace), model]
            emit(
                mark + columns[0].leftPadded(7) + columns[1].leftPadded(6) + "  " + columns[2].padding(toLength: 27, withPad: " ", startingAt: 0)
                    + columns[3])
        }
        throw ExitCode.failure
    }

    /// How the pattern was compiled: for the device in the trace's INFO, as `haptic play` does, or
    /// (a trace without INFO) without the device's options.
    static func describe(_ report: CompileReport, hasInfo: Bool) -> String {
        let loops = report.instructions.loop == 0 ? "no loops" : "\(report.instructions.loop) loops"
        guard hasInfo else { return "\(report.programBytes) bytes, \(loops) (the trace has no INFO: compiled without the device's sizes)" }
        let placement = report.placement == .stream ? "streamed" : "from a slot"
        return "\(report.programBytes) bytes, \(loops), \(placement) (compiled for the device in the trace's INFO, as haptic play does)"
    }

    /// A trace whose play came from the stream while the pattern compiles to a slot program for
    /// that device (or the other way round) recorded another program than this pattern's.
    static func text(_ sample: OutputSample?) -> String { DeviceTrace.describe(sample) }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension Verify {
    /// Why `path` cannot be read as a trace file, or nil when it can.
    static func unreadable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "--trace \(path): no such file (haptic emulate --trace or haptic play --trace writes one)"
        }
        if isDirectory.boolValue { return "--trace \(path) is a folder, not a trace file (.jsonl)" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "--trace \(path): permission denied" }
        return nil
    }
}
