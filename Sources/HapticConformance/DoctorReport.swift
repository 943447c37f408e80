import Foundation
import HapticPattern
import HapticProtocol
import HapticTransport

/// What the doctor found (`Doctor.examine`; `haptic doctor --json` writes it as schema
/// haptic-doctor/1, docs/cli.md).
public struct DoctorReport: Encodable, Sendable {
    public struct Port: Encodable, Sendable {
        public var path: String
        @Nullable public var usb: USB?
    }
    public struct USB: Encodable, Sendable {
        public var vendorProduct: String
        @Nullable public var manufacturer: String?
        @Nullable public var product: String?
    }
    public struct Board: Encodable, Sendable {
        public var firmware, protocolVersion, actuator, profile: String
        public var rate: Int
        public var capabilities: [String]
        public var resetOnOpen: Bool
        @Nullable public var resetReason: String?
    }
    public struct Stage: Encodable, Sendable {
        public var kind: String
        public var fault: Int
        public var driverPresent, calibrated, calibrationStored, standby: Bool
        public var driverStatus: Int
        public var supplyVolts, ratedVolts, limitVolts: Double
        public var calibrationCompensation, calibrationBackEmf, backEmfGain: Int
        @Nullable public var measuredResonanceHz: Double?
        @Nullable public var profileResonanceHz: Double?
        public var busErrors, retries: Int
    }
    public struct Link: Encodable, Sendable {
        public var pings: Int
        @Nullable public var bestRoundTripMs: Double?
        @Nullable public var worstRoundTripMs: Double?
        public var retransmissions: Int
    }
    public struct SelfTest: Encodable, Sendable {
        public var result: String
        @Nullable public var startedTick: UInt32?
        @Nullable public var endTick: UInt32?
    }
    public struct Problem: Encodable, Sendable {
        @Nullable public var code: Int?
        public var cause, fix: String
    }

    public var schema = "haptic-doctor/1"
    public var port: Port
    @Nullable public var board: Board?
    @Nullable public var stage: Stage?
    @Nullable public var link: Link?
    @Nullable public var selfTest: SelfTest?
    public var notes: [String] = []
    @Nullable public var problem: Problem?
    public var ok: Bool { problem == nil }

    enum CodingKeys: String, CodingKey { case schema, port, board, stage, link, selfTest, notes, problem, ok }

    public func encode(to encoder: any Encoder) throws {
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
    public static func usb(of path: String) -> USB? {
        guard let ports = try? listSerialPorts() else { return nil }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let found = ports.first { $0.path == path || URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path == real }
        return found?.usb.map { USB(vendorProduct: $0.vendorProduct, manufacturer: $0.manufacturer, product: $0.product) }
    }
}

extension DoctorReport {
    /// What a path that is not a listed USB port is.
    public static func kind(ofPort path: String) -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "no such device" }
        if path.hasPrefix("/dev/pts/") || path.hasPrefix("/dev/ttys") { return "a pseudo-terminal" }
        return "not a listed USB port: a native UART or another serial device"
    }
}
