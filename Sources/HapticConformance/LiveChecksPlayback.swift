import Foundation
import HapticProtocol
import HapticTransport

extension LiveChecks {
    /// Ticks ahead for a PLAY with AT: enough that a busy host still sends it before that tick.
    static let lead: UInt32 = 250

    /// `tick` lies in `low...high` (device ticks, wrapping).
    func within(_ tick: UInt32, _ low: UInt32, _ high: UInt32) -> Bool {
        Int32(bitPattern: tick &- low) >= 0 && Int32(bitPattern: high &- tick) >= 0
    }

    /// Waits for the TELEMETRY `event` of `slot` and checks its tick.
    func expectTelemetry(_ event: Message.Telemetry.Event, slot: UInt8, code: UInt8 = 0, at tick: UInt32, _ what: String) throws(Divergence) {
        let ahead = max(0, Int32(bitPattern: tick &- link.estimatedTick()))
        let got = try link.expectTelemetry(event, slot: slot, code: code, within: time(UInt32(ahead)) + 0.1)
        if got != tick { throw Divergence("\(what): TELEMETRY \(event) at tick \(got), expected \(tick)") }
    }

    /// STARTED at `start`, FIRST_OUTPUT `firstOutput` ticks later, FINISHED `end` ticks later,
    /// with consecutive notice sequence numbers (2.2.1).
    func expectPlay(slot: UInt8, start: UInt32, firstOutput: UInt32, end: UInt32, _ what: String) throws(Divergence) {
        try expectTelemetry(.started, slot: slot, at: start, what)
        let first = link.lastNoticeSequence ?? 0
        try expectTelemetry(.firstOutput, slot: slot, at: start &+ firstOutput, what)
        try expectTelemetry(.finished, slot: slot, at: start &+ end, what)
        let last = link.lastNoticeSequence ?? 0
        if last &- first != 2 { throw Divergence("\(what): notice sequence numbers \(first) then \(last) over three notices (2.2.1: +1 each)") }
    }

    // MARK: PLAY (2.8, 2.12)

    func play() throws(Divergence) -> LiveOutcome {
        let program = shortProgram
        if let skip = requireSlot(program.count) { return skip }
        let ticks = try store(program, slot: 0)
        try warmUp()
        let before = try link.ping()
        let start = try ack(.play(.init(slot: 0)), "PLAY slot 0 on a warm stage")
        let after = try link.ping()
        if !within(start, before, after) {
            throw Divergence(
                "PLAY on a warm stage: ACK value \(start) is not the tick it took effect, between PONG ticks \(before) and \(after) (2.8)")
        }
        try expectPlay(slot: 0, start: start, firstOutput: 2, end: ticks, "PLAY slot 0")
        let at = link.estimatedTick() &+ Self.lead
        try ack(.play(.init(slot: 0, startTick: at)), value: at, "PLAY slot 0 at a tick \(Self.lead) ahead")
        try expectPlay(slot: 0, start: at, firstOutput: 2, end: ticks, "PLAY slot 0 at tick \(at)")
        let looped = try ack(.play(.init(slot: 0, loops: 3)), "PLAY slot 0, 3 loops")
        try expectPlay(slot: 0, start: looped, firstOutput: 2, end: 3 * ticks, "PLAY slot 0 three times back to back")
        return .passed("ACK = effective tick, AT exact, STARTED / FIRST_OUTPUT / FINISHED ticks, 3 seamless loops")
    }

    // MARK: STOP, replacement, busy slots (2.7, 2.8)

    func stop() throws(Divergence) -> LiveOutcome {
        let loop = holdProgram(100, ticks: 20)
        let replacement = otherSlot == 0 ? loop : shortProgram
        if let skip = requireSlot(max(loop.count, replacement.count)) { return skip }
        try store(loop, slot: 0)
        if otherSlot != 0 { try store(replacement, slot: otherSlot) }
        try warmUp()
        let start = try ack(.play(.init(slot: 0, loops: 0)), "PLAY slot 0 looping until stopped")
        try expectTelemetry(.started, slot: 0, at: start, "PLAY looping")
        try expectTelemetry(.firstOutput, slot: 0, at: start, "PLAY looping")
        try nack(.upload(.init(slot: 0, offset: 0, data: [1])), .slotBusy, "UPLOAD to the playing slot")
        try nack(.commit(.init(slot: 0, program: loop)), .slotBusy, "COMMIT of the playing slot")
        try link.waitChecked(untilTick: start &+ 50)
        let before = try link.ping()
        let stopped = try ack(.stop(.init(brake: true)), "STOP with BRAKE during a looping play")
        let after = try link.ping()
        if !within(stopped, before, after) {
            throw Divergence("STOP: ACK value \(stopped) is not the tick it took effect, between PONG ticks \(before) and \(after) (2.8)")
        }
        try expectTelemetry(.stopped, slot: 0, code: Message.Telemetry.stoppedByHost, at: stopped, "STOP")
        try ack(.stop(.init(brake: false)), "STOP with nothing playing")
        try nack(.stop(.init(flags: 0x02)), .badParam, "STOP with flags bit 1 set")
        try expectQuiet(ticks: 30, "STOP with nothing playing")
        // A pending play cancelled by STOP never starts and is not reported.
        let at = link.estimatedTick() &+ Self.lead
        try ack(.play(.init(slot: 0, startTick: at)), value: at, "PLAY slot 0 at a tick \(Self.lead) ahead")
        try ack(.stop(.init(brake: false)), "STOP of a pending play")
        try link.waitChecked(untilTick: at &+ 30)
        if let notice = try link.nextNotice(timeout: 0) {
            throw Divergence("a pending play cancelled by STOP: expected no notice, got \(MessageText.describe(notice))")
        }
        // Another PLAY replaces a running one: STOPPED code 1, then the new play's STARTED.
        let first = try ack(.play(.init(slot: 0, loops: 0)), "PLAY slot 0 looping")
        try expectTelemetry(.started, slot: 0, at: first, "PLAY looping")
        try expectTelemetry(.firstOutput, slot: 0, at: first, "PLAY looping")
        try link.waitChecked(untilTick: first &+ 10)
        let second = try ack(.play(.init(slot: otherSlot)), "PLAY slot \(otherSlot) replacing the looping play")
        try expectTelemetry(.stopped, slot: 0, code: Message.Telemetry.stoppedByReplacement, at: second, "PLAY replacing a play")
        let (firstOutput, end): (UInt32, UInt32) = otherSlot == 0 ? (0, 20) : (2, 40)
        try expectTelemetry(.started, slot: otherSlot, at: second, "PLAY replacing a play")
        try expectTelemetry(.firstOutput, slot: otherSlot, at: second &+ firstOutput, "PLAY replacing a play")
        try expectTelemetry(.finished, slot: otherSlot, at: second &+ end, "PLAY replacing a play")
        return .passed("STOP tick and STOPPED, idle STOP quiet, pending play cancelled, SLOT_BUSY, replacement STOPPED code 1")
    }

    // MARK: SET_PARAM (1.11, 2.8)

    func liveParameters() throws(Divergence) -> LiveOutcome {
        let program = program(end: 200) { b in
            b.setA(127, at: 0)
            b.setA(128, at: 100)
        }
        if let skip = requireSlot(program.count) { return skip }
        try store(program, slot: 0)
        try warmUp()
        // m = 1 is m' = 1: amplitude 127 scales to (127 + 128) >> 8 = 0, 128 to 1 (1.11).
        let a = try ack(.play(.init(slot: 0, scale: 1)), "PLAY at scale 1")
        try expectPlay(slot: 0, start: a, firstOutput: 100, end: 200, "PLAY at scale 1 (127 rounds to 0, 128 to 1)")
        // Scale 0 is silent until SET_PARAM raises it; a SET_PARAM under 2 bytes is ignored.
        let b = try ack(.play(.init(slot: 0, scale: 0)), "PLAY at scale 0")
        try expectTelemetry(.started, slot: 0, at: b, "PLAY at scale 0")
        try link.send(Frame(messageType: MessageType.setParam.rawValue, sequence: 0, payload: [255]).encodedBytes)
        try link.waitChecked(untilTick: b &+ 30)
        if let notice = try link.nextNotice(timeout: 0) {
            throw Divergence("PLAY at scale 0, then a 1-byte SET_PARAM (ignored): expected no notice, got \(MessageText.describe(notice))")
        }
        let before = try link.ping()
        try link.send(link.encoded(.setParam(.init(scale: 255)), sequence: 0))
        let after = try link.ping()
        guard let raised = try link.nextNotice(timeout: time(0)), case .telemetry(let t) = raised, t.event == .firstOutput, t.slot == 0 else {
            throw Divergence("SET_PARAM scale 255 during a silent play: expected TELEMETRY FIRST_OUTPUT slot 0 between ticks \(before) and \(after)")
        }
        if !within(t.tick, before, after) {
            throw Divergence(
                "SET_PARAM scale 255: FIRST_OUTPUT at tick \(t.tick), outside the ticks \(before)...\(after) it took effect in (2.8: from tick now on)"
            )
        }
        try expectTelemetry(.finished, slot: 0, at: b &+ 200, "PLAY at scale 0 raised by SET_PARAM")
        // SET_PARAM also sets the values a pending play starts with.
        let at = link.estimatedTick() &+ Self.lead
        try ack(.play(.init(slot: 0, startTick: at, scale: 0)), value: at, "PLAY at scale 0, \(Self.lead) ticks ahead")
        try link.send(link.encoded(.setParam(.init(scale: 255)), sequence: 0))
        try expectPlay(slot: 0, start: at, firstOutput: 0, end: 200, "a pending play's scale raised by SET_PARAM")
        return .passed("scale arithmetic at m = 1, SET_PARAM live and on a pending play, short SET_PARAM ignored")
    }

    // MARK: Streaming (2.10)

    func streaming() throws(Divergence) -> LiveOutcome {
        let capacity = info.streamCapacity
        guard capacity > 0 else {
            let header = Array(shortProgram.prefix(ProgramHeader.size))
            try nack(.streamOpen(.init(header: header)), .unsupported, "STREAM_OPEN on a device without a ring")
            try nack(.play(.init(slot: Message.streamSlot)), .unsupported, "PLAY 0xFF on a device without a ring")
            return .passed("no stream ring (stream_capacity 0): STREAM_OPEN and PLAY 0xFF refused UNSUPPORTED")
        }
        // About three rings' worth of SET_A instructions two ticks apart.
        let count = Int(capacity) * 3 / 2 + 5
        let program = program(end: UInt32(2 * count + 2)) { b in
            for i in 0..<count { b.setA(UInt8(1 + i % 200), at: UInt32(2 * (i + 1))) }
        }
        let header = Array(program.prefix(ProgramHeader.size))
        let body = Array(program.dropFirst(ProgramHeader.size))
        let ticks = UInt32(2 * count + 2)
        let dataChunk = max(1, min(Message.StreamData.maxDataCount, Int(info.rxBuffer) - 12))
        func data(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
            link.encoded(.streamData(.init(offset: UInt32(offset), data: bytes)), sequence: 0)
        }
        func expectCredit(next: Int, limit: Int, _ what: String) throws(Divergence) {
            guard let notice = try link.nextNotice(timeout: time(0), credits: true) else {
                throw Divergence("\(what): expected CREDIT next \(next) limit \(limit), got nothing")
            }
            guard case .credit(let c) = notice, c.next == UInt32(next), c.limit == UInt32(limit) else {
                throw Divergence("\(what): expected CREDIT next \(next) limit \(limit), got \(MessageText.describe(notice))")
            }
        }
        var badMagic = header
        badMagic[0] ^= 0x01
        try nack(.streamOpen(.init(header: badMagic)), MessageErrorCode(2), "STREAM_OPEN with a bad magic")
        try nack(.play(.init(slot: Message.streamSlot)), .noStream, "PLAY 0xFF with no stream open")
        try ack(.streamOpen(.init(header: header)), value: capacity, "STREAM_OPEN")
        let firstLimit = min(Int(capacity), body.count)
        try expectCredit(next: 0, limit: firstLimit, "after STREAM_OPEN's ACK")
        try link.send(data(0, []))
        try expectCredit(next: 0, limit: firstLimit, "an empty STREAM_DATA (a credit query)")
        try link.send(data(7, [body[7]]))
        try expectCredit(next: 0, limit: firstLimit, "STREAM_DATA at offset 7 while next is 0")
        var next = 0
        var limit = firstLimit
        func send(upTo end: Int) throws(Divergence) {
            while next < end {
                let n = min(dataChunk, end - next)
                try link.send(data(next, Array(body[next..<(next + n)])))
                next += n
            }
        }
        try send(upTo: limit)
        if limit < body.count {
            try link.send(data(limit, [body[limit]]))
            try expectCredit(next: limit, limit: limit, "STREAM_DATA past the credit limit")
        }
        try nack(.play(.init(slot: Message.streamSlot, loops: 2)), .badParam, "PLAY 0xFF with loops 2")
        try warmUp()
        let start = try ack(.play(.init(slot: Message.streamSlot)), "PLAY 0xFF")
        let deadline = monotonicSeconds() + time(ticks) + 0.5
        var events: [Message.Telemetry.Event] = []
        while events.last != .finished {
            guard let notice = try link.nextNotice(timeout: max(0, deadline - monotonicSeconds()), credits: true) else {
                throw Divergence(
                    "streaming \(body.count) bytes through a \(capacity)-byte ring: no FINISHED within \(milliseconds(time(ticks) + 0.5)) (sent \(next) bytes)"
                )
            }
            switch notice {
            case .credit(let c):
                if Int(c.next) > next { throw Divergence("CREDIT next \(c.next), but only \(next) body bytes were sent") }
                limit = max(limit, Int(c.limit))
                try send(upTo: min(limit, body.count))
            case .telemetry(let t) where t.slot == Message.streamSlot && t.event != .fault:
                let offsets: [Message.Telemetry.Event: UInt32] = [.started: 0, .firstOutput: 2, .finished: ticks]
                guard let offset = offsets[t.event], !events.contains(t.event), t.tick == start &+ offset else {
                    throw Divergence(
                        "streaming: \(MessageText.describe(notice)); expected STARTED at \(start), FIRST_OUTPUT at \(start &+ 2), FINISHED at \(start &+ ticks)"
                    )
                }
                events.append(t.event)
                if t.event == .started {
                    try nack(.streamOpen(.init(header: header)), .slotBusy, "STREAM_OPEN while the stream plays")
                }
            default:
                throw Divergence("streaming \(body.count) bytes with credits: unexpected \(MessageText.describe(notice))")
            }
        }
        if events != [.started, .firstOutput, .finished] {
            throw Divergence("streaming: telemetry \(events.map(\.description).joined(separator: ", ")), expected STARTED, FIRST_OUTPUT, FINISHED")
        }
        try expectNoReply(after: data(next, [0]), "STREAM_DATA after the stream ended (closed: ignored)")
        try nack(.play(.init(slot: Message.streamSlot)), .noStream, "PLAY 0xFF after the stream ended")
        return .passed("\(body.count) bytes through a \(capacity)-byte ring on credits; credit query, go-back, over-credit, refusals")
    }

    // MARK: Watchdog (2.13)

    func watchdog() throws(Divergence) -> LiveOutcome {
        let loop = holdProgram(100, ticks: 20)
        if let skip = requireSlot(loop.count) { return skip }
        try expectNack(
            raw(type: MessageType.setConfig.rawValue, payload: [1, 50, 0, 0]), type: MessageType.setConfig.rawValue, .badLength,
            value: 0, "SET_CONFIG with a 4-byte payload")
        try nack(.setConfig(.init(key: .watchdog, value: 65536)), .badParam, "SET_CONFIG WATCHDOG 65536")
        try nack(.setConfig(.init(rawKey: 0x7F, value: 10)), .badParam, "SET_CONFIG with key 0x7F")
        let limit: UInt32 = 200
        try ack(.setConfig(.init(key: .watchdog, value: limit)), value: limit, "SET_CONFIG WATCHDOG \(limit)")
        let hello = try link.command(.hello(.init()))
        guard case .info(let reported) = hello, reported.watchdog == UInt16(limit) else {
            throw Divergence("HELLO after SET_CONFIG WATCHDOG \(limit): expected INFO watchdog \(limit), got \(MessageText.describe(hello))")
        }
        try store(loop, slot: 0)
        try warmUp()
        let start = try ack(.play(.init(slot: 0, loops: 0)), "PLAY slot 0 looping")
        try expectTelemetry(.started, slot: 0, at: start, "PLAY looping")
        try expectTelemetry(.firstOutput, slot: 0, at: start, "PLAY looping")
        // Keep-alives every watchdog / 10 ticks (2.13 asks for at least every watchdog / 4) hold it off.
        var last = start
        var longestGap: UInt32 = 0
        let giveUp = monotonicSeconds() + time(4 * limit)
        while Int32(bitPattern: last &- start) < Int32(2 * limit) {
            if monotonicSeconds() > giveUp { throw Divergence("PONG ticks stopped advancing at \(last) during a play") }
            Thread.sleep(forTimeInterval: Double(limit / 10) / rate)
            let tick = try link.ping()
            longestGap = max(longestGap, tick &- last)
            last = tick
        }
        if let notice = try link.nextNotice(timeout: 0) {
            if longestGap >= limit {
                throw Divergence("the host's keep-alive PINGs came \(longestGap) ticks apart, past WATCHDOG \(limit) (a busy host: run again)")
            }
            throw Divergence(
                "PINGs every \(limit / 10) ticks (at most \(longestGap) apart) with WATCHDOG \(limit): expected no notice, got \(MessageText.describe(notice))"
            )
        }
        try expectTelemetry(
            .fault, slot: 0, code: MessageErrorCode.watchdog.rawValue, at: last &+ limit,
            "silence after the last frame at tick \(last) with WATCHDOG \(limit)")
        // A pending play is cancelled too, and reported with its slot.
        let at = link.estimatedTick() &+ 3 * limit
        try ack(.play(.init(slot: 0, startTick: at)), value: at, "PLAY slot 0, \(3 * limit) ticks ahead")
        last = try link.ping()
        try expectTelemetry(
            .fault, slot: 0, code: MessageErrorCode.watchdog.rawValue, at: last &+ limit,
            "silence with a play pending, last frame at tick \(last)")
        try ack(.setConfig(.init(key: .watchdog, value: UInt32(info.watchdog))), value: UInt32(info.watchdog), "SET_CONFIG back to \(info.watchdog)")
        return .passed("FAULT 50 exactly \(limit) ticks after the last frame, playing and pending; keep-alives; SET_CONFIG refusals")
    }

    // MARK: Reset (2.6)

    func reset() throws(Divergence) -> LiveOutcome {
        guard let (notice, sequence) = openingReset else {
            return .skipped(
                "PROTOCOL.md 1.0 has no reset command and the device sent no RESET while the port was open (boards that reboot when the port opens send one)"
            )
        }
        if sequence != 0 { throw Divergence("RESET notice with seq \(sequence); the notice after boot is number 0 (2.2.1)") }
        if notice.version.major != ProtocolVersion.current.major {
            throw Divergence("RESET notice reports protocol \(notice.version); INFO and this kit speak \(ProtocolVersion.current)")
        }
        let reason = notice.reason.map { "\($0)" } ?? "code \(notice.reasonCode)"
        return .passed("RESET notice at the start: seq 0, protocol \(notice.version), reason \(reason), boot \(notice.bootCount)")
    }
}
