/// One message of protocol 3.0 (firmware-protocol/PROTOCOL-3.md 3.11): what a frame's type and
/// payload mean to a 3.0 device or host. The messages 3.0 leaves unchanged reuse 2.0's payload
/// types (`Message`); the changed and new ones live in Message3Playback, Message3Session and
/// Message3Status. The type bytes are 2.0's, the layouts are not: a host never sends one version's
/// message to the other's device (3.14).
///
/// Fields mirror the wire, raw values and reserved bits included, so a device model can apply the
/// protocol's checks to exactly what arrived.
public enum Message3: Hashable, Sendable {
    case hello(Message.Hello)
    case ping(Message.Ping)
    case upload(Message.Upload)
    case commit(Message.Commit)
    case play(Play)
    case stop(Stop)
    case prepare(Message.Prepare)
    case setParam(SetParam)
    case streamOpen(Message.StreamOpen)
    case streamData(Message.StreamData)
    /// 2.0's layout; 3.0's keys are `ConfigKey`.
    case setConfig(Message.SetConfig)
    case diag(Diag)
    case query(Query)
    case control(Control)
    case describe(Describe)
    case ack(Message.Ack)
    case nack(Message.Nack)
    case info(Info)
    case pong(Message.Pong)
    case telemetry(Telemetry)
    case credit(Message.Credit)
    case reset(Message.Reset)
    case diagReport(DiagReport)
    case status(Status)
    case infoPart(Message.InfoPart)
    case channelInfo(ChannelInfo)

    /// Bytes every 3.0 payload of this type has at least (3.11; 2.2.1: longer ones are accepted,
    /// the extra bytes ignored unless they are data or a profile name).
    public static func fixedPayloadCount(of type: MessageType) -> Int {
        switch type {
        case .play: Play.fixedCount
        case .stop: Stop.fixedCount
        case .setParam: SetParam.fixedCount
        case .query: Query.fixedCount
        case .control: Control.fixedCount
        case .describe: Describe.fixedCount
        case .info: Info.fixedCount
        case .telemetry: Telemetry.fixedCount
        case .diagReport: DiagReport.fixedCount
        case .status: Status.fixedCount
        case .channelInfo: ChannelInfo.fixedCount
        case .hello, .ping, .upload, .commit, .prepare, .streamOpen, .streamData, .setConfig, .diag, .ack, .nack,
            .pong, .credit, .reset, .infoPart:
            type.fixedPayloadCount
        }
    }

    public var type: MessageType {
        switch self {
        case .hello: .hello
        case .ping: .ping
        case .upload: .upload
        case .commit: .commit
        case .play: .play
        case .stop: .stop
        case .prepare: .prepare
        case .setParam: .setParam
        case .streamOpen: .streamOpen
        case .streamData: .streamData
        case .setConfig: .setConfig
        case .diag: .diag
        case .query: .query
        case .control: .control
        case .describe: .describe
        case .ack: .ack
        case .nack: .nack
        case .info: .info
        case .pong: .pong
        case .telemetry: .telemetry
        case .credit: .credit
        case .reset: .reset
        case .diagReport: .diagReport
        case .status: .status
        case .infoPart: .infoPart
        case .channelInfo: .channelInfo
        }
    }

    /// The payload bytes, exactly as 3.11 lays them out.
    public var payload: [UInt8] { content.bytes }

    private var content: any MessagePayload {
        switch self {
        case .hello(let m): m
        case .ping(let m): m
        case .upload(let m): m
        case .commit(let m): m
        case .play(let m): m
        case .stop(let m): m
        case .prepare(let m): m
        case .setParam(let m): m
        case .streamOpen(let m): m
        case .streamData(let m): m
        case .setConfig(let m): m
        case .diag(let m): m
        case .query(let m): m
        case .control(let m): m
        case .describe(let m): m
        case .ack(let m): m
        case .nack(let m): m
        case .info(let m): m
        case .pong(let m): m
        case .telemetry(let m): m
        case .credit(let m): m
        case .reset(let m): m
        case .diagReport(let m): m
        case .status(let m): m
        case .infoPart(let m): m
        case .channelInfo(let m): m
        }
    }

    /// The frame carrying this message (flags 0).
    public func frame(sequence: UInt8) -> Frame {
        Frame(messageType: type.rawValue, sequence: sequence, payload: payload)
    }

    /// The bytes on the wire: stuffed frame and delimiter. Throws only for payloads over 128 bytes.
    public func encoded(sequence: UInt8) throws(Frame.PayloadTooLong) -> [UInt8] {
        try frame(sequence: sequence).encoded()
    }

    /// Decodes a frame's message as 3.0 reads it.
    public init(frame: Frame) throws(MessageDecodeError) {
        try self.init(type: frame.messageType, payload: frame.payload)
    }

    public init(type rawType: UInt8, payload: [UInt8]) throws(MessageDecodeError) {
        guard let type = MessageType(rawValue: rawType) else { throw .unknownType(rawType) }
        let fixedCount = Self.fixedPayloadCount(of: type)
        guard payload.count >= fixedCount else { throw .tooShort(type, count: payload.count, fixedCount: fixedCount) }
        var r = PayloadFields(reading: payload)
        switch type {
        case .hello: self = .hello(Message.Hello(reading: &r))
        case .ping: self = .ping(Message.Ping(reading: &r))
        case .upload: self = .upload(Message.Upload(reading: &r))
        case .commit: self = .commit(Message.Commit(reading: &r))
        case .play: self = .play(Play(reading: &r))
        case .stop: self = .stop(Stop(reading: &r))
        case .prepare: self = .prepare(Message.Prepare(reading: &r))
        case .setParam: self = .setParam(SetParam(reading: &r))
        case .streamOpen: self = .streamOpen(Message.StreamOpen(reading: &r))
        case .streamData: self = .streamData(Message.StreamData(reading: &r))
        case .setConfig: self = .setConfig(Message.SetConfig(reading: &r))
        case .diag: self = .diag(Diag(reading: &r))
        case .query: self = .query(Query(reading: &r))
        case .control: self = .control(Control(reading: &r))
        case .describe: self = .describe(Describe(reading: &r))
        case .ack: self = .ack(Message.Ack(reading: &r))
        case .nack: self = .nack(Message.Nack(reading: &r))
        case .info: self = .info(Info(reading: &r))
        case .pong: self = .pong(Message.Pong(reading: &r))
        case .telemetry: self = .telemetry(Telemetry(reading: &r))
        case .credit: self = .credit(Message.Credit(reading: &r))
        case .reset: self = .reset(Message.Reset(reading: &r))
        case .diagReport: self = .diagReport(DiagReport(reading: &r))
        case .status: self = .status(Status(reading: &r))
        case .infoPart: self = .infoPart(Message.InfoPart(reading: &r))
        case .channelInfo: self = .channelInfo(ChannelInfo(reading: &r))
        }
        if let error = r.error { throw error }
    }
}

extension ProtocolVersion {
    /// Protocol 3.0 (PROTOCOL-3.md 3.11); `current` stays 2.0 until the host's cutover.
    public static let version3 = ProtocolVersion(major: 3, minor: 0)
}
