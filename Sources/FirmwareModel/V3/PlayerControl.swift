import HapticProtocol

extension Player {
    /// CONTROL's ops (firmware-protocol/PROTOCOL-3.md 3.11), and the scheduled STOP of 3.7.
    public enum Control: UInt8, Sendable, Hashable {
        case pause = 1, resume, seek, rate, loops, loopEnd, mute, priority
        /// A STOP with AT, kept as a scheduled control (not a CONTROL op).
        case stop = 0xF0
        case stopBrake = 0xF1

        /// STOP, PAUSE and RESUME can be scheduled (3.7); the others take effect at once.
        var schedulable: Bool { self == .pause || self == .resume }
        /// The ops a streamed play refuses (3.12).
        var needsProgram: Bool { self == .seek || self == .rate || self == .loops || self == .loopEnd }
    }
}

/// CONTROL and SET_PARAM's targets (firmware-protocol/PROTOCOL-3.md 3.4-3.7, 3.11).
extension DeviceModel3 {
    mutating func control(_ p: [UInt8]) -> Reply {
        let play = p[0]
        let mask = p.u16(at: 1)
        let flags = p[4]
        let at = p.u32(at: 5)
        let value = p.u32(at: 9)
        guard let op = Player.Control(rawValue: p[3]), op.rawValue <= 8, flags & 0xFE == 0,
            flags & 1 == 0 || op.schedulable
        else { return .nack(.badParam) }
        guard mask >> channelCount == 0 else { return .nack(Self.badChannel, UInt32(channelCount)) }
        let targets = matching(play: play, mask: mask)
        guard !targets.isEmpty else { return .nack(Self.noSuchPlay) }
        if op == .seek && !configuration.hasSeek { return .nack(.unsupported) }  // 3.13
        if op.needsProgram, targets.contains(where: { pool[$0].isStream }) {
            return op == .seek ? .nack(.unsupported) : .nack(.badParam)
        }
        if op == .rate {
            guard value <= UInt32(UInt16.max), Player.rates.contains(UInt16(value)) else { return .nack(.badParam) }
            let others = pool.indices.filter { !targets.contains($0) }.reduce(UInt32(0)) { $0 + pool[$1].work }
            let work = targets.reduce(others) { $0 + Player.work(peak: pool[$1].peak, rate: UInt16(value)) }
            guard work <= configuration.workBudget else { return .nack(Self.workLimit, work) }
        }
        for i in targets {
            let q = pool[i]
            let outside =
                op == .seek
                ? value >= q.loopEnd
                : op == .loopEnd && (value > q.total || (value > 0 && value <= q.position))
            if outside { return .nack(Self.seekRange, q.total) }
        }
        if (op == .loops && value > UInt32(UInt16.max)) || (op == .mute && value > 1) { return .nack(.badParam) }
        if flags & 1 != 0, Int32(bitPattern: at &- now) > 0 { return schedule(op, on: targets, at: at) }
        var effect = now
        for i in targets { effect = apply(op, value: value, to: i) }
        return .ack(effect)
    }

    /// A control on pool entry `i`, taking effect at tick now; returns the tick its effect shows
    /// (a SEEK's landing after its fade, 3.5).
    @discardableResult
    mutating func apply(_ op: Player.Control, value: UInt32, to i: Int) -> UInt32 {
        switch op {
        case .pause: pool[i].paused = true
        case .resume: pool[i].paused = false
        case .seek:
            let q = pool[i]
            let sounding = q.state == .playing && !q.paused && !q.fresh
            pool[i].seek(to: value)
            if let fading = q.frozenUntil { return fading }  // a seek during a seek's fade: the same end
            if sounding {
                let end = now &+ UInt32(fadeTicks)
                pool[i].frozenUntil = end
                return end
            }
        case .rate: pool[i].rate = UInt16(value)
        case .loops: pool[i].loops = UInt16(value)
        case .loopEnd: pool[i].loopEnd = value == 0 ? pool[i].total : value
        case .mute: pool[i].muted = value != 0
        case .priority:
            pool[i].priority = UInt8(truncatingIfNeeded: value)
            pool[i].duck = UInt8(truncatingIfNeeded: value >> 8)
        case .stop, .stopBrake: stopPlayer(i, brake: op == .stopBrake, notify: true)
        }
        return now
    }
}
