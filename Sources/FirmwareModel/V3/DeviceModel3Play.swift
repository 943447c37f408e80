import HapticProtocol

/// PLAY and STOP (firmware-protocol/PROTOCOL-3.md 3.11), their checks in the order the text lists
/// them; the pool's admission (3.3, 3.9); the stream's commands (3.12).
extension DeviceModel3 {
    /// PLAY's flags.
    static let atFlag: UInt8 = 1
    static let sumFlag: UInt8 = 2
    static let cutFlag: UInt8 = 4
    static let mutedFlag: UInt8 = 8

    mutating func play(_ p: [UInt8]) -> Reply {
        let play = p[0]
        let mask = p.u16(at: 1)
        let slot = p[3]
        let flags = p[4]
        let at = p.u32(at: 5)
        let parameters = Player.Parameters(
            play: play, sequence: commandSequence, at: flags & Self.atFlag != 0 ? at : nil, scale: p[9],
            offset: Int8(bitPattern: p[10]), loops: p.u16(at: 11), loopEnd: p.u32(at: 13),
            from: p.u32(at: 17), rate: p.u16(at: 21), priority: p[23], duck: p[24],
            sum: flags & Self.sumFlag != 0, cut: flags & Self.cutFlag != 0, muted: flags & Self.mutedFlag != 0)
        guard flags & 0xF0 == 0, play < 0xFE, mask != 0, Player.rates.contains(parameters.rate) else {
            return .nack(.badParam)
        }
        guard mask >> channelCount == 0 else { return .nack(Self.badChannel, UInt32(channelCount)) }
        let channels = (0..<channelCount).filter { mask >> $0 & 1 == 1 }
        let replaced = pool.indices.filter { pool[$0].state == .pending && pool[$0].play == play }
        let free = pool.indices.filter { pool[$0].state == .free || replaced.contains($0) }
        let otherWork = pool.indices.filter { !replaced.contains($0) }.reduce(UInt32(0)) { $0 + pool[$1].work }
        if slot == Message.streamSlot {
            guard configuration.base.streamCapacity != 0 else { return .nack(.unsupported) }
            guard stream.state != .playing else { return .nack(.slotBusy) }
            guard stream.state == .open else { return .nack(.noStream) }
            guard channels.count == 1, parameters.rate == Player.rateOne, parameters.loops == 1, parameters.loopEnd == 0,
                parameters.from == 0
            else { return .nack(.badParam) }
            guard !free.isEmpty else { return .nack(Self.noPlayer, 0) }
            let work = otherWork + Player.streamWork
            guard work <= configuration.workBudget else { return .nack(Self.workLimit, work) }
            for i in replaced { pool[i].free() }
            let entry = pool.indices.first { pool[$0].state == .free }!
            pool[entry].reserveStream(parameters, channel: channels[0])
            return accepted(parameters.at)
        }
        guard slot < programs.count else { return .nack(.badSlot) }
        guard programs.slots[Int(slot)].ready else { return .nack(.notCommitted) }
        // A READY slot passed validation at COMMIT: it validates again.
        guard
            let program = try? Format3.validate(
                programs.program(slot), configuration: configuration.core, seek: configuration.hasSeek)
        else { return .nack(.notCommitted) }
        let total = program.header.totalTicks
        if parameters.from != 0 && !configuration.hasSeek { return .nack(.unsupported) }  // 3.13
        let end = parameters.loopEnd == 0 ? total : parameters.loopEnd
        if end > total || (total > 0 && parameters.from >= end) || (total == 0 && parameters.from > 0) {
            return .nack(Self.seekRange, total)
        }
        guard free.count >= channels.count else { return .nack(Self.noPlayer, UInt32(free.count)) }
        let peak = UInt32(program.facts.peak)
        let work = otherWork + Player.work(peak: peak, rate: parameters.rate) * UInt32(channels.count)
        guard work <= configuration.workBudget else { return .nack(Self.workLimit, work) }
        for i in replaced { pool[i].free() }
        let entries = pool.indices.filter { pool[$0].state == .free }
        for (entry, channel) in zip(entries, channels) {
            pool[entry].reserve(parameters, channel: channel, slot: slot, program: program, peak: peak)
        }
        return accepted(parameters.at)
    }

    /// The output stage is asked to wake; the ACK value is the start tick (2.8).
    private mutating func accepted(_ at: UInt32?) -> Reply {
        stage.requestWake()
        return .ack(stage.startTick(now: now, at: at))
    }

    mutating func stop(_ p: [UInt8]) -> Reply {
        let play = p[0]
        let mask = p.u16(at: 1)
        let flags = p[3]
        guard flags & 0xFC == 0 else { return .nack(.badParam) }
        let targets = matching(play: play, mask: mask)
        let brake = flags & 1 != 0
        let at = p.u32(at: 4)
        if flags & 2 != 0, Int32(bitPattern: at &- now) > 0 {
            return schedule(brake ? .stopBrake : .stop, on: targets, at: at)
        }
        var reply = Reply.ack(now)
        for i in targets { reply.after += stopPlayer(i, brake: brake, notify: false) }
        let all = UInt16(truncatingIfNeeded: (1 << channelCount) - 1)
        if play == Self.allPlays, mask & all == all, stream.state != .closed {
            stream.state = .closed  // a STOP of everything closes an open stream too (2.8)
        }
        settleStream()
        return reply
    }

    /// 3.7: `control` kept by every target for tick `at`; SCHEDULE_FULL when one holds 2.
    mutating func schedule(_ control: Player.Control, on targets: [Int], at: UInt32) -> Reply {
        if targets.contains(where: { pool[$0].scheduled.count >= Player.scheduleCapacity }) {
            return .nack(Self.scheduleFull, UInt32(Player.scheduleCapacity))
        }
        for i in targets { pool[i].scheduled.append((control, at)) }
        return .ack(at)
    }

    /// Ends a PLAYING player (STOPPED 0, with or without its brake) or cancels a PENDING one. The
    /// record is updated now; the notice is sent now (`notify`) or returned to follow the ACK.
    @discardableResult
    mutating func stopPlayer(_ i: Int, brake: Bool, notify: Bool) -> [Reply.After] {
        guard pool[i].state == .playing else {
            pool[i].free()
            return []
        }
        let p = pool[i]
        var after: [Reply.After] = []
        if notify {
            telemetry(.stopped, player: i, code: Message.Telemetry.stoppedByHost, tick: now)
        } else {
            if let r = records.firstIndex(where: { $0.play == p.play && $0.channel == p.channel }) {
                records[r].state = Message.Telemetry.Event.stopped.rawValue
                records[r].code = Message.Telemetry.stoppedByHost
                records[r].end = now
            }
            after.append(.telemetry(play: p.play, channel: p.channel, slot: p.slot, tick: now))
        }
        if brake { pool[i].brake(configuration.channels[p.channel].brakeTicks) } else { pool[i].free() }
        return after
    }

    // MARK: The stream (2.10, 3.12)

    mutating func streamOpen(_ p: [UInt8]) -> Reply {
        guard configuration.base.streamCapacity != 0 else { return .nack(.unsupported) }
        guard stream.state != .playing, !pool.contains(where: { $0.state == .pending && $0.isStream }) else {
            return .nack(.slotBusy)
        }
        let header = Array(p[0..<16])
        do {
            _ = try Format3.checkHeader(header, configuration: configuration.core)
        } catch {
            return Reply(code: error.rawValue, value: 0)
        }
        stream.open(header: header)
        var reply = Reply.ack(configuration.base.streamCapacity)
        reply.after = [.credit]
        return reply
    }

    /// The stream player's free ring bytes while it plays (the stream's read position, 2.10).
    var streamFeedSpace: Int {
        pool.first { $0.isStream && $0.state == .playing }?.interpreter.feedSpace ?? 0
    }

    mutating func sendCredit() { link.sendNotice(stream.credit(feedSpace: streamFeedSpace)) }

    mutating func streamData(offset: UInt32, data: ArraySlice<UInt8>) {
        guard stream.state != .closed else { return }
        guard stream.accepts(offset: offset, count: UInt32(data.count), feedSpace: streamFeedSpace) else {
            sendCredit()
            return
        }
        if stream.state == .playing, let i = pool.firstIndex(where: { $0.isStream && $0.state == .playing }) {
            pool[i].interpreter.feed(data)
        } else {
            stream.ring.write(data)
        }
        stream.next += UInt32(data.count)
    }

    /// 3.12: the stream closes when its play has ended.
    mutating func settleStream() {
        if stream.state == .playing, !pool.contains(where: { $0.isStream && $0.isLive }) { stream.state = .closed }
    }
}
