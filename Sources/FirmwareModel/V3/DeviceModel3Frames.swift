import HapticProtocol

/// Frames in (firmware-protocol/PROTOCOL-3.md 3.11): the unacknowledged messages, HELLO, and the
/// commands with 2.4's duplicate memory; UPLOAD and COMMIT by the shared slots, the stream by
/// the shared stream (3.12).
extension DeviceModel3 {
    /// A command's outcome: ACK (code 0) or NACK, and the notices that follow the response.
    struct Reply {
        enum After {
            case telemetry(play: UInt8, channel: Int, slot: UInt8, tick: UInt32)
            case credit
        }
        var code: UInt8
        var value: UInt32
        var after: [After] = []

        static func ack(_ value: UInt32) -> Reply { Reply(code: 0, value: value) }
        static func nack(_ code: MessageErrorCode, _ value: UInt32 = 0) -> Reply { Reply(code: code.rawValue, value: value) }
    }

    /// 3.11: CONTROL and DESCRIBE, new in 3.0.
    static let controlType: UInt8 = 0x0E
    static let describeType: UInt8 = 0x0F
    static let channelInfoType: UInt8 = 0x8A
    /// Fixed payloads of the commands whose length 3.0 sets (others: `MessageType`'s).
    static let playCount = 25
    static let stopCount = 8
    static let controlCount = 13

    mutating func handle(_ frame: Frame, subtick: UInt16) {
        silence = 0
        let type = frame.messageType
        guard MessageType.isHostToDevice(type) else { return }
        let p = frame.payload
        switch type {
        case MessageType.ping.rawValue:
            guard p.count >= 4 else { return }
            link.send(type: MessageType.pong.rawValue, sequence: frame.sequence, payload: Array(p[0..<4]) + le(now) + le(subtick))
        case MessageType.setParam.rawValue:
            guard p.count >= 5 else { return }
            for i in matching(play: p[2], mask: p.u16(at: 3)) {
                pool[i].scale = p[0]
                pool[i].offset = Int8(bitPattern: p[1])
            }
        case MessageType.streamData.rawValue:
            guard p.count >= 4 else { return }
            streamData(offset: p.u32(at: 0), data: p[4...])
        case MessageType.query.rawValue:
            guard p.count >= 2 else { return }
            link.send(type: MessageType.status.rawValue, sequence: frame.sequence, payload: status(play: p[0], channel: p[1]))
        case Self.describeType:
            guard let channel = p.first, channel < channelCount else { return }
            link.send(type: Self.channelInfoType, sequence: frame.sequence, payload: channelInfoPayload(Int(channel)))
        case MessageType.diag.rawValue:
            // 3.11: DIAG_REPORT is the channel, then 2.18's 18 bytes of its stage (no board behind
            // the model: stage 0 and the fault it holds). Not in the reference (device3.py).
            let channel = Int(p.first ?? 0)
            guard channel < channelCount else { return }
            let report = Message.diagReport(.init(stageCode: 0, fault: MessageErrorCode(stageFaults[channel])))
            link.send(type: MessageType.diagReport.rawValue, sequence: frame.sequence, payload: [UInt8(channel)] + report.payload)
        case MessageType.hello.rawValue:
            hello(frame)
        default:
            command(frame)
        }
    }

    private mutating func hello(_ frame: Frame) {
        link.remembered = nil  // never a duplicate; a new session starts clean (2.4)
        let p = frame.payload
        let type = MessageType.hello.rawValue
        if p.count < 2 {
            link.sendResponse(sequence: frame.sequence, type: type, code: MessageErrorCode.badLength.rawValue, value: 0)
        } else if p[0] != Self.version.major {
            let value = UInt32(Self.version.major) << 8 | UInt32(Self.version.minor)
            link.sendResponse(
                sequence: frame.sequence, type: type, code: MessageErrorCode.versionIncompatible.rawValue, value: value)
        } else if p.count > 2 {
            link.send(.infoPart(DeviceLink.infoPart(infoPayload(), part: p[2])), sequence: frame.sequence)
        } else {
            link.send(type: MessageType.info.rawValue, sequence: frame.sequence, payload: infoPayload())
        }
    }

    private mutating func command(_ frame: Frame) {
        var crc: UInt16 = 0
        if link.resendIfDuplicate(frame, crc: &crc) { return }
        let p = frame.payload
        commandSequence = frame.sequence
        let reply: Reply
        switch frame.messageType {
        case MessageType.upload.rawValue where p.count >= MessageType.upload.fixedPayloadCount:
            let (code, value) = programs.upload(p, busyPlaying: isBusy(p[0]))
            reply = Reply(code: code, value: value)
        case MessageType.commit.rawValue where p.count >= MessageType.commit.fixedPayloadCount:
            let (core, seek) = (configuration.core, configuration.hasSeek)
            let (code, value) = programs.commit(p, busyPlaying: isBusy(p[0])) { program in
                Result { () throws(ProgramError) in
                    try Format3.validate(program, configuration: core, seek: seek).header.totalTicks
                }
            }
            reply = Reply(code: code, value: value)
        case MessageType.play.rawValue where p.count >= Self.playCount: reply = play(p)
        case MessageType.stop.rawValue where p.count >= Self.stopCount: reply = stop(p)
        case MessageType.prepare.rawValue:
            stage.requestWake()
            reply = .ack(stage.warmTick(now: now))
        case MessageType.setConfig.rawValue where p.count >= MessageType.setConfig.fixedPayloadCount: reply = setConfig(p)
        case Self.controlType where p.count >= Self.controlCount: reply = control(p)
        case MessageType.streamOpen.rawValue where p.count >= MessageType.streamOpen.fixedPayloadCount: reply = streamOpen(p)
        case MessageType.upload.rawValue, MessageType.commit.rawValue, MessageType.play.rawValue, MessageType.stop.rawValue,
            MessageType.setConfig.rawValue, Self.controlType, MessageType.streamOpen.rawValue:
            reply = .nack(.badLength)
        default:
            reply = .nack(.unknownMessage)
        }
        link.respond(to: frame, crc: crc, code: reply.code, value: reply.value)
        for after in reply.after {
            switch after {
            case .telemetry(let play, let channel, let slot, let tick):
                telemetry(.stopped, play: play, channel: channel, slot: slot, code: Message.Telemetry.stoppedByHost, tick: tick)
            case .credit:
                sendCredit()
            }
        }
    }

    /// 3.3: a slot is busy while a PENDING or PLAYING player has it.
    func isBusy(_ slot: UInt8) -> Bool { pool.contains { $0.isLive && $0.slot == slot } }

    // MARK: SET_CONFIG (3.11)

    private mutating func setConfig(_ p: [UInt8]) -> Reply {
        let value = p.u32(at: 1)
        switch p[0] {
        case Message.SetConfig.Key.watchdog.rawValue where value <= UInt32(UInt16.max):
            watchdog = UInt16(value)
        case 3 where value <= UInt32(UInt8.max):
            fadeTicks = UInt8(value)
        case 4
        where TickTrim.accepts(Int32(bitPattern: value))
            && configuration.base.capabilities.rawValue & Configuration.trimCapability != 0:
            trim.trim = Int32(bitPattern: value)
        default:
            return .nack(.badParam)
        }
        return .ack(value)
    }

    // MARK: QUERY (3.11)

    /// STATUS for `play` on `channel`: a PENDING play first, then the record.
    func status(play: UInt8, channel: UInt8) -> [UInt8] {
        var out = le(now) + [play, channel]
        let live = { (p: Player) in p.isLive && p.play == play && p.channel == Int(channel) }
        if let q = pool.first(where: { $0.state == .pending && live($0) }) {
            out += [2, q.sequence, q.slot, 0] + le(UInt32(0)) + le(UInt16(0xFFFF)) + le(UInt32(0)) + le(q.position)
            return out + le(UInt16(0)) + [4 | (q.paused ? 1 : 0) | (q.muted ? 2 : 0)] + le(q.rate)
        }
        guard let r = records.first(where: { $0.play == play && $0.channel == Int(channel) }) else {
            return out + [UInt8](repeating: 0, count: 8) + le(UInt16(0xFFFF)) + [UInt8](repeating: 0, count: 13)
        }
        let p = pool[r.player]
        let isLive = live(p)
        let flags: UInt8 = (isLive && p.paused ? 1 : 0) | (isLive && p.muted ? 2 : 0) | (isLive && p.state == .pending ? 4 : 0)
        let first = r.first.map { UInt16(min($0, 0xFFFE)) } ?? 0xFFFF
        out += [r.state, r.sequence, r.slot, r.code] + le(r.start) + le(first)
        out += le(r.end) + le(isLive && p.state == .playing ? p.position : 0)
        out += le(UInt16(min(isLive ? p.iterations : r.iterations, 0xFFFF))) + [flags] + le(isLive ? p.rate : 0)
        return out
    }
}
