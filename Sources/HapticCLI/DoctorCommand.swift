import ArgumentParser
import Foundation
import HapticConformance
import HapticProtocol

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

extension DoctorReport {
    /// The report as text lines: (name, value).
    var lines: [(String, String)] {
        var out: [(String, String)] = []
        let usb = port.usb.map { "USB \($0.vendorProduct)" + ($0.product.map { " \($0)" } ?? "") + ($0.manufacturer.map { " by \($0)" } ?? "") }
        out.append(("port", port.path + " (" + (usb ?? Self.kind(ofPort: port.path)) + ")"))
        if let b = board {
            out.append(("firmware", "\(b.firmware), protocol \(b.protocolVersion) (host \(ProtocolVersion.current))"))
            out.append(("actuator", "\(b.actuator), profile \(b.profile), \(b.rate) Hz; capabilities \(b.capabilities.joined(separator: ", "))"))
            out.append(
                (
                    "reset",
                    b.resetOnOpen
                        ? "the board reset when its port was opened (\(b.resetReason ?? "reason unknown")) and booted"
                        : "no reset when its port was opened"
                ))
        }
        if let s = stage {
            var text: String
            switch s.kind {
            case "drv2605l":
                text = "DRV2605L, closed loop: " + (s.driverPresent ? "present" : "not answering")
                if s.calibrated {
                    text += ", calibrated" + (s.calibrationStored ? " (results kept in EEPROM)" : " at this boot")
                    text += String(
                        format: "; A_CAL_COMP 0x%02X, A_CAL_BEMF 0x%02X, BEMF gain %d", s.calibrationCompensation, s.calibrationBackEmf, s.backEmfGain
                    )
                }
                if let measured = s.measuredResonanceHz {
                    text += String(format: "; resonance %.1f Hz measured", measured)
                    if let profile = s.profileResonanceHz { text += String(format: " (profile %.0f Hz)", profile) }
                }
                text += String(format: "; rated %.2f V, limit %.2f V; STATUS 0x%02X", s.ratedVolts, s.limitVolts, s.driverStatus)
                if s.busErrors > 0 || s.retries > 0 { text += "; \(s.busErrors) failed I2C transfers, \(s.retries) retried" }
            case "pwm":
                text = String(
                    format: "PWM H-bridge: supply %.2f V (build setting), rated %.2f V, limit %.2f V", s.supplyVolts, s.ratedVolts, s.limitVolts)
            default:
                text = "no board stage (a device model)"
            }
            if s.fault != 0 { text += "; fault \(MessageErrorCode(UInt8(s.fault)))" }
            out.append(("stage", text))
        }
        if let l = link {
            let trip =
                l.bestRoundTripMs.map {
                    String(format: "round trip %.2f ms (best of %d PINGs, worst %.2f ms)", $0, l.pings, l.worstRoundTripMs ?? $0)
                } ?? "no PONG"
            out.append(("link", "\(trip), \(l.retransmissions) retransmissions"))
        }
        if let t = selfTest { out.append(("self-test", t.result)) }
        for note in notes { out.append(("note", note)) }
        out.append(("result", problem.map { "problem: \($0.cause)" } ?? "ok"))
        return out
    }
}
