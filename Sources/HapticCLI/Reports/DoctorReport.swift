import Foundation
import HapticProtocol
import HapticTransport

/// What `haptic doctor` found (schema haptic-doctor/1).
struct DoctorReport: Encodable {
    struct Port: Encodable {
        var path: String
        @Nullable var usb: USB?
    }
    struct USB: Encodable {
        var vendorProduct: String
        @Nullable var manufacturer: String?
        @Nullable var product: String?
    }
    struct Board: Encodable {
        var firmware, protocolVersion, actuator, profile: String
        var rate: Int
        var capabilities: [String]
        var resetOnOpen: Bool
        @Nullable var resetReason: String?
    }
    struct Stage: Encodable {
        var kind: String
        var fault: Int
        var driverPresent, calibrated, calibrationStored, standby: Bool
        var driverStatus: Int
        var supplyVolts, ratedVolts, limitVolts: Double
        var calibrationCompensation, calibrationBackEmf, backEmfGain: Int
        @Nullable var measuredResonanceHz: Double?
        @Nullable var profileResonanceHz: Double?
        var busErrors, retries: Int
    }
    struct Link: Encodable {
        var pings: Int
        @Nullable var bestRoundTripMs: Double?
        @Nullable var worstRoundTripMs: Double?
        var retransmissions: Int
    }
    struct SelfTest: Encodable {
        var result: String
        @Nullable var startedTick: UInt32?
        @Nullable var endTick: UInt32?
    }
    struct Problem: Encodable {
        @Nullable var code: Int?
        var cause, fix: String
    }

    var schema = "haptic-doctor/1"
    var port: Port
    @Nullable var board: Board?
    @Nullable var stage: Stage?
    @Nullable var link: Link?
    @Nullable var selfTest: SelfTest?
    var notes: [String] = []
    @Nullable var problem: Problem?
    var ok: Bool { problem == nil }

    enum CodingKeys: String, CodingKey { case schema, port, board, stage, link, selfTest, notes, problem, ok }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schema, forKey: .schema)
        try c.encode(port, forKey: .port)
        try c.encode(_board, forKey: .board)
        try c.encode(_stage, forKey: .stage)
        try c.encode(_link, forKey: .link)
        try c.encode(_selfTest, forKey: .selfTest)
        try c.encode(notes, forKey: .notes)
        try c.encode(_problem, forKey: .problem)
        try c.encode(ok, forKey: .ok)
    }

    /// The USB identity of the port, when the system lists it.
    static func usb(of path: String) -> USB? {
        guard let ports = try? listSerialPorts() else { return nil }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let found = ports.first { $0.path == path || URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path == real }
        return found?.usb.map { USB(vendorProduct: $0.vendorProduct, manufacturer: $0.manufacturer, product: $0.product) }
    }

    /// The report as text lines: (name, value).
    var lines: [(String, String)] {
        var out: [(String, String)] = []
        let usb = port.usb.map { "USB \($0.vendorProduct)" + ($0.product.map { " \($0)" } ?? "") + ($0.manufacturer.map { " by \($0)" } ?? "") }
        out.append(("port", port.path + " (" + (usb ?? "not a listed USB port: a pseudo-terminal or a native UART") + ")"))
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
