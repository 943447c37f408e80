import HapticProtocol

/// A command's retransmission rule: wait `timeout` seconds for the response, up to `attempts`
/// sends in all (PROTOCOL.md 2.4: 100 ms, 1 + 5).
/// With `adaptive`, the wait per attempt follows the measured round trip and doubles per
/// retransmission (at most `timeout`), and attempts go on until `timeout * attempts` has passed
/// since the first (2.19): more, shorter tries on a fast line, the same total time.
package struct CommandPolicy: Sendable {
    package var timeout: Double
    package var attempts: Int
    package var adaptive = false

    package static func standard(_ timing: SessionTiming) -> CommandPolicy {
        CommandPolicy(timeout: timing.commandTimeout, attempts: 1 + max(0, timing.retransmissions), adaptive: true)
    }
}

/// What came back for a command.
package enum CommandReply: Sendable {
    case ack(UInt32)
    case nack(MessageErrorCode, UInt32)
    /// INFO: 2.6's fields, and 3.0's device-wide ones from a 3.0 device.
    case info(Message.Info, Message3.Info? = nil)
    /// One piece of INFO (2.19), for a HELLO with a part byte.
    case infoPart(Message.InfoPart)
    /// CHANNEL_INFO, for a DESCRIBE (3.0).
    case channelInfo(Message3.ChannelInfo)
    /// No response after every attempt; `damaged` frames arrived meanwhile that could not be read.
    case timedOut(attempts: Int, damaged: Int)
}

/// What an operation wants next.
package enum OperationStep {
    /// Send this command (in the negotiated major's layout, `SessionWire`) and hand its reply to `handle`.
    case send(HostMessage, CommandPolicy)
    /// Nothing to send now; the engine asks again through `resume` (waiting for stream credit).
    case wait
    /// The session needs a fresh handshake and re-upload first; then start this operation again.
    case recoverAndRetry
    /// Finished (the operation has called its completion).
    case done
}

/// One unit of work on the session: a sequence of commands, one in flight at a time (2.4).
/// Operations are driven by `SessionEngine` on one thread at a time; `start` may be called again
/// after a device reset, so it resets the operation's own state.
package protocol SessionOperation: AnyObject {
    /// For logs and errors: the command family, e.g. "UPLOAD slot 2".
    var name: String { get }
    /// Handshake and recovery run before the session is established; everything else waits for them.
    var isSessionSetup: Bool { get }
    /// Start over after a device reset (setup, uploads, STOP) or fail with `.deviceReset` (PLAY).
    var restartsAfterReset: Bool { get }
    func start(_ engine: SessionEngine, now: Double) -> OperationStep
    func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> OperationStep
    /// Called while the operation waits (`.wait`), on every poll and after every CREDIT.
    func resume(_ engine: SessionEngine, now: Double) -> OperationStep
    /// Completes the operation with an error (it will not be driven again).
    func fail(_ error: SessionError)
}

extension SessionOperation {
    package var isSessionSetup: Bool { false }
    package var restartsAfterReset: Bool { true }
    package func resume(_ engine: SessionEngine, now: Double) -> OperationStep { .wait }
}

/// An operation's completion handler, called once: whatever comes after (a failure after the
/// result, a late reply) is dropped. A class, so that the handler may call back into the operation.
package final class OperationCompletion<Value> {
    private let handler: (Result<Value, SessionError>) -> Void
    private var called = false

    package init(_ handler: @escaping (Result<Value, SessionError>) -> Void) {
        self.handler = handler
    }

    package func callAsFunction(_ result: Result<Value, SessionError>) {
        guard !called else { return }
        called = true
        handler(result)
    }
}

/// One command with the standard retransmission rule; completes with the ACK value.
///
/// A PLAY whose response never came may have been taken (its ACKs lost): before failing, it reads
/// the device's play records (QUERY, 2.19) for up to a second: a record or a pending play with its
/// sequence number means it was (the operation completes with the tick it started at), none means
/// it was not, and no answer means nobody can tell (`SessionError.outcomeUnknown`).
package final class CommandOperation: SessionOperation {
    package let message: HostMessage
    private let completion: OperationCompletion<UInt32>
    private var verifying: (sequence: UInt8, error: SessionError, deadline: Double, asked: Double)?

    package init(_ message: HostMessage, completion: @escaping (Result<UInt32, SessionError>) -> Void) {
        self.message = message
        self.completion = OperationCompletion(completion)
    }

    /// 2.0's message as either major carries it (`HostMessage.init(_:)`).
    package convenience init(_ message: Message, completion: @escaping (Result<UInt32, SessionError>) -> Void) {
        self.init(HostMessage(message), completion: completion)
    }

    package var name: String { message.type.description }

    /// A PLAY that did not take effect before a reset must not start late: it fails instead.
    package var restartsAfterReset: Bool { message.type != .play }

    package func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        .send(message, .standard(engine.timing))
    }

    package func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> OperationStep {
        switch reply {
        case .ack(let value):
            engine.commandAcknowledged(message, value: value, now: now)
            completion(.success(value))
        case .nack(let code, let value):
            // A slot the host believes committed is empty: the device lost its memory without a
            // RESET notice reaching us. Recover, then try again.
            if let play = message.play, code == .notCommitted, engine.holds(slot: play.slot) {
                return .recoverAndRetry
            }
            completion(.failure(.rejected(command: name, code: code, value: value)))
        case .info, .infoPart, .channelInfo:
            completion(.failure(.rejected(command: name, code: .unknownMessage, value: 0)))
        case .timedOut(let attempts, let damaged):
            let error = SessionError.noAnswer(command: name, attempts: attempts, damaged: damaged)
            if message.play != nil, engine.info?.capabilities.contains(.status) == true {
                verifying = (engine.lastCommandSequence, error, now + 1, -Double.infinity)
                return resume(engine, now: now)
            }
            completion(.failure(error))
        }
        return .done
    }

    package func resume(_ engine: SessionEngine, now: Double) -> OperationStep {
        guard var check = verifying else { return .wait }
        if let (status, at) = engine.lastStatus, at > check.asked {
            let record = status.record
            if !record.isEmpty && record.sequence == check.sequence {
                verifying = nil
                engine.playAcknowledgedLate(message, sequence: check.sequence, start: record.start, now: now)
                completion(.success(record.start))
                return .done
            }
            if !(status.hasPending && status.pendingSequence == check.sequence) {
                verifying = nil
                completion(.failure(check.error))  // the device has no trace of it: it did not take it
                return .done
            }
        }
        if now >= check.deadline {
            verifying = nil
            completion(.failure(.outcomeUnknown("\(check.error); its play record could not be read either, so it may have played")))
            return .done
        }
        if now - check.asked >= 0.05 {
            check.asked = now
            engine.transmitUnacknowledged(.query(HostMessage.RecordQuery(playing: message.play)), now: now)
        }
        verifying = check
        return .wait
    }

    package func fail(_ error: SessionError) { completion(.failure(error)) }

}

/// HELLO until INFO (2.6), INFO in pieces where the device has them (2.19): establishes the session.
package final class HandshakeOperation: SessionOperation {
    private let completion: OperationCompletion<Message.Info>
    private var assembly = InfoAssembly()

    package init(completion: @escaping (Result<Message.Info, SessionError>) -> Void) {
        self.completion = OperationCompletion(completion)
    }

    package var name: String { "HELLO" }
    package var isSessionSetup: Bool { true }

    package func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        assembly.start(engine, now: now)
    }

    package func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> OperationStep {
        switch assembly.handle(reply, engine, now: now) {
        case .send(let step):
            return step
        case .ended(.success(let description)):
            engine.established(description, now: now)
            completion(.success(description.info))
        case .ended(.failure(let error)):
            completion(.failure(error))
        }
        return .done
    }

    package func fail(_ error: SessionError) { completion(.failure(error)) }

    /// INFO, or why not: a major mismatch is refused by the device (NACK VERSION_INCOMPATIBLE,
    /// value = major * 256 + minor) or, from a device that answers anyway, detected here. `host`
    /// is the version the HELLO asked for (the engine's wire).
    package static func outcome(of reply: CommandReply, host: ProtocolVersion = .current) -> Result<Message.Info, SessionError> {
        switch reply {
        case .info(let info, _):
            guard info.version.isCompatible(with: host) else {
                return .failure(.incompatibleVersion(device: info.version, host: host))
            }
            return .success(info)
        case .nack(let code, let value) where code == .versionIncompatible:
            let device = ProtocolVersion(major: UInt8(truncatingIfNeeded: value >> 8), minor: UInt8(truncatingIfNeeded: value))
            return .failure(.incompatibleVersion(device: device, host: host))
        case .nack(let code, let value):
            return .failure(.rejected(command: "HELLO", code: code, value: value))
        case .ack:
            return .failure(.rejected(command: "HELLO", code: .unknownMessage, value: 0))
        case .infoPart, .channelInfo:
            return .failure(.rejected(command: "HELLO", code: .unknownMessage, value: 0))
        case .timedOut(let attempts, let damaged):
            return .failure(.noAnswer(command: "HELLO", attempts: attempts, damaged: damaged))
        }
    }
}
