import HapticProtocol

/// A program the device holds in a slot, as the host uploaded and the device committed it.
package struct SlotProgram: Sendable, Hashable {
    package var bytes: [UInt8]
    package var crc: UInt16
    package var totalTicks: UInt32
}

/// UPLOAD chunks then COMMIT (PROTOCOL.md 2.7), as a state machine fed with replies.
///
/// Recovery rules: a lost ACK is repaired by retransmission (the device answers from its duplicate
/// memory, 2.4); BAD_OFFSET and COMMIT_LENGTH carry the device's fill, from which the upload resumes
/// (the bytes below it came in CRC-checked frames at the offsets this host chose); a checksum
/// mismatch at COMMIT empties the slot and the upload starts over, at most `attempts` times in all.
/// Everything else is an error the caller sees. The COMMIT's CRC covers the whole program, so a
/// slot is ready only with exactly these bytes (or a CRC-16 collision on top of a frame CRC-16
/// collision).
package struct UploadMachine {
    package enum Next {
        case send(Message)
        case committed(totalTicks: UInt32)
        case failed(SessionError)
    }

    package let slot: UInt8
    package let program: [UInt8]
    package let chunkSize: Int
    package let attempts: Int
    package private(set) var fill = 0
    package private(set) var restarts = 0
    private var committing = false

    package init(slot: UInt8, program: [UInt8], chunkSize: Int, attempts: Int) {
        self.slot = slot
        self.program = program
        self.chunkSize = max(1, chunkSize)
        self.attempts = max(1, attempts)
    }

    /// The first command: offset 0, which also empties whatever the slot held.
    package mutating func first() -> Message {
        fill = 0
        committing = false
        return nextCommand()
    }

    private mutating func nextCommand() -> Message {
        if fill >= program.count {
            committing = true
            return .commit(Message.Commit(slot: slot, program: program))
        }
        committing = false
        let end = min(program.count, fill + chunkSize)
        return .upload(Message.Upload(slot: slot, offset: UInt32(fill), data: Array(program[fill..<end])))
    }

    package mutating func handle(_ reply: CommandReply) -> Next {
        let command = committing ? "COMMIT slot \(slot)" : "UPLOAD slot \(slot)"
        switch reply {
        case .ack(let value):
            if committing { return .committed(totalTicks: value) }
            // ACK value = the device's fill; anything else than what was sent means lost track.
            let expected = min(program.count, fill + chunkSize)
            fill = Int(value) == expected ? expected : 0
            return .send(nextCommand())
        case .nack(let code, let value):
            switch code {
            case .badOffset, .commitLength:
                fill = Int(value) <= program.count ? Int(value) : 0
                return .send(nextCommand())
            case .checksumMismatch:
                restarts += 1
                guard restarts < attempts else {
                    return .failed(.rejected(command: command, code: code, value: value))
                }
                return .send(first())
            default:
                return .failed(.rejected(command: command, code: code, value: value))
            }
        case .info, .infoPart, .channelInfo:
            return .failed(.rejected(command: command, code: .unknownMessage, value: 0))
        case .timedOut(let attempts, let damaged):
            return .failed(.noAnswer(command: command, attempts: attempts, damaged: damaged))
        }
    }
}

/// Uploads and commits one program to one slot; completes with the program's total ticks.
package final class UploadOperation: SessionOperation {
    package let slot: UInt8
    package let program: [UInt8]
    private var machine: UploadMachine?
    private let completion: OperationCompletion<UInt32>

    package init(slot: UInt8, program: [UInt8], completion: @escaping (Result<UInt32, SessionError>) -> Void) {
        self.slot = slot
        self.program = program
        self.completion = OperationCompletion(completion)
    }

    package var name: String { "UPLOAD slot \(slot)" }

    package func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        if let reason = engine.slotProblem(bytes: program.count, slot: slot) {
            completion(.failure(.doesNotFit(bytes: program.count, reason: reason)))
            return .done
        }
        // Until the COMMIT is acknowledged the host does not know what the slot holds.
        engine.forget(slot: slot)
        var machine = engine.uploadMachine(slot: slot, program: program)
        let first = machine.first()
        self.machine = machine
        return .send(.shared(first), .standard(engine.timing))
    }

    package func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> OperationStep {
        guard var machine else { return .done }
        let next = machine.handle(reply)
        self.machine = machine
        switch next {
        case .send(let message):
            return .send(.shared(message), .standard(engine.timing))
        case .committed(let ticks):
            engine.remember(slot: slot, program: program, totalTicks: ticks)
            completion(.success(ticks))
        case .failed(let error):
            completion(.failure(error))
        }
        return .done
    }

    package func fail(_ error: SessionError) { completion(.failure(error)) }

}

/// After a reset (RESET notice) or a lost session (no answers, a slot found empty): HELLO again,
/// the watchdog setting again, then every program the host had committed, slot by slot:
/// Core Haptics' reset handler, done for the user. Completes with the number of programs restored.
package final class RecoveryOperation: SessionOperation {
    private enum Phase {
        case hello
        case configure
        case upload(UploadMachine, remaining: [(UInt8, SlotProgram)])
    }

    private var phase = Phase.hello
    private var restored = 0
    private var assembly = InfoAssembly()
    private let completion: (Result<Int, SessionError>) -> Void

    package init(completion: @escaping (Result<Int, SessionError>) -> Void) {
        self.completion = completion
    }

    package var name: String { "recovery" }
    package var isSessionSetup: Bool { true }

    package func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        phase = .hello
        restored = 0
        return assembly.start(engine, now: now)
    }

    package func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> OperationStep {
        switch phase {
        case .hello:
            switch assembly.handle(reply, engine, now: now) {
            case .send(let step):
                return step
            case .ended(.failure(let error)):
                completion(.failure(error))
                return .done
            case .ended(.success(let description)):
                engine.established(description, now: now, recovering: true)
                if let watchdog = engine.watchdogSetting {
                    phase = .configure
                    let config = Message.SetConfig(key: .watchdog, value: UInt32(watchdog))
                    return .send(.shared(.setConfig(config)), .standard(engine.timing))
                }
                return uploadNext(engine, remaining: engine.committedSlots)
            }
        case .configure:
            if case .ack(let value) = reply { engine.watchdogChanged(UInt16(truncatingIfNeeded: value)) }
            return uploadNext(engine, remaining: engine.committedSlots)
        case .upload(var machine, let remaining):
            switch machine.handle(reply) {
            case .send(let message):
                phase = .upload(machine, remaining: remaining)
                return .send(.shared(message), .standard(engine.timing))
            case .committed(let ticks):
                engine.remember(slot: machine.slot, program: machine.program, totalTicks: ticks)
                restored += 1
                return uploadNext(engine, remaining: remaining)
            case .failed:
                // One program that would not go back is forgotten (a later play uploads it again);
                // only a device that does not answer HELLO ends the session.
                engine.forget(slot: machine.slot)
                return uploadNext(engine, remaining: remaining)
            }
        }
    }

    private func uploadNext(_ engine: SessionEngine, remaining: [(UInt8, SlotProgram)]) -> OperationStep {
        guard let (slot, program) = remaining.first else {
            completion(.success(restored))
            return .done
        }
        var machine = engine.uploadMachine(slot: slot, program: program.bytes)
        let first = machine.first()
        phase = .upload(machine, remaining: Array(remaining.dropFirst()))
        return .send(.shared(first), .standard(engine.timing))
    }

    package func fail(_ error: SessionError) { completion(.failure(error)) }
}
