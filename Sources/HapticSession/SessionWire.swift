import HapticProtocol

/// A message the host sends, in 3.0's terms where the two majors lay it out differently
/// (PROTOCOL-3.md 3.11): 3.0's PLAY, STOP and SET_PARAM name a play id and a channel mask, which a
/// 2.0 device does not have; 2.0's are 3.0's play 0 on channel 0 (`init(_:)`). Everything else has
/// one layout in both (HELLO's major byte aside) and stays a `Message`.
package enum HostMessage: Hashable, Sendable {
    case shared(Message)
    case play(Message3.Play)
    case stop(Message3.Stop)
    case setParam(Message3.SetParam)
    /// A play record: 2.0 asks by `index` (0 the latest play), 3.0 by play and channel.
    case query(RecordQuery)
    /// DESCRIBE, 3.0 only: answered by CHANNEL_INFO.
    case describe(channel: UInt8)
    /// CONTROL, 3.0 only (3.7, 3.11): pause, resume, seek, rate, loops, loop end, mute, priority.
    case control(Message3.Control)

    /// The play record a QUERY asks for, in both majors' terms.
    package struct RecordQuery: Hashable, Sendable {
        package var index: UInt8
        package var play: UInt8
        package var channel: UInt8

        package init(index: UInt8 = 0, play: UInt8 = 0, channel: UInt8 = 0) {
            self.index = index
            self.play = play
            self.channel = channel
        }

        /// The latest record of `play` on its lowest channel (2.0: the latest play).
        package init(playing play: Message3.Play?) {
            let channels = play?.channels ?? 1
            self.init(play: play?.play ?? 0, channel: UInt8(channels == 0 ? 0 : channels.trailingZeroBitCount))
        }
    }

    /// 2.0's message as the host means it on either major: one play (id 0) on channel 0; STOP and
    /// SET_PARAM for every play on every channel, as in 2.0 where there is only one.
    package init(_ message: Message) {
        switch message {
        case .play(let p):
            self = .play(
                Message3.Play(
                    play: 0, channels: 1, slot: p.slot, flags: p.flags & Message.Play.atFlag, at: p.at, scale: p.scale,
                    offset: p.offset, loops: p.loops))
        case .stop(let s): self = .stop(Message3.Stop(flags: s.flags & Message.Stop.brakeFlag))
        case .setParam(let s): self = .setParam(Message3.SetParam(scale: s.scale, offset: s.offset))
        case .query(let q): self = .query(RecordQuery(index: q.index ?? 0))
        default: self = .shared(message)
        }
    }

    package var type: MessageType {
        switch self {
        case .shared(let message): message.type
        case .play: .play
        case .stop: .stop
        case .setParam: .setParam
        case .query: .query
        case .describe: .describe
        case .control: .control
        }
    }

    /// The PLAY this is, if it is one.
    package var play: Message3.Play? {
        if case .play(let play) = self { return play }
        return nil
    }
}

/// Why a host message cannot go to this device, or its bytes are too many for a frame.
package enum WireRefusal: Error, Sendable, Equatable {
    /// The device's major has no such message or field (3.14: "it never sends a 3.0 message to
    /// a 2.0 device"); the text names what.
    case unavailable(String)
    case tooLong(Int)
}

/// What a frame from the device means to the session, whichever major laid it out.
package enum DeviceFrame: Sendable {
    case ack(Message.Ack)
    case nack(Message.Nack)
    /// INFO: 2.6's fields, and 3.0's device-wide ones from a 3.0 device.
    case info(Message.Info, Message3.Info?)
    case infoPart(Message.InfoPart)
    case pong(Message.Pong)
    case telemetry(DeviceEvent)
    case credit(Message.Credit)
    case reset(Message.Reset)
    /// STATUS in 2.0's shape, and the play and channel it is about (2.0: 0 and 0).
    case status(Message.Status, play: UInt8, channel: UInt8)
    case channelInfo(Message3.ChannelInfo)
    /// Host-to-device types echoed back, and replies the session does not use (2.2.1).
    case ignored
}

/// The wire codec of one protocol major: chosen once, from the version the handshake negotiated
/// (`SessionEngine.wire`); nothing else in the session asks which major it speaks.
package protocol SessionWire: Sendable {
    /// The version HELLO asks for.
    var version: ProtocolVersion { get }
    /// QUERY can ask for the record before the latest (2.0's index 1); 3.0 keeps one record per
    /// play and channel instead.
    var keepsOlderRecords: Bool { get }
    func encode(_ message: HostMessage, sequence: UInt8) throws(WireRefusal) -> [UInt8]
    func decode(_ frame: Frame) throws(MessageDecodeError) -> DeviceFrame
    /// The whole INFO from its INFO_PART pieces' bytes (2.19), or nil if they do not decode.
    func info(payload: [UInt8]) -> DeviceFrame?
}

extension SessionWire {
    func encoded(_ message: Message, sequence: UInt8) throws(WireRefusal) -> [UInt8] {
        do {
            return try message.encoded(sequence: sequence)
        } catch {
            throw .tooLong(error.count)
        }
    }

    func encoded(_ message: Message3, sequence: UInt8) throws(WireRefusal) -> [UInt8] {
        do {
            return try message.encoded(sequence: sequence)
        } catch {
            throw .tooLong(error.count)
        }
    }

    /// HELLO asks for this wire's version, whatever the operation put in it.
    func hello(_ message: Message) -> Message {
        guard case .hello(var hello) = message else { return message }
        hello.version = version
        return .hello(hello)
    }

    package func info(payload: [UInt8]) -> DeviceFrame? {
        try? decode(Frame(messageType: MessageType.info.rawValue, sequence: 0, payload: payload))
    }
}
