import HapticProtocol
import HapticTransport
import Logging

/// The host side of the wire protocol without I/O or clocks of its own (sans-I/O): bytes in through
/// `receive`, time through `now` arguments, bytes out through the `send` closure. `SessionRunner`
/// drives it over a transport in real time; the fault-injection tests drive it in virtual time,
/// so the same code is tested that runs against a board.
///
/// Rules it keeps (PROTOCOL.md part 2): one command in flight, retransmitted byte for byte after a
/// time-out that adapts to the measured round trip and grows 1.25 times on each retransmission,
/// within 2.4's total of 6 x 100 ms (2.19), at once when a damaged frame was most likely the answer,
/// in two or three copies on a line that damages many frames; a 0x00 before the first frame and after a time-out (2.1.3); at
/// most `rx_buffer` bytes sent between a command's first byte and its response (2.5); SET_PARAM
/// coalesced, at most one per tick (2.8); STREAM_DATA within credit, go-back-N (2.10); a frame at
/// least every watchdog / 8 while a play may be running (2.13, 2.19); the end of every play
/// learned, from its notices or from the device's play records (QUERY, 2.19: `PlayTracker`); on
/// RESET or a lost session, a new handshake and every committed program uploaded again.
///
/// Not thread-safe: one thread at a time (the runner holds a lock around every call). What the
/// operations ask of it (policies, limits, committed slots) is in SessionEngineOperations.swift;
/// the session's life (established, reset, recovery, failure) in SessionEngineRecovery.swift.
package final class SessionEngine {
    package enum State: Equatable {
        case idle
        case ready
        case recovering
        case failed(SessionError)
    }

    struct InFlight {
        var sequence: UInt8
        var type: MessageType
        var bytes: [UInt8]
        var deadline: Double
        var attempt: Int
        var policy: CommandPolicy
        var firstSent: Double
        var lastSent: Double
        /// This attempt was already sent again early, for a damaged frame.
        var resentEarly = false
    }

    struct PendingPing {
        var sent: Double
        /// `bytesSent` before this PING went out.
        var offset: Int
        var completion: (Result<PingSample, SessionError>) -> Void
    }

    package let timing: SessionTiming
    let send: ([UInt8]) throws(TransportError) -> Void
    let logger: Logger
    /// Called for every event, in order, on the thread driving the engine.
    package var onEvent: (DeviceEvent) -> Void = { _ in }

    package internal(set) var state = State.idle
    /// The wire codec of the negotiated major (SessionNegotiation.swift): 3.0 until a device says 2.
    package internal(set) var wire: any SessionWire = SessionWire3()
    /// What the device is (channels, players, capabilities), from the handshake.
    package internal(set) var device: DeviceDescription?
    /// Whether the user was told what a 2.0 device lacks (once per session).
    var fallbackReported = false
    package internal(set) var info: Message.Info?
    /// The watchdog this host set (SET_CONFIG), restored after a reset.
    package internal(set) var watchdogSetting: UInt16?
    package internal(set) var stream: StreamFeeder?
    /// Counters for reports: bytes on the line each way, retransmissions, frames the decoder dropped.
    package internal(set) var bytesSent = 0
    package private(set) var bytesReceived = 0
    package private(set) var retransmissions = 0
    /// Retransmissions on an established session: HELLOs sent again before the device answered
    /// (a board still booting, an adapter slower than the first guess) say nothing of the line.
    private(set) var retransmissionsWhileReady = 0

    private var decoder = FrameDecoder()
    private var nextSequence: UInt8 = 0
    var queue: [any SessionOperation] = []
    var current: (any SessionOperation)?
    var inFlight: InFlight?
    var bytesSinceCommand = 0
    var needsDelimiter = true
    var lastSend = -Double.infinity
    var slots: [UInt8: SlotProgram] = [:]
    var pings: [UInt32: PendingPing] = [:]
    /// PINGs given up unanswered (`pingWait`): their bytes may still wait in the device's ring, so
    /// they keep counting (`pingFits`) until a later answer shows the device past them, or a second.
    var givenUpPings: [UInt32: (offset: Int, at: Double)] = [:]
    /// `bytesSent` before the last command's latest transmission, and before the last answered
    /// frame: the device has consumed everything sent before it.
    var commandOffset = 0
    var consumedOffset = 0
    private var nextEcho: UInt32 = 1
    var pendingParameters: Message3.SetParam?
    var lastParameters = -Double.infinity
    var playMayRun = false
    var lastNotice: UInt8?
    /// Plays whose end is awaited (2.19).
    package internal(set) var tracker = PlayTracker()
    /// The sequence number of the command whose response is being delivered.
    var respondedSequence: UInt8 = 0
    /// INFO pieces received during the handshake, whichever HELLO they answer (2.19).
    package internal(set) var infoPieces: [UInt8: Message.InfoPart] = [:]
    /// The sequence number of the last command sent, and the last STATUS with its arrival time.
    package private(set) var lastCommandSequence: UInt8 = 0
    package private(set) var lastStatus: (status: Message.Status, at: Double)?
    /// The latest device tick a PONG or STATUS reported, and when it arrived.
    private(set) var deviceTick: (tick: UInt32, at: Double)?
    /// Smoothed round trip of commands and its variation (RFC 6298), from first attempts only.
    package internal(set) var smoothedRoundTrip: Double?
    var roundTripVariation = 0.0
    /// Frames that arrived damaged (CRC, COBS, ...) since the command in flight was first sent.
    private var damagedSinceCommand = 0
    /// Frames that arrived damaged in the whole session, and all frames received, intact or not:
    /// how noisy the line is (`commandCopies`, `lineIsLossy`: smaller uploads).
    package private(set) var damagedFrames = 0
    private(set) var framesReceived = 0

    package init(timing: SessionTiming, logger: Logger, send: @escaping ([UInt8]) throws(TransportError) -> Void) {
        self.timing = timing
        self.logger = logger
        self.send = send
    }

    // MARK: Requests

    package func submit(_ operation: any SessionOperation, now: Double) {
        if case .failed(let error) = state {
            operation.fail(error)
            return
        }
        queue.append(operation)
        advance(now: now)
    }

    /// Sends a PING now (unacknowledged: a lost one is not retransmitted; the caller sends another).
    package func ping(now: Double, completion: @escaping (Result<PingSample, SessionError>) -> Void) {
        if case .failed(let error) = state { return completion(.failure(error)) }
        let echo = nextEcho
        nextEcho = nextEcho == UInt32.max ? 1 : nextEcho + 1
        // A PING is small (12 bytes); it goes out even with a command in flight unless that would
        // overfill the device's receive buffer, or unanswered PINGs already fill half of it (2.5).
        // Not sent: the caller sees a lost PONG and retries.
        guard pingFits else { return completion(.failure(.timedOut("room in the device's receive buffer for a PING"))) }
        pings[echo] = PendingPing(sent: now, offset: bytesSent, completion: completion)
        if !transmitUnacknowledged(.shared(.ping(Message.Ping(echo: echo))), now: now) {
            pings[echo] = nil
            completion(.failure(.timedOut("room in the device's receive buffer for a PING")))
        }
    }

    /// Live master scale and sharpness offset: the latest wins, at most one frame per tick. 2.0's
    /// SET_PARAM is for every play on every channel.
    package func setParameters(_ parameters: Message.SetParam, now: Double) {
        setParameters(Message3.SetParam(scale: parameters.scale, offset: parameters.offset), now: now)
    }

    package func setParameters(_ parameters: Message3.SetParam, now: Double) {
        pendingParameters = parameters
        flushParameters(now: now)
    }

    // MARK: Input

    package func receive(_ bytes: [UInt8], now: Double) {
        bytesReceived += bytes.count
        for result in decoder.push(bytes) {
            framesReceived += 1
            guard case .success(let frame) = result else {
                damagedSinceCommand += 1
                damagedFrames += 1
                resendEarly(now: now)
                tracker.frameDamaged(now: now, window: 0.02)
                continue
            }
            handle(frame, now: now)
            if case .failed = state { return }
        }
        advance(now: now)
    }

    /// Time-outs, retransmissions, keep-alives, coalesced parameters, stream data.
    package func poll(now: Double) {
        if case .failed = state { return }
        if var command = inFlight, now >= command.deadline {
            let budget = command.firstSent + command.policy.timeout * Double(command.policy.attempts)
            let more = command.policy.adaptive ? now < budget - 0.001 : command.attempt < command.policy.attempts
            if more {
                command.attempt += 1
                command.resentEarly = false
                command.deadline = min(now + attemptTimeout(command.policy, attempt: command.attempt), budget)
                command.lastSent = now
                inFlight = command
                retransmissions += 1
                if state == .ready { retransmissionsWhileReady += 1 }
                needsDelimiter = true
                bytesSinceCommand = 0
                logger.debug(
                    "retransmit \(command.type) seq \(command.sequence), attempt \(command.attempt), \(damagedSinceCommand) damaged frames")
                guard transmitCommand(command.bytes, now: now) else { return }
            } else {
                inFlight = nil
                needsDelimiter = true
                deliver(.timedOut(attempts: command.attempt, damaged: damagedSinceCommand), now: now)
            }
        }
        for (echo, ping) in pings where now - ping.sent >= pingWait {
            pings[echo] = nil
            givenUpPings[echo] = (ping.offset, now)
            ping.completion(.failure(.timedOut("PONG")))
        }
        givenUpPings = givenUpPings.filter { now - $0.value.at < 1 }
        flushParameters(now: now)
        pumpStream(now: now)
        keepAlive(now: now)
        queryPlays(now: now)
        if let operation = current, inFlight == nil {
            apply(operation.resume(self, now: now), of: operation, now: now)
        }
        advance(now: now)
    }

    /// A damaged frame while a command waits for its answer was most likely that answer (2.19): the
    /// command goes again at once instead of at its time-out, once per attempt, if its answer could
    /// have come by now (half the round trip). A wrong guess costs a duplicate, which the device
    /// answers from its duplicate memory (2.4).
    private func resendEarly(now: Double) {
        guard var command = inFlight, command.policy.adaptive, !command.resentEarly,
            now - command.lastSent >= (smoothedRoundTrip ?? 0) / 2
        else { return }
        command.resentEarly = true
        command.deadline = min(command.deadline, now)
        inFlight = command
    }

    /// The link failed: every request fails with the transport's error, and nothing more is sent.
    package func transportFailed(_ error: TransportError) {
        fail(with: .transport(error))
    }

    // MARK: Operation driving

    func advance(now: Double) {
        while current == nil, let index = nextRunnable() {
            let operation = queue.remove(at: index)
            current = operation
            apply(operation.start(self, now: now), of: operation, now: now)
        }
    }

    /// Setup operations run whenever they are first in line; others only on an established session.
    private func nextRunnable() -> Int? {
        guard !queue.isEmpty else { return nil }
        switch state {
        case .failed:
            return nil
        case .ready:
            return 0
        case .idle, .recovering:
            if queue[0].isSessionSetup { return 0 }
            if state == .idle {
                // Nothing but a handshake makes sense before one.
                let operation = queue.removeFirst()
                operation.fail(.notConnected)
                return nextRunnable()
            }
            return queue.firstIndex { $0.isSessionSetup }
        }
    }

    private func apply(_ step: OperationStep, of operation: any SessionOperation, now: Double) {
        guard current === operation else { return }
        switch step {
        case .send(let message, let policy):
            let sequence = nextSequence
            nextSequence &+= 1
            lastCommandSequence = sequence
            let bytes: [UInt8]
            do {
                bytes = try wire.encode(message, sequence: sequence)
            } catch {
                current = nil
                switch error {
                case .tooLong(let count): operation.fail(.rejected(command: operation.name, code: .badLength, value: UInt32(count)))
                case .unavailable(let what): operation.fail(.unavailable(feature: what, device: wire.version))
                }
                return
            }
            inFlight = InFlight(
                sequence: sequence, type: message.type, bytes: bytes,
                deadline: now + attemptTimeout(policy, attempt: 1), attempt: 1, policy: policy, firstSent: now, lastSent: now)
            bytesSinceCommand = 0
            damagedSinceCommand = 0
            guard transmitCommand(bytes, now: now) else { return }
        case .wait:
            break
        case .recoverAndRetry:
            current = nil
            queue.insert(operation, at: 0)
            beginRecovery(now: now)
        case .done:
            current = nil
        }
    }

    private func deliver(_ reply: CommandReply, now: Double) {
        guard let operation = current else { return }
        let wasSetup = operation.isSessionSetup
        let step = operation.handle(reply, self, now: now)
        apply(step, of: operation, now: now)
        // Commands that went unanswered on an established session: the device may have reset
        // with its RESET notice lost. Find out with a new handshake before anything else.
        if case .timedOut = reply, !wasSetup, state == .ready, current == nil {
            beginRecovery(now: now)
        }
    }

    // MARK: Frames from the device

    private func handle(_ frame: Frame, now: Double) {
        let message: DeviceFrame
        do {
            message = try wire.decode(frame)
        } catch {
            logger.debug("ignored frame: \(error)")
            return
        }
        switch message {
        case .ack(let ack):
            matchResponse(frame.sequence, type: ack.type, reply: .ack(ack.value), now: now)
        case .nack(let nack):
            matchResponse(frame.sequence, type: nack.type, reply: .nack(nack.code, nack.value), now: now)
        case .info(let info, let info3):
            matchResponse(frame.sequence, type: MessageType.hello.rawValue, reply: .info(info, info3), now: now)
        case .channelInfo(let channel):
            matchResponse(frame.sequence, type: MessageType.describe.rawValue, reply: .channelInfo(channel), now: now)
        case .infoPart(let part):
            // Every piece counts, also the answers to the extra HELLOs sent alongside (2.19).
            if part.parts == 0 || Int(part.part) < Int(part.parts) { infoPieces[part.part] = part }
            matchResponse(frame.sequence, type: MessageType.hello.rawValue, reply: .infoPart(part), now: now)
        case .status(let status, let play, let channel):
            lastStatus = (status, now)
            deviceTick = (status.now, now)
            let about = PlayChannel(play: play, channel: channel)
            let rate = Double(max(1, info?.rate ?? 1000))
            for event in tracker.status(status, about: about, olderRecords: wire.keepsOlderRecords, now: now, rate: rate) {
                if event.endsPlay && tracker.isEmpty { playMayRun = false }
                onEvent(event)
            }
        case .pong(let pong):
            deviceTick = (pong.tick, now)
            if let offset = pings[pong.echo]?.offset ?? givenUpPings[pong.echo]?.offset { consumedOffset = max(consumedOffset, offset) }
            givenUpPings[pong.echo] = nil
            if let ping = pings.removeValue(forKey: pong.echo) {
                ping.completion(.success(PingSample(sent: ping.sent, received: now, pong: pong)))
            }
        case .telemetry(let event):
            countNotice(frame.sequence, now: now)
            guard tracker.notice(event) else { return }  // already learned from a play record
            if event.endsPlay {
                // With one player an end means nothing plays; with a pool, when no play is awaited.
                if tracker.isEmpty || (device?.players ?? 1) <= 1 { playMayRun = false }
                if event.playEvent?.slot == Message.streamSlot { stream = nil }
            } else if case .started = event {
                playMayRun = true
            }
            onEvent(event)
        case .credit(let credit):
            countNotice(frame.sequence, now: now)
            stream?.credit(credit, now: now, grace: timing.commandTimeout / 2)
            pumpStream(now: now)
            if let operation = current, inFlight == nil {
                apply(operation.resume(self, now: now), of: operation, now: now)
            }
        case .reset(let reset):
            lastNotice = frame.sequence
            onEvent(.reset(reason: reset.reason, bootCount: reset.bootCount))
            deviceReset(now: now)
        case .ignored:
            break  // host-to-device types echoed back: ignored (2.2.1)
        }
    }

    /// A response counts only for the command in flight: same sequence number and type. Anything
    /// else is a late answer to an earlier attempt (2.4).
    private func matchResponse(_ sequence: UInt8, type: UInt8, reply: CommandReply, now: Double) {
        guard let command = inFlight, command.sequence == sequence, command.type.rawValue == type else { return }
        // Karn's rule, relaxed: before any sample, a retransmitted command's answer times its last
        // send (on a noisy line the first attempt may never be answered; an answer to an earlier
        // attempt only makes the estimate longer, which is safe).
        if command.attempt == 1 || smoothedRoundTrip == nil { roundTrip(now - command.lastSent) }
        respondedSequence = sequence
        consumedOffset = max(consumedOffset, commandOffset)
        inFlight = nil
        bytesSinceCommand = 0
        deliver(reply, now: now)
    }
}
