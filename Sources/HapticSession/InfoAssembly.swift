import HapticProtocol

/// HELLO until INFO, in pieces (PROTOCOL.md 2.19): HELLO with part 0, then one HELLO per missing
/// part, each retransmitted on the adaptive time-out, all within the handshake's time. A device
/// without INFO_PART answers the first HELLO with the whole INFO, which ends the exchange too.
///
/// Why in pieces: INFO is up to 66 bytes on the wire, a piece 18; at 2 % damaged bytes a whole INFO
/// arrives intact one time in four, a piece seven times in ten.
package struct InfoAssembly {
    package enum Next {
        /// The exchange is over: INFO, or why not (`HandshakeOperation.outcome(of:)`).
        case ended(Result<Message.Info, SessionError>)
        case send(OperationStep)
    }

    private var assembly = Message.InfoPart.Assembly()
    private var started = 0.0

    package init() {}

    package mutating func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        assembly = Message.InfoPart.Assembly()
        started = now
        engine.infoPieces = [:]
        return .send(.hello(Message.Hello(part: 0)), engine.handshakePolicy)
    }

    /// INFO once every piece is in, the reply that came instead of a piece, or the next HELLO.
    package mutating func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> Next {
        guard case .infoPart(let piece) = reply else { return Self.ended(reply) }
        guard piece.parts != 0, piece.part < piece.parts, assembly.parts == 0 || assembly.parts == piece.parts else {
            return Self.ended(.nack(.badLength, UInt32(piece.parts)))
        }
        // This piece, and those that answered the extra HELLOs (same INFO: same count of parts).
        var info = assembly.add(piece)
        for other in engine.infoPieces.values where info == nil && other.parts == piece.parts {
            info = assembly.add(other)
        }
        if let info { return Self.ended(.info(info)) }
        let missingParts = assembly.missingParts
        guard let missing = missingParts.first else {
            return Self.ended(.nack(.badLength, UInt32(assembly.bytes.count)))  // all in, yet no INFO
        }
        // Ask for the others at once too: each answer that arrives intact is one less round trip.
        engine.requestInfoPieces(Array(missingParts.dropFirst()), now: now)
        let timing = engine.timing
        let left = max(timing.commandTimeout, started + timing.handshakeTimeout - now)
        let policy = CommandPolicy(
            timeout: timing.commandTimeout, attempts: max(1, Int((left / timing.commandTimeout).rounded(.down))), adaptive: true)
        return .send(.send(.hello(Message.Hello(part: UInt8(missing))), policy))
    }

    private static func ended(_ reply: CommandReply) -> Next { .ended(HandshakeOperation.outcome(of: reply)) }
}
