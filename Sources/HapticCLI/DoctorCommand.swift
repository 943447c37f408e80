import ArgumentParser
import Foundation
import HapticConformance

/// `haptic doctor --port PATH [--json]`: what the board is and whether it works, with one line
/// naming the cause and the fix when it does not (docs/cli.md). The checks are the library's
/// (`HapticConformance.Doctor`); the command parses, prints and sets the exit status.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a board: identity, output stage and driver, link, and a short self-test.",
        discussion: """
            Identifies the board (USB vendor:product and product name, firmware and protocol versions, actuator and \
            profile, output stage and supply), checks its driver (present, calibration results, the LRA resonance it \
            measured against the profile's), measures the link (round trip over PINGs, retransmissions) and plays a \
            40 ms self-test. An Arduino resets when its port is opened: the doctor waits for it to boot.

            Exit status: 0 when everything works; 1 with one line naming the cause and the fix on standard error \
            when something does not; 64 for a bad command line.
            """
    )

    @Option(help: "Serial port of the board (haptic ports lists them; a pseudo-terminal of haptic emulate works too).")
    var port: String

    @OptionGroup var line: LineOptions

    @Flag(help: "Write one JSON document (schema haptic-doctor/1, docs/cli.md) instead of text.")
    var json = false

    @Option(parsing: .unconditional, help: "Seconds to wait for the board to answer after opening its port (a bootloader's wait included), 0.5...30.")
    var patience: Double = 4

    @Flag(help: "Recalibrate the driver first (SET_CONFIG RECALIBRATE: the board restarts and calibrates) and wait for the board to come back.")
    var recalibrate = false

    func validate() throws {
        guard (0.5...30).contains(patience) else { throw ValidationError("--patience must be 0.5...30 seconds, not \(patience)") }
    }

    func run() throws {
        let report = HapticConformance.Doctor.examine(port: port, baud: line.baud, patience: patience, recalibrate: recalibrate)
        if json {
            emit(try reportJSON(report))
        } else {
            for (name, value) in report.lines {
                emit(name.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + value)
            }
        }
        if let problem = report.problem {
            FileHandle.standardError.write(Data("haptic doctor: \(problem.cause): \(problem.fix)\n".utf8))
            throw ExitCode(1)
        }
    }
}
