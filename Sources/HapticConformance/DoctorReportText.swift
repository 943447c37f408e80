import Foundation
import HapticProtocol

extension DoctorReport {
    /// The report as `haptic doctor` prints it: (name, value) lines.
    public var lines: [(String, String)] {
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
