import HapticProtocol

/// The host side of a streamed program (PROTOCOL.md 2.10): body bytes sent ahead of the device's
/// read position, within its credit, go-back-N on loss.
package struct StreamFeeder {
    package let body: [UInt8]
    package let capacity: UInt32
    /// Body bytes sent so far (the next STREAM_DATA offset).
    package private(set) var sent: UInt32 = 0
    /// The device's `next`: bytes it has, in order.
    package private(set) var confirmed: UInt32 = 0
    /// The device's `limit`: the host may send below it.
    package private(set) var limit: UInt32 = 0
    package var lastCredit: Double
    /// A PLAY of the stream was acknowledged: the ring is being consumed (a new play reopens it).
    package var playing = false
    package var lastData: Double = -.infinity
    package var lastQuery: Double = -.infinity
    private var primingQueried = false

    /// The program header the stream was opened with.
    package let header: [UInt8]

    package init(header: [UInt8], body: [UInt8], capacity: UInt32, now: Double) {
        self.header = header
        self.body = body
        self.capacity = capacity
        self.lastCredit = now
    }

    package var length: UInt32 { UInt32(body.count) }
    /// The device holds what the play needs to start (2.10: the first min(capacity, length) bytes).
    package var primed: Bool { confirmed >= min(capacity, length) }
    package var complete: Bool { confirmed >= length }

    /// A CREDIT. `next` below what was sent means loss, unless the missing bytes may still be on
    /// the line (sent less than `grace` ago): then the device's next CREDIT decides.
    package mutating func credit(_ credit: Message.Credit, now: Double, grace: Double) {
        confirmed = min(credit.next, length)
        limit = min(credit.limit, length)
        lastCredit = now
        if confirmed < sent && now - lastData >= grace { sent = confirmed }
        if confirmed > sent { sent = confirmed }
    }

    /// The next STREAM_DATA within the credit, at most `maxData` bytes, or nil.
    package mutating func nextChunk(maxData: Int, now: Double) -> Message.StreamData? {
        guard sent < limit, maxData > 0 else { return nil }
        let count = min(Int(limit - sent), maxData)
        let start = Int(sent)
        sent += UInt32(count)
        lastData = now
        return Message.StreamData(offset: UInt32(start), data: Array(body[start..<(start + count)]))
    }

    /// An empty STREAM_DATA asks for a CREDIT when none came for `interval` (a lost CREDIT or lost
    /// data would otherwise stall the stream until an underrun), and once right after the bytes
    /// that prime the ring: the device sends no CREDIT by itself when they arrive (its limit has
    /// not moved, 2.10), and the play waits for the confirmation.
    package mutating func query(now: Double, interval: Double) -> Message.StreamData? {
        guard !complete else { return nil }
        let primingSent = !primed && !primingQueried && sent >= min(capacity, length)
        guard primingSent || (now - lastCredit >= interval && now - lastQuery >= interval) else { return nil }
        if primingSent { primingQueried = true }
        lastQuery = now
        return Message.StreamData(offset: sent, data: [])
    }
}

/// Plays a program from the stream: STREAM_OPEN with its header, body bytes until the ring holds
/// what the start needs, then PLAY 0xFF; the engine keeps feeding the rest while it plays.
/// Completes with the PLAY's ACK value (the start tick). With `prepareOnly` it stops once the
/// ring is primed (completing with 0), and a later play of the same program sends only the PLAY.
package final class StreamPlayOperation: SessionOperation {
    private enum Phase { case open, priming, play }

    package let program: Program
    package let scale: UInt8
    package let offset: Int8
    package let startTick: UInt32?
    package let prepareOnly: Bool
    private var phase = Phase.open
    private var primingSince = 0.0
    private let completion: OperationCompletion<UInt32>

    /// Priming that makes no progress for this long fails (the device stopped granting credit).
    package static let primingTimeout = 2.0

    package init(
        program: Program, startTick: UInt32?, scale: UInt8, offset: Int8, prepareOnly: Bool = false,
        completion: @escaping (Result<UInt32, SessionError>) -> Void
    ) {
        self.program = program
        self.prepareOnly = prepareOnly
        self.startTick = startTick
        self.scale = scale
        self.offset = offset
        self.completion = OperationCompletion(completion)
    }

    package var name: String { phase == .open ? "STREAM_OPEN" : "PLAY stream" }
    package var restartsAfterReset: Bool { prepareOnly }

    package func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        guard let info = engine.info, info.streamCapacity > 0 else {
            completion(.failure(.doesNotFit(bytes: program.bytes.count, reason: "larger than a slot and the device has no stream")))
            return .done
        }
        if let feeder = engine.stream, !feeder.playing, feeder.body == program.body, feeder.header == program.header.bytes {
            // Opened and primed by a prepare: only the PLAY is left (or nothing, for a prepare).
            phase = .priming
            primingSince = now
            return resume(engine, now: now)
        }
        phase = .open
        return .send(.shared(.streamOpen(Message.StreamOpen(header: program.header.bytes))), .standard(engine.timing))
    }

    package func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> OperationStep {
        switch (phase, reply) {
        case (.open, .ack(let capacity)):
            engine.openStream(header: program.header.bytes, body: program.body, capacity: capacity, now: now)
            phase = .priming
            primingSince = now
            return resume(engine, now: now)
        case (.play, .ack(let tick)):
            engine.commandAcknowledged(playMessage, value: tick, now: now)
            completion(.success(tick))
        case (_, .nack(let code, let value)):
            completion(.failure(.rejected(command: name, code: code, value: value)))
        case (_, .timedOut(let attempts, let damaged)):
            completion(.failure(.noAnswer(command: name, attempts: attempts, damaged: damaged)))
        default:
            completion(.failure(.rejected(command: name, code: .unknownMessage, value: 0)))
        }
        return .done
    }

    package func resume(_ engine: SessionEngine, now: Double) -> OperationStep {
        guard phase == .priming else { return .wait }
        guard let feeder = engine.stream else {
            completion(.failure(.timedOut("stream credit (the stream closed)")))
            return .done
        }
        if feeder.primed {
            if prepareOnly {
                completion(.success(0))
                return .done
            }
            phase = .play
            return .send(playMessage, .standard(engine.timing))
        }
        if now - max(primingSince, feeder.lastCredit) > Self.primingTimeout {
            completion(.failure(.timedOut("stream credit")))
            return .done
        }
        return .wait
    }

    /// The stream plays once on channel 0 (3.12: one channel), as play 0.
    private var playMessage: HostMessage {
        HostMessage(.play(Message.Play(slot: Message.streamSlot, startTick: startTick, scale: scale, offset: offset, loops: 1)))
    }

    package func fail(_ error: SessionError) { completion(.failure(error)) }

}
