import HapticProtocol

/// Protocol 2.0's wire (PROTOCOL.md part 2), kept by a 3.0 host for 2.0 devices (PROTOCOL-3.md
/// 3.14): one channel, one play at a time, no controls. What 2.0 cannot say is refused, never
/// sent in 3.0's layout.
package struct SessionWire2: SessionWire {
    package let version = ProtocolVersion(major: 2, minor: 0)
    package let keepsOlderRecords = true

    package init() {}

    package func encode(_ message: HostMessage, sequence: UInt8) throws(WireRefusal) -> [UInt8] {
        switch message {
        case .shared(let message):
            return try encoded(hello(message), sequence: sequence)
        case .play(let p):
            if p.channels != 1 { throw .unavailable("channels other than channel 0") }
            if p.flags & ~Message3.Play.atFlag != 0 { throw .unavailable("mixing, cutting and muted plays") }
            if p.rate != Message3.normalRate || p.from != 0 || p.loopEnd != 0 {
                throw .unavailable("rate, start position and loop end")
            }
            let play = Message.Play(slot: p.slot, flags: p.flags, at: p.at, scale: p.scale, offset: p.offset, loops: p.loops)
            return try encoded(.play(play), sequence: sequence)
        case .stop(let s):
            if s.flags & Message3.Stop.atFlag != 0 { throw .unavailable("a STOP at a tick") }
            return try encoded(.stop(Message.Stop(flags: s.flags & Message3.Stop.brakeFlag)), sequence: sequence)
        case .setParam(let s):
            return try encoded(.setParam(Message.SetParam(scale: s.scale, offset: s.offset)), sequence: sequence)
        case .query(let q):
            return try encoded(.query(Message.Query(index: q.index)), sequence: sequence)
        case .describe:
            throw .unavailable("DESCRIBE")
        case .control:
            throw .unavailable("play controls (pause, resume, seek, rate, loop range, mute)")
        }
    }

    package func decode(_ frame: Frame) throws(MessageDecodeError) -> DeviceFrame {
        switch try Message(frame: frame) {
        case .ack(let ack): .ack(ack)
        case .nack(let nack): .nack(nack)
        case .info(let info): .info(info, nil)
        case .infoPart(let part): .infoPart(part)
        case .pong(let pong): .pong(pong)
        case .telemetry(let telemetry): .telemetry(DeviceEvent(telemetry: telemetry))
        case .credit(let credit): .credit(credit)
        case .reset(let reset): .reset(reset)
        case .status(let status): .status(status, play: 0, channel: 0)
        default: .ignored
        }
    }
}

/// Protocol 3.0's wire (PROTOCOL-3.md 3.11): PLAY, STOP, SET_PARAM and QUERY name plays and
/// channels; TELEMETRY and STATUS say which; INFO has 3.0's device-wide fields, CHANNEL_INFO each
/// channel's.
package struct SessionWire3: SessionWire {
    package let version = ProtocolVersion.version3
    package let keepsOlderRecords = false

    package init() {}

    package func encode(_ message: HostMessage, sequence: UInt8) throws(WireRefusal) -> [UInt8] {
        switch message {
        case .shared(let message): try encoded(hello(message), sequence: sequence)
        case .play(let play): try encoded(Message3.play(play), sequence: sequence)
        case .stop(let stop): try encoded(Message3.stop(stop), sequence: sequence)
        case .setParam(let parameters): try encoded(Message3.setParam(parameters), sequence: sequence)
        case .query(let q): try encoded(Message3.query(Message3.Query(play: q.play, channel: q.channel)), sequence: sequence)
        case .describe(let channel): try encoded(Message3.describe(Message3.Describe(channel: channel)), sequence: sequence)
        case .control(let control): try encoded(Message3.control(control), sequence: sequence)
        }
    }

    package func decode(_ frame: Frame) throws(MessageDecodeError) -> DeviceFrame {
        switch try Message3(frame: frame) {
        case .ack(let ack): return .ack(ack)
        case .nack(let nack): return .nack(nack)
        case .info(let info): return .info(info.base, info)
        case .infoPart(let part): return .infoPart(part)
        case .pong(let pong): return .pong(pong)
        case .telemetry(let telemetry): return .telemetry(DeviceEvent(telemetry3: telemetry))
        case .credit(let credit): return .credit(credit)
        case .reset(let reset): return .reset(reset)
        case .status(let status):
            // 2.0's shape: a pending play is 2.0's pending one; a record is the latest (index 0).
            let none = Message.PlayRecord(state: 0, sequence: 0, slot: 0, code: 0, start: 0, firstOffset: nil, end: 0)
            let pending = status.isPending
            let shaped = Message.Status(
                now: status.now, pendingSlot: pending ? status.record.slot : Message.Telemetry.noSlot,
                pendingSequence: pending ? status.record.sequence : 0, index: 0, record: pending ? none : status.record)
            return .status(shaped, play: status.play, channel: status.channel)
        case .channelInfo(let channel): return .channelInfo(channel)
        default: return .ignored
        }
    }
}
