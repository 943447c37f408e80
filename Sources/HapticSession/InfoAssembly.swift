import HapticProtocol

/// The handshake's exchange (PROTOCOL.md 2.6, 2.19; PROTOCOL-3.md 3.14): HELLO in the engine's
/// major (3.0 first) until INFO, in pieces where the device has them; on a NACK
/// VERSION_INCOMPATIBLE naming major 2, the same again in 2.0 (`SessionEngine.speak`); on a 3.0
/// device, DESCRIBE each channel until its CHANNEL_INFO. Each command is retransmitted on the
/// adaptive time-out, the HELLOs within the handshake's time. A device without INFO_PART answers
/// the first HELLO with the whole INFO, which ends the INFO part too.
///
/// Why in pieces: INFO is up to 66 bytes on the wire, a piece 18; at 2 % damaged bytes a whole INFO
/// arrives intact one time in four, a piece seven times in ten.
package struct InfoAssembly {
    package enum Next {
        /// The exchange is over: what the device is, or why not (`HandshakeOperation.outcome(of:)`).
        case ended(Result<DeviceDescription, SessionError>)
        case send(OperationStep)
    }

    private var assembly = Message.InfoPart.Assembly()
    private var started = 0.0
    /// Once INFO is in on a 3.0 device: the description, its channels so far.
    private var describing: (DeviceDescription, channels: Int)?
    private var switchedMajor = false

    package init() {}

    package mutating func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        assembly = Message.InfoPart.Assembly()
        started = now
        describing = nil
        switchedMajor = false
        engine.infoPieces = [:]
        return .send(HostMessage(.hello(Message.Hello(part: 0))), engine.handshakePolicy)
    }

    /// INFO once every piece is in, the reply that came instead of a piece, or the next HELLO.
    package mutating func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> Next {
        if let (description, count) = describing { return described(reply, description, count: count, engine) }
        // One change of major per exchange: a device that names a major each time it is asked
        // in the other cannot be spoken to.
        if case .nack(.versionIncompatible, let value) = reply, !switchedMajor, engine.speak(major: UInt8(truncatingIfNeeded: value >> 8)) {
            let step = start(engine, now: now)
            switchedMajor = true
            return .send(step)
        }
        guard case .infoPart(let piece) = reply else { return read(reply, engine) }
        guard piece.parts != 0, piece.part < piece.parts, assembly.parts == 0 || assembly.parts == piece.parts else {
            return read(.nack(.badLength, UInt32(piece.parts)), engine)
        }
        // This piece, and those that answered the extra HELLOs (same INFO: same count of parts).
        _ = assembly.add(piece)
        for other in engine.infoPieces.values where !assembly.missingParts.isEmpty && other.parts == piece.parts {
            _ = assembly.add(other)
        }
        let missingParts = assembly.missingParts
        guard let missing = missingParts.first else {
            // All in: INFO as this major lays it out (3.0's is 2.0's and 8 bytes more).
            guard case .info(let info, let info3)? = engine.wire.info(payload: assembly.bytes) else {
                return read(.nack(.badLength, UInt32(assembly.bytes.count)), engine)  // all in, yet no INFO
            }
            return read(.info(info, info3), engine)
        }
        // Ask for the others at once too: each answer that arrives intact is one less round trip.
        engine.requestInfoPieces(Array(missingParts.dropFirst()), now: now)
        let timing = engine.timing
        let left = max(timing.commandTimeout, started + timing.handshakeTimeout - now)
        let policy = CommandPolicy(
            timeout: timing.commandTimeout, attempts: max(1, Int((left / timing.commandTimeout).rounded(.down))), adaptive: true)
        return .send(.send(HostMessage(.hello(Message.Hello(part: UInt8(missing)))), policy))
    }

    /// INFO or why not; on a 3.0 device, then its channels.
    private mutating func read(_ reply: CommandReply, _ engine: SessionEngine) -> Next {
        switch HandshakeOperation.outcome(of: reply, host: engine.wire.version) {
        case .failure(let error):
            return .ended(.failure(error))
        case .success(let info):
            guard case .info(_, let info3?) = reply else {
                return .ended(.success(DeviceDescription(version: engine.wire.version, info: info)))
            }
            let description = DeviceDescription(version: engine.wire.version, info: info, info3: info3, channels: [])
            return described(nil, description, count: Int(info3.channelCount), engine)
        }
    }

    /// DESCRIBE channel after channel (3.11), each retransmitted like a command until its CHANNEL_INFO.
    private mutating func described(_ reply: CommandReply?, _ description: DeviceDescription, count: Int, _ engine: SessionEngine)
        -> Next
    {
        var description = description
        switch reply {
        case nil:
            break
        case .channelInfo(let channel)? where Int(channel.channel) == description.channels.count:
            description.channels.append(channel)
        case .timedOut(let attempts, let damaged)?:
            return .ended(.failure(.noAnswer(command: "DESCRIBE", attempts: attempts, damaged: damaged)))
        default:
            return .ended(.failure(.rejected(command: "DESCRIBE", code: .unknownMessage, value: 0)))
        }
        guard description.channels.count < count else {
            describing = nil
            return .ended(.success(description))
        }
        describing = (description, count)
        return .send(.send(.describe(channel: UInt8(description.channels.count)), .standard(engine.timing)))
    }
}
