/// Message types of the wire protocol (firmware-protocol/PROTOCOL.md 2.2.2): the frame's `type` byte.
/// 0x01...0x7F travel host to device, 0x80...0xFF device to host; C: hb_messages.h. CONTROL,
/// DESCRIBE and CHANNEL_INFO exist only in protocol 3.0 (PROTOCOL-3.md 3.11): `Message` refuses them.
public enum MessageType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case hello = 0x01
    case ping = 0x02
    case upload = 0x03
    case commit = 0x04
    case play = 0x05
    case stop = 0x06
    case prepare = 0x07
    case setParam = 0x08
    case streamOpen = 0x09
    case streamData = 0x0A
    case setConfig = 0x0B
    case diag = 0x0C
    case query = 0x0D
    case control = 0x0E
    case describe = 0x0F

    case ack = 0x80
    case nack = 0x81
    case info = 0x82
    case pong = 0x83
    case telemetry = 0x84
    case credit = 0x85
    case reset = 0x86
    case diagReport = 0x87
    case status = 0x88
    case infoPart = 0x89
    case channelInfo = 0x8A

    /// Types the host sends: the device answers a command from this range, or ignores the frame.
    public static func isHostToDevice(_ raw: UInt8) -> Bool { raw < 0x80 }

    /// Acknowledged: the device answers with exactly one response carrying the command's sequence
    /// number, and the host retransmits until it has one (2.4).
    public var isCommand: Bool {
        switch self {
        case .hello, .upload, .commit, .play, .stop, .prepare, .streamOpen, .setConfig, .control: true
        default: false
        }
    }

    /// Defined by protocol 2.0 (PROTOCOL.md 2.2.2); the others are 3.0's alone.
    public var isInProtocol2: Bool {
        switch self {
        case .control, .describe, .channelInfo: false
        default: true
        }
    }

    /// Bytes every payload of this type has at least in protocol 2.0 (2.2.1); longer payloads carry
    /// data (UPLOAD, STREAM_DATA), a profile name (INFO) or fields of a later minor version. Types
    /// 2.0 lacks give their 3.0 figure; 3.0's own table is `Message3.fixedPayloadCount(of:)`.
    public var fixedPayloadCount: Int {
        switch self {
        case .hello: 2
        case .ping: 4
        case .upload: 6
        case .commit: 7
        case .play: 10
        case .stop: 1
        case .prepare: 0
        case .setParam: 2
        case .streamOpen: 16
        case .streamData: 4
        case .setConfig: 5
        case .diag: 0
        case .query: 0
        case .control, .describe, .channelInfo: Message3.fixedPayloadCount(of: self)
        case .ack: 5
        case .nack: 6
        case .info: Message.Info.fixedCount
        case .pong: 10
        case .telemetry: 7
        case .credit: 8
        case .reset: 7
        case .diagReport: Message.DiagReport.fixedCount
        case .status: Message.Status.fixedCount
        case .infoPart: 2
        }
    }

    /// The one name of a type byte: its PROTOCOL.md name, or `TYPE_0x7E` for a type this
    /// protocol version does not define (traces, conformance divergences, decode errors).
    public static func name(of raw: UInt8) -> String {
        MessageType(rawValue: raw)?.description ?? "TYPE_0x" + String(raw, radix: 16, uppercase: true).leftPadded(to: 2)
    }

    public var description: String {
        switch self {
        case .hello: "HELLO"
        case .ping: "PING"
        case .upload: "UPLOAD"
        case .commit: "COMMIT"
        case .play: "PLAY"
        case .stop: "STOP"
        case .prepare: "PREPARE"
        case .setParam: "SET_PARAM"
        case .streamOpen: "STREAM_OPEN"
        case .streamData: "STREAM_DATA"
        case .setConfig: "SET_CONFIG"
        case .diag: "DIAG"
        case .query: "QUERY"
        case .control: "CONTROL"
        case .describe: "DESCRIBE"
        case .ack: "ACK"
        case .nack: "NACK"
        case .info: "INFO"
        case .pong: "PONG"
        case .telemetry: "TELEMETRY"
        case .credit: "CREDIT"
        case .reset: "RESET"
        case .diagReport: "DIAG_REPORT"
        case .status: "STATUS"
        case .infoPart: "INFO_PART"
        case .channelInfo: "CHANNEL_INFO"
        }
    }
}

/// Protocol version (2.6): a major mismatch is incompatible; minors are compatible both ways
/// (fields are only appended, capability bits announce features).
public struct ProtocolVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: UInt8
    public var minor: UInt8

    public static let current = ProtocolVersion(major: 2, minor: 0)

    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    public func isCompatible(with other: ProtocolVersion) -> Bool { major == other.major }

    public var description: String { "\(major).\(minor)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
