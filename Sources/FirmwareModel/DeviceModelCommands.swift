import HapticProtocol

/// Frames in (firmware-protocol/PROTOCOL.md 2.4-2.13): each command's checks in the order the text
/// lists them, the duplicate memory, and the unacknowledged messages. Mirrors hb_device.c (commands) and hb_device_stream.c.
extension DeviceModel {
    /// A command's outcome: ACK (code 0) or NACK, and the notice that follows the response.
    struct Reply {
        enum After {
            case nothing
            case stopped(slot: UInt8)
            case credit
        }
        var code: UInt8
        var value: UInt32
        var after = After.nothing

        static func ack(_ value: UInt32) -> Reply { Reply(code: 0, value: value) }
        static func nack(_ code: MessageErrorCode, _ value: UInt32 = 0) -> Reply { Reply(code: code.rawValue, value: value) }
        static func nack(_ code: UInt8) -> Reply { Reply(code: code, value: 0) }
    }

    mutating func handle(_ frame: Frame, subtick: UInt16) {
        silence = 0
        let type = frame.messageType
        guard MessageType.isHostToDevice(type) else { return }  // an echo or a loop-back
        let p = frame.payload
        switch MessageType(rawValue: type) {
        case .ping?:
            guard p.count >= MessageType.ping.fixedPayloadCount else { return }
            let echo = p.u32(at: 0)
            send(.pong(.init(echo: echo, tick: now, subtick: subtick)), sequence: frame.sequence)
        case .setParam?:
            guard p.count >= MessageType.setParam.fixedPayloadCount else { return }
            let offset = Int8(bitPattern: p[1])
            interpreter.setMasterScale(p[0])
            interpreter.setSharpnessOffset(offset)
            if pending != nil {
                pending!.scale = p[0]
                pending!.offset = offset
            }
        case .streamData?:
            guard p.count >= MessageType.streamData.fixedPayloadCount else { return }
            streamData(offset: p.u32(at: 0), data: p[4...])
        case .hello?:
            hello(frame)
        case .query?:
            send(.status(status(index: p.first ?? 0)), sequence: frame.sequence)
        case .diag?:
            // No board behind the model: stage 0 and the stage fault it holds (2.18).
            send(.diagReport(.init(stageCode: 0, fault: MessageErrorCode(stageFault))), sequence: frame.sequence)
        default:
            command(frame)
        }
    }

    private mutating func sendResponse(sequence: UInt8, type: UInt8, code: UInt8, value: UInt32) {
        link.sendResponse(sequence: sequence, type: type, code: code, value: value)
    }

    private mutating func hello(_ frame: Frame) {
        link.remembered = nil  // never a duplicate; a new session starts clean (2.4)
        let p = frame.payload
        let type = MessageType.hello.rawValue
        if p.count < MessageType.hello.fixedPayloadCount {
            sendResponse(sequence: frame.sequence, type: type, code: MessageErrorCode.badLength.rawValue, value: 0)
        } else if p[0] != ProtocolVersion.current.major {
            sendResponse(
                sequence: frame.sequence, type: type, code: MessageErrorCode.versionIncompatible.rawValue,
                value: UInt32(ProtocolVersion.current.major) << 8 | UInt32(ProtocolVersion.current.minor))
        } else if p.count > MessageType.hello.fixedPayloadCount {
            let info = Message.info(configuration.info(watchdog: watchdog)).payload
            send(.infoPart(DeviceLink.infoPart(info, part: p[2])), sequence: frame.sequence)
        } else {
            send(.info(configuration.info(watchdog: watchdog)), sequence: frame.sequence)
        }
    }

    private mutating func command(_ frame: Frame) {
        var crc: UInt16 = 0
        if link.resendIfDuplicate(frame, crc: &crc) { return }
        let p = frame.payload
        let reply: Reply
        switch MessageType(rawValue: frame.messageType) {
        case .upload?: reply = upload(p)
        case .commit?: reply = commit(p)
        case .play?: reply = play(p, sequence: frame.sequence)
        case .stop?: reply = stop(p)
        case .prepare?: reply = prepare()
        case .streamOpen?: reply = streamOpen(p)
        case .setConfig?: reply = setConfig(p)
        default: reply = .nack(.unknownMessage)
        }
        link.respond(to: frame, crc: crc, code: reply.code, value: reply.value)
        switch reply.after {
        case .nothing: break
        case .stopped(let slot): sendTelemetry(.stopped, slot: slot, code: Message.Telemetry.stoppedByHost, tick: now)
        case .credit: sendCredit()
        }
    }

    private func isBusy(_ slot: UInt8) -> Bool { active?.slot == slot || pending?.slot == slot }

    // MARK: Slots (2.7)

    private mutating func upload(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.upload.fixedPayloadCount else { return .nack(.badLength) }
        let (code, value) = programs.upload(p, busyPlaying: isBusy(p[0]))
        return Reply(code: code, value: value)
    }

    private mutating func commit(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.commit.fixedPayloadCount else { return .nack(.badLength) }
        let validator = Validator(configuration: configuration.core)
        let (code, value) = programs.commit(p, busyPlaying: isBusy(p[0])) { program in
            Result { () throws(ProgramError) in try validator.validate(program).totalTicks }
        }
        return Reply(code: code, value: value)
    }

    // MARK: Playing (2.8, 2.9)

    private mutating func play(_ p: [UInt8], sequence: UInt8) -> Reply {
        guard p.count >= MessageType.play.fixedPayloadCount else { return .nack(.badLength) }
        let slot = p[0]
        let flags = p[1]
        let at = p.u32(at: 2)
        let loops = p.u16(at: 8)
        guard flags & ~Message.Play.atFlag == 0 else { return .nack(.badParam) }
        if slot == Message.streamSlot {
            guard configuration.streamCapacity != 0 else { return .nack(.unsupported) }
            guard stream.state != .playing else { return .nack(.slotBusy) }
            guard stream.state == .open else { return .nack(.noStream) }
            guard loops == 1 else { return .nack(.badParam) }
        } else {
            guard slot < configuration.slotCount else { return .nack(.badSlot) }
            guard programs.slots[Int(slot)].ready else { return .nack(.notCommitted) }
        }
        let startTick: UInt32? = flags & Message.Play.atFlag != 0 ? at : nil
        pending = PendingPlay(
            slot: slot, startTick: startTick, scale: p[6], offset: Int8(bitPattern: p[7]), loops: loops, sequence: sequence)
        stage.requestWake()
        return .ack(stage.startTick(now: now, at: startTick))
    }

    private mutating func stop(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.stop.fixedPayloadCount else { return .nack(.badLength) }
        guard p[0] & ~Message.Stop.brakeFlag == 0 else { return .nack(.badParam) }
        var reply = Reply.ack(now)
        if let play = active, interpreter.mode == .playing {
            reply.after = .stopped(slot: play.slot)
            recordEnd(.stopped, code: Message.Telemetry.stoppedByHost, tick: now)
        }
        pending = nil
        interpreter.stop(brake: p[0] & Message.Stop.brakeFlag != 0)
        stream.state = .closed
        active = nil
        return reply
    }

    private mutating func prepare() -> Reply {
        stage.requestWake()
        return .ack(stage.warmTick(now: now))
    }

    private mutating func setConfig(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.setConfig.fixedPayloadCount else { return .nack(.badLength) }
        let value = p.u32(at: 1)
        guard p[0] == Message.SetConfig.Key.watchdog.rawValue, value <= UInt32(UInt16.max) else { return .nack(.badParam) }
        watchdog = UInt16(value)
        return .ack(value)
    }

    // MARK: Stream (2.10)

    private mutating func streamOpen(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.streamOpen.fixedPayloadCount else { return .nack(.badLength) }
        guard configuration.streamCapacity != 0 else { return .nack(.unsupported) }
        guard stream.state != .playing, pending?.slot != Message.streamSlot else { return .nack(.slotBusy) }
        let header = Array(p[0..<16])
        do {
            _ = try Validator(configuration: configuration.core).checkHeader(header)
        } catch {
            return .nack(error.rawValue)
        }
        stream.open(header: header)
        var reply = Reply.ack(configuration.streamCapacity)
        reply.after = .credit
        return reply
    }

    private mutating func streamData(offset: UInt32, data: ArraySlice<UInt8>) {
        guard stream.state != .closed else { return }
        let count = UInt32(data.count)
        guard stream.accepts(offset: offset, count: count, feedSpace: interpreter.feedSpace) else {
            sendCredit()
            return
        }
        if stream.state == .playing {
            interpreter.feed(data)
        } else {
            stream.ring.write(data)
        }
        stream.next += count
    }
}
