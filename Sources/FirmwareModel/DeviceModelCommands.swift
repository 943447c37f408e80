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
            let echo = UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
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
            streamData(offset: u32(p, 0), data: p[4...])
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

    private func u32(_ p: [UInt8], _ i: Int) -> UInt32 {
        UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
    }

    private func u16(_ p: [UInt8], _ i: Int) -> UInt16 { UInt16(p[i]) | UInt16(p[i + 1]) << 8 }

    private mutating func sendResponse(sequence: UInt8, type: UInt8, code: UInt8, value: UInt32) {
        if code == 0 {
            send(.ack(.init(rawType: type, value: value)), sequence: sequence)
        } else {
            send(.nack(.init(rawType: type, code: MessageErrorCode(code), value: value)), sequence: sequence)
        }
    }

    private mutating func hello(_ frame: Frame) {
        remembered = nil  // never a duplicate; a new session starts clean (2.4)
        let p = frame.payload
        let type = MessageType.hello.rawValue
        if p.count < MessageType.hello.fixedPayloadCount {
            sendResponse(sequence: frame.sequence, type: type, code: MessageErrorCode.badLength.rawValue, value: 0)
        } else if p[0] != ProtocolVersion.current.major {
            sendResponse(
                sequence: frame.sequence, type: type, code: MessageErrorCode.versionIncompatible.rawValue,
                value: UInt32(ProtocolVersion.current.major) << 8 | UInt32(ProtocolVersion.current.minor))
        } else if p.count > MessageType.hello.fixedPayloadCount {
            send(.infoPart(Self.infoPart(configuration.info(watchdog: watchdog), part: p[2])), sequence: frame.sequence)
        } else {
            send(.info(configuration.info(watchdog: watchdog)), sequence: frame.sequence)
        }
    }

    private mutating func command(_ frame: Frame) {
        let crc = CRC16.checksum([frame.version, frame.messageType, frame.sequence, frame.flags] + frame.payload)
        if let last = remembered, last.sequence == frame.sequence, last.crc == crc {
            sendResponse(sequence: last.sequence, type: last.type, code: last.code, value: last.value)
            return
        }
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
        remembered = RememberedReply(
            sequence: frame.sequence, crc: crc, type: frame.messageType,
            code: reply.code, value: reply.value)
        sendResponse(sequence: frame.sequence, type: frame.messageType, code: reply.code, value: reply.value)
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
        let slot = p[0]
        let offset = u32(p, 1)
        let count = UInt32(p.count - 5)
        guard slot < configuration.slotCount else { return .nack(.badSlot) }
        guard !isBusy(slot) else { return .nack(.slotBusy) }
        let fill = slots[Int(slot)].fill
        guard offset == 0 || offset == fill else { return .nack(.badOffset, fill) }
        guard count <= configuration.slotCapacity - offset else { return .nack(.noSpace, configuration.slotCapacity) }
        let start = Int(slot) * Int(configuration.slotCapacity) + Int(offset)
        memory.replaceSubrange(start..<(start + Int(count)), with: p[5...])
        slots[Int(slot)] = Slot(fill: offset + count, ready: false)
        return .ack(offset + count)
    }

    private mutating func commit(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.commit.fixedPayloadCount else { return .nack(.badLength) }
        let slot = p[0]
        let length = u32(p, 1)
        guard slot < configuration.slotCount else { return .nack(.badSlot) }
        guard !isBusy(slot) else { return .nack(.slotBusy) }
        guard length == slots[Int(slot)].fill else { return .nack(.commitLength, slots[Int(slot)].fill) }
        let program = slotProgram(slot)
        let crc = CRC16.checksum(program)
        guard crc == u16(p, 5) else {
            slots[Int(slot)] = Slot()
            return .nack(.checksumMismatch, UInt32(crc))
        }
        do {
            let header = try Validator(configuration: configuration.core).validate(program)
            slots[Int(slot)].ready = true
            return .ack(header.totalTicks)
        } catch {
            slots[Int(slot)] = Slot()
            return .nack(error.rawValue)
        }
    }

    // MARK: Playing (2.8, 2.9)

    private mutating func play(_ p: [UInt8], sequence: UInt8) -> Reply {
        guard p.count >= MessageType.play.fixedPayloadCount else { return .nack(.badLength) }
        let slot = p[0]
        let flags = p[1]
        let at = u32(p, 2)
        let loops = u16(p, 8)
        guard flags & ~Message.Play.atFlag == 0 else { return .nack(.badParam) }
        if slot == Message.streamSlot {
            guard configuration.streamCapacity != 0 else { return .nack(.unsupported) }
            guard streamState != .playing else { return .nack(.slotBusy) }
            guard streamState == .open else { return .nack(.noStream) }
            guard loops == 1 else { return .nack(.badParam) }
        } else {
            guard slot < configuration.slotCount else { return .nack(.badSlot) }
            guard slots[Int(slot)].ready else { return .nack(.notCommitted) }
        }
        let startTick: UInt32? = flags & Message.Play.atFlag != 0 ? at : nil
        pending = PendingPlay(
            slot: slot, startTick: startTick, scale: p[6], offset: Int8(bitPattern: p[7]), loops: loops, sequence: sequence)
        stage.requestWake()
        var start = now
        if let at = startTick, Int32(bitPattern: at &- now) > 0 { start = at }
        if stage.state == .waking {
            let warm = stage.warmTick(now: now)
            if Int32(bitPattern: warm &- start) > 0 { start = warm }
        }
        return .ack(start)
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
        streamState = .closed
        active = nil
        return reply
    }

    private mutating func prepare() -> Reply {
        stage.requestWake()
        return .ack(stage.warmTick(now: now))
    }

    private mutating func setConfig(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.setConfig.fixedPayloadCount else { return .nack(.badLength) }
        let value = u32(p, 1)
        guard p[0] == Message.SetConfig.Key.watchdog.rawValue, value <= UInt32(UInt16.max) else { return .nack(.badParam) }
        watchdog = UInt16(value)
        return .ack(value)
    }

    // MARK: Stream (2.10)

    private mutating func streamOpen(_ p: [UInt8]) -> Reply {
        guard p.count >= MessageType.streamOpen.fixedPayloadCount else { return .nack(.badLength) }
        guard configuration.streamCapacity != 0 else { return .nack(.unsupported) }
        guard streamState != .playing, pending?.slot != Message.streamSlot else { return .nack(.slotBusy) }
        let header = Array(p[0..<16])
        do {
            _ = try Validator(configuration: configuration.core).checkHeader(header)
        } catch {
            return .nack(error.rawValue)
        }
        streamHeader = header
        ring = ByteSource.ring(capacity: Int(configuration.streamCapacity))!
        streamNext = 0
        streamState = .open
        var reply = Reply.ack(configuration.streamCapacity)
        reply.after = .credit
        return reply
    }

    private mutating func streamData(offset: UInt32, data: ArraySlice<UInt8>) {
        guard streamState != .closed else { return }
        let count = UInt32(data.count)
        guard count != 0, offset == streamNext, count <= streamLimit - streamNext else {
            sendCredit()
            return
        }
        if streamState == .playing {
            interpreter.feed(data)
        } else {
            ring.write(data)
        }
        streamNext += count
    }
}
