import HapticProtocol

/// The plays this host started and whose end it has not yet learned (PROTOCOL.md 2.19).
///
/// Notices are never retransmitted, so on a lossy line STARTED, FIRST_OUTPUT or the end event of a
/// play can be lost. The tracker asks the device's play records (QUERY, answered by STATUS) when a
/// play should have ended and its end has not come, or when the notice sequence numbers show a
/// loss, and turns what the record says into the events that were lost, exactly once each: a
/// notice that arrives after its event was learned from a record is not delivered again. A play
/// the device no longer remembers is dropped, never guessed. On 3.0 a play on several channels is
/// awaited on each (PROTOCOL-3.md 3.11: notices and records per play and channel).
package struct PlayTracker {
    package struct Play: Equatable {
        var sequence: UInt8
        var slot: UInt8
        var on: PlayChannel
        /// The PLAY's ACK value: the tick its program tick 0 is due.
        var start: UInt32
        /// Ticks it plays (all iterations); nil: until stopped.
        var ticks: UInt32?
        var started = false
        var firstOutput = false
        var nextQuery: Double
        var backoff: Double
    }

    package private(set) var plays: [Play] = []
    /// The QUERY waiting for its STATUS: the record index, the play and channel, when it went out.
    private var query: (index: UInt8, on: PlayChannel, sent: Double)?
    /// QUERYs sent, for reports.
    package private(set) var queries = 0

    package init() {}

    package var isEmpty: Bool { plays.isEmpty }

    /// A PLAY was acknowledged: its end is awaited from `now`. `due` is the host time by which
    /// the end should have come (the play's length, its start delay and a margin).
    package mutating func track(
        sequence: UInt8, slot: UInt8, start: UInt32, ticks: UInt32?, due: Double, on channels: [PlayChannel] = [.single]
    ) {
        // A new PLAY replaces a pending one of ours, which then never starts and gets no notice;
        // a running one gets STOPPED (replaced), learned from its notice or its record.
        for on in channels {
            plays.append(Play(sequence: sequence, slot: slot, on: on, start: start, ticks: ticks, nextQuery: due, backoff: 0.02))
        }
    }

    /// A gap in the notice sequence numbers: maybe one of ours was lost; ask at once.
    package mutating func noticesLost(now: Double) {
        for index in plays.indices { plays[index].nextQuery = min(plays[index].nextQuery, now) }
    }

    /// A frame arrived damaged: if a play's end is due within `window`, it may have been its
    /// notice; ask at once rather than at the due time.
    package mutating func frameDamaged(now: Double, window: Double) {
        for index in plays.indices where plays[index].nextQuery - now <= window {
            plays[index].nextQuery = min(plays[index].nextQuery, now)
        }
    }

    /// The device reset, or the session ended: the records are gone.
    package mutating func forgetAll() {
        plays = []
        query = nil
    }

    /// A TELEMETRY event as it arrived: false when this play's event was already delivered
    /// (learned from a record), so the caller drops it.
    package mutating func notice(_ event: DeviceEvent) -> Bool {
        guard let (slot, tick) = event.playEvent,
            let index = plays.firstIndex(where: {
                $0.slot == slot && $0.on == event.playChannel && (tickAtOrAfter(tick, $0.start) || isUnstartedFault(event, $0))
            })
        else { return true }
        switch event {
        case .started:
            if plays[index].started { return false }
            plays[index].started = true
        case .firstOutput:
            if plays[index].firstOutput { return false }
            plays[index].firstOutput = true
        default:
            plays.remove(at: index)
        }
        return true
    }

    private func isUnstartedFault(_ event: DeviceEvent, _ play: Play) -> Bool {
        if case .fault = event { return !play.started }
        return false
    }

    /// The record to QUERY now, if one is due (one QUERY at a time; a lost STATUS is asked
    /// again after `timeout`): its index (2.0) and its play and channel (3.0).
    package mutating func queryDue(now: Double, timeout: Double) -> (index: UInt8, on: PlayChannel)? {
        if let query, now - query.sent < timeout { return nil }
        guard let first = plays.indices.min(by: { plays[$0].nextQuery < plays[$1].nextQuery }), plays[first].nextQuery <= now
        else {
            query = nil
            return nil
        }
        let index = query.map { $0.index } ?? 0
        let on = query?.on ?? plays[first].on
        query = (index, on, now)
        queries += 1
        return (index, on)
    }

    /// A STATUS about the record of `about` (2.0: `.single`): the events it shows that were not
    /// delivered yet, in order. `olderRecords`: the device keeps a record before the latest
    /// (2.0's index 1); 3.0 keeps one per play and channel.
    package mutating func status(
        _ status: Message.Status, about: PlayChannel = .single, olderRecords: Bool = true, now: Double, rate: Double
    ) -> [DeviceEvent] {
        guard query?.index == status.index, query?.on == about else { return [] }
        query = nil
        var events: [DeviceEvent] = []
        var askPrevious = false
        for index in plays.indices.reversed() where plays[index].on == about {
            var play = plays[index]
            let record = status.record
            if record.sequence == play.sequence, !record.isEmpty,
                tickAtOrAfter(record.start, play.start) || (record.endEvent == .fault && record.start == record.end)
            {
                let unstarted = record.endEvent == .fault && record.start == record.end && record.firstOffset == nil
                if !play.started && !unstarted {
                    play.started = true
                    events.append(.started(slot: play.slot, tick: record.start, on: play.on))
                }
                if !play.firstOutput, let offset = record.firstOffset {
                    play.firstOutput = true
                    events.append(.firstOutput(slot: play.slot, tick: record.start &+ UInt32(offset), on: play.on))
                }
                if let end = record.endEvent {
                    let tick = record.end
                    switch end {
                    case .finished: events.append(.finished(slot: play.slot, tick: tick, on: play.on))
                    case .stopped:
                        let replaced = record.code != Message.Telemetry.stoppedByHost
                        events.append(.stopped(slot: play.slot, tick: tick, replaced: replaced, on: play.on))
                    default: events.append(.fault(slot: play.slot, code: MessageErrorCode(record.code), tick: tick, on: play.on))
                    }
                    plays.remove(at: index)
                    continue
                }
                // Still playing: ask again when it should have ended.
                let left = play.ticks.map { Double(Int32(bitPattern: record.start &+ $0 &- status.now)) / rate } ?? 1
                play.nextQuery = now + max(play.backoff, left + 0.01)
            } else if status.hasPending && status.pendingSequence == play.sequence {
                // Not started yet (a start tick ahead, a waking stage): ask when it should have ended.
                let left = Double(Int32(bitPattern: play.start &- status.now)) / rate + Double(play.ticks ?? 1000) / rate
                play.nextQuery = now + max(play.backoff, left + 0.01)
            } else if olderRecords && status.index == 0 && !record.isEmpty {
                askPrevious = true  // record 0 is a later play: the one before may be ours
                continue
            } else {
                // The device has no record of it (cancelled pending, or forgotten): nothing to learn.
                plays.remove(at: index)
                continue
            }
            play.backoff = min(play.backoff * 2, 0.5)
            plays[index] = play
        }
        if askPrevious && !plays.isEmpty {
            query = (1, .single, -Double.infinity)  // due at once, for record 1
            for index in plays.indices { plays[index].nextQuery = min(plays[index].nextQuery, now) }
        }
        return events
    }
}

/// `a` is `b` or later, in wrapping device ticks.
private func tickAtOrAfter(_ a: UInt32, _ b: UInt32) -> Bool { Int32(bitPattern: a &- b) >= 0 }
