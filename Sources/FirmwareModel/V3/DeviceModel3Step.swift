import HapticProtocol

/// One device step (firmware-protocol/PROTOCOL-3.md 3.8), in the order the text gives.
extension DeviceModel3 {
    public mutating func step() -> Step {
        let n = now
        // 1. The watchdog, then each channel's new stage fault.
        let live = pool.indices.filter { pool[$0].isLive }
        if watchdog != 0, silence >= watchdog, !live.isEmpty { fault(live, code: MessageErrorCode.watchdog.rawValue, tick: n) }
        for c in 0..<channelCount where stageFaults[c] != faultsSent[c] {
            faultsSent[c] = stageFaults[c]
            guard stageFaults[c] != 0 else { continue }
            let mine = pool.indices.filter { pool[$0].isLive && pool[$0].channel == c }
            if mine.isEmpty {
                telemetry(.fault, play: Self.noPlay, channel: c, slot: Message.Telemetry.noSlot, code: stageFaults[c], tick: n)
            } else {
                fault(mine, code: stageFaults[c], tick: n)
            }
        }
        // 2. Scheduled controls due at n, player by player in pool order, earliest first.
        for i in pool.indices {
            let due = pool[i].scheduled.enumerated().filter { Int32(bitPattern: n &- $0.element.at) >= 0 }
                .sorted { (Int32(bitPattern: $0.element.at &- n), $0.offset) < (Int32(bitPattern: $1.element.at &- n), $1.offset) }
            pool[i].scheduled.removeAll { Int32(bitPattern: n &- $0.at) >= 0 }
            for entry in due where pool[i].isLive { apply(entry.element.control, value: 0, to: i) }
        }
        // 3. Starts: every pending play due at n, its channels together.
        for i in pool.indices where pool[i].state == .pending && stage.state == .warm {
            if let at = pool[i].at, Int32(bitPattern: n &- at) < 0 { continue }
            start(i, tick: n)
        }
        // 4. Duck targets, from the states after the starts.
        var ducks = [UInt32](repeating: 256, count: pool.count)
        for c in 0..<channelCount { ChannelMixer.duckGains(pool, channel: c, at: n, into: &ducks) }
        // 5. Players in pool order; 6. their end notices.
        let fade = Player.fadeStep(fadeTicks: fadeTicks)
        var contributions = [[ChannelMixer.Contribution]](repeating: [], count: channelCount)
        var braking = [Bool](repeating: false, count: channelCount)
        var ended: [(player: Int, play: UInt8, end: Player.End)] = []
        for i in pool.indices where pool[i].state == .playing || pool[i].state == .braking {
            let c = pool[i].channel
            let play = pool[i].play
            let out = pool[i].step(at: n, duckGain: ducks[i], fadeStep: fade, brakeTicks: configuration.channels[c].brakeTicks)
            if out.contributes {
                contributions[c].append(.init(amplitude: out.amplitude, sharpness: out.sharpness, sum: pool[i].sum))
                if !pool[i].outputSeen {
                    pool[i].outputSeen = true
                    if let r = records.firstIndex(where: { $0.play == play && $0.channel == c }), records[r].first == nil {
                        records[r].first = n &- records[r].start
                    }
                    telemetry(.firstOutput, player: i, tick: n)
                }
            }
            braking[c] = braking[c] || out.brake
            if let end = out.end { ended.append((i, play, end)) }
        }
        for (i, play, end) in ended {
            let (event, code): (Message.Telemetry.Event, UInt8) =
                switch end {
                case .finished: (.finished, 0)
                case .fault(let code): (.fault, code)
                }
            telemetry(
                event, play: play, channel: pool[i].channel, slot: pool[i].slot, code: code, tick: n,
                iterations: pool[i].iterations)
        }
        // 7. Channels: mix, limiter, brake rule.
        var samples: [OutputSample] = []
        for c in 0..<channelCount {
            var (amplitude, sharpness) = ChannelMixer.mix(contributions[c])
            if mixers[c].limiterTrips(amplitude: amplitude) {
                limit(channel: c, tick: n, braking: &braking[c])
                (amplitude, sharpness) = (0, 0)
            }
            samples.append(ChannelMixer.sample(amplitude: amplitude, sharpness: sharpness, braking: braking[c]))
        }
        // 8. The output stage: any player not FREE keeps it warm.
        stage.step(inUse: pool.contains { $0.state != .free })
        // 9. The stream's end and credit; silence and now.
        settleStream()
        if stream.state != .closed, stream.creditDue(feedSpace: streamFeedSpace) { sendCredit() }
        if silence != .max { silence += 1 }
        now &+= 1
        return Step(samples: samples, sent: takeOutput())
    }

    /// Play id 0xFE: no play, in notices.
    static let noPlay: UInt8 = 0xFE

    /// 3.8 step 1: the watchdog's or a stage fault's end of plays: a PLAYING player brakes from
    /// this step with FAULT; a PENDING one is cancelled with FAULT and a record (as 2.19).
    private mutating func fault(_ players: [Int], code: UInt8, tick: UInt32) {
        for i in players {
            if pool[i].state == .playing {
                telemetry(.fault, player: i, code: code, tick: tick)
                pool[i].brake(configuration.channels[pool[i].channel].brakeTicks)
            } else if pool[i].state == .pending {
                if pool[i].isStream { stream.state = .closed }
                unstarted(i, code: code, tick: tick)
            }
        }
    }

    /// A PENDING player ends without starting: FAULT, and a record of it.
    private mutating func unstarted(_ i: Int, code: UInt8, tick: UInt32) {
        telemetry(.fault, player: i, code: code, tick: tick)
        let p = pool[i]
        newRecord(
            Record(
                play: p.play, channel: p.channel, player: i, state: Message.Telemetry.Event.fault.rawValue,
                sequence: p.sequence, slot: p.slot, code: code, start: tick, end: tick))
        pool[i].free()
    }

    /// 3.8 step 3: pool entry `i`'s whole play starts (the players its id replaces, or its CUT
    /// cuts, end first); each of its players PLAYING with a new record, or FAULT on a faulty channel.
    private mutating func start(_ i: Int, tick n: UInt32) {
        let play = pool[i].play
        let sequence = pool[i].sequence
        let group = pool.indices.filter { pool[$0].state == .pending && pool[$0].play == play && pool[$0].sequence == sequence }
        let channels = Set(group.map { pool[$0].channel })
        for j in pool.indices where pool[j].state == .playing && pool[j].play == play && channels.contains(pool[j].channel) {
            telemetry(.stopped, player: j, code: Message.Telemetry.stoppedByReplacement, tick: n)
            pool[j].free()
        }
        if pool[i].cut {
            for j in pool.indices where pool[j].state == .playing && channels.contains(pool[j].channel) {
                telemetry(.stopped, player: j, code: Self.stoppedByCut, tick: n)
                pool[j].free()
            }
        }
        for j in group {
            if stageFaults[pool[j].channel] != 0 {
                if pool[j].isStream { stream.state = .closed }
                unstarted(j, code: stageFaults[pool[j].channel], tick: n)
                continue
            }
            if pool[j].isStream { startStream(j) }
            pool[j].state = .playing
            if pool[j].paused || pool[j].muted { pool[j].gain = 0 }  // a silent start fades in from 0
            let p = pool[j]
            newRecord(
                Record(
                    play: p.play, channel: p.channel, player: j, state: Message.Telemetry.Event.started.rawValue,
                    sequence: p.sequence, slot: p.slot, start: n))
            telemetry(.started, player: j, tick: n)
        }
    }

    /// 3.12: the stream's player loads the stored header (format 3's version byte read as
    /// format 2's: the body and its CRC are the same) over the ring, which it owns from now on.
    private mutating func startStream(_ i: Int) {
        stream.state = .playing
        pool[i].hasSharpness = stream.header[3] & ProgramHeader.sharpnessFlag != 0
        try? pool[i].interpreter.loadStream(header: Format3.asFormat2(stream.header), ring: stream.ring)
    }

    /// 3.6: the limiter trips on channel c: every PLAYING player on it ends with FAULT 49, braking
    /// from this step (its first brake sample).
    private mutating func limit(channel c: Int, tick n: UInt32, braking: inout Bool) {
        for i in pool.indices where pool[i].channel == c && pool[i].state == .playing {
            telemetry(.fault, player: i, code: ProgramError.safetyLimit.rawValue, tick: n)
            if pool[i].brakeFromHere(configuration.channels[c].brakeTicks) { braking = true }
        }
    }
}
