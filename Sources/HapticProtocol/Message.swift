/// One wire-protocol message (firmware-protocol/PROTOCOL.md 2.2): what a frame's type and payload
/// mean. Each case's payload type lives in its own file (MessageSession, MessageSlots,
/// MessagePlayback, MessageStream, MessageTime, MessageReplies, MessageTelemetry).
///
/// Fields mirror the wire, raw values included, so a device model can apply the protocol's checks
/// (reserved bits, unknown keys) to exactly what arrived.
public enum Message: Hashable, Sendable {
    case hello(Hello)
    case ping(Ping)
    case upload(Upload)
    case commit(Commit)
    case play(Play)
    case stop(Stop)
    case prepare(Prepare)
    case setParam(SetParam)
    case streamOpen(StreamOpen)
    case streamData(StreamData)
    case setConfig(SetConfig)
    case diag(Diag)
    case query(Query)
    case ack(Ack)
    case nack(Nack)
    case info(Info)
    case pong(Pong)
    case telemetry(Telemetry)
    case credit(Credit)
    case reset(Reset)
    case diagReport(DiagReport)
    case status(Status)
    case infoPart(InfoPart)

    /// The slot number of the stream (2.2.2).
    public static let streamSlot: UInt8 = 0xFF

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
        }
    }

    /// The payload bytes, exactly as the C core lays them out.
    public var payload: [UInt8] { content.bytes }

    /// The message's fields.
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
        }
    }

    /// The frame carrying this message (flags 0: none are defined in 1.0).
    public func frame(sequence: UInt8) -> Frame {
        Frame(messageType: type.rawValue, sequence: sequence, payload: payload)
    }

    /// The bytes on the wire: stuffed frame and delimiter. Throws only for payloads over 128 bytes
    /// (UPLOAD data over 123, STREAM_DATA over 124, a profile name over 84).
    public func encoded(sequence: UInt8) throws(Frame.PayloadTooLong) -> [UInt8] {
        try frame(sequence: sequence).encoded()
    }

    /// Decodes a frame's message. Extra payload bytes past the fixed part are ignored (2.2.1),
    /// except where they are data.
    public init(frame: Frame) throws(MessageDecodeError) {
        try self.init(type: frame.messageType, payload: frame.payload)
    }

    public init(type rawType: UInt8, payload: [UInt8]) throws(MessageDecodeError) {
        guard let type = MessageType(rawValue: rawType), type.isInProtocol2 else { throw .unknownType(rawType) }
        guard payload.count >= type.fixedPayloadCount else {
            throw .tooShort(type, count: payload.count, fixedCount: type.fixedPayloadCount)
        }
        var r = PayloadFields(reading: payload)
        switch type {
        case .hello: self = .hello(Hello(reading: &r))
        case .ping: self = .ping(Ping(reading: &r))
        case .upload: self = .upload(Upload(reading: &r))
        case .commit: self = .commit(Commit(reading: &r))
        case .play: self = .play(Play(reading: &r))
        case .stop: self = .stop(Stop(reading: &r))
        case .prepare: self = .prepare(Prepare(reading: &r))
        case .setParam: self = .setParam(SetParam(reading: &r))
        case .streamOpen: self = .streamOpen(StreamOpen(reading: &r))
        case .streamData: self = .streamData(StreamData(reading: &r))
        case .setConfig: self = .setConfig(SetConfig(reading: &r))
        case .diag: self = .diag(Diag())
        case .query: self = .query(Query(reading: &r))
        case .ack: self = .ack(Ack(reading: &r))
        case .nack: self = .nack(Nack(reading: &r))
        case .info: self = .info(Info(reading: &r))
        case .pong: self = .pong(Pong(reading: &r))
        case .telemetry: self = .telemetry(Telemetry(reading: &r))
        case .credit: self = .credit(Credit(reading: &r))
        case .reset: self = .reset(Reset(reading: &r))
        case .diagReport: self = .diagReport(DiagReport(reading: &r))
        case .status: self = .status(Status(reading: &r))
        case .infoPart: self = .infoPart(InfoPart(reading: &r))
        case .control, .describe, .channelInfo: throw .unknownType(rawType)
        }
        if let error = r.error { throw error }
    }
}
