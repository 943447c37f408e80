import HapticProtocol

/// HELLO until INFO, in pieces (PROTOCOL.md 2.19): HELLO with part 0, then one HELLO per missing
/// part, each retransmitted on the adaptive time-out, all within the handshake's time. A device
/// without INFO_PART answers the first HELLO with the whole INFO, which ends the exchange too.
///
/// Why in pieces: INFO is up to 66 bytes on the wire, a piece 18; at 2 % damaged bytes a whole INFO
/// arrives intact one time in four, a piece seven times in ten.
package struct InfoAssembly {
    package enum Next {
        /// The exchange is over: INFO, or what came instead (a NACK, a time-out).
        case reply(CommandReply)
        case send(OperationStep)
    }

    private var pieces: [[UInt8]?] = []
    private var started = 0.0

    package init() {}

    package mutating func start(_ engine: SessionEngine, now: Double) -> OperationStep {
        pieces = []
        started = now
        return .send(.hello(Message.Hello(part: 0)), engine.handshakePolicy)
    }

    package mutating func handle(_ reply: CommandReply, _ engine: SessionEngine, now: Double) -> Next {
        guard case .infoPart(let piece) = reply else { return .reply(reply) }
        if pieces.isEmpty { pieces = Array(repeating: nil, count: Int(piece.parts)) }
        guard piece.parts != 0, Int(piece.parts) == pieces.count, Int(piece.part) < pieces.count else {
            return .reply(.nack(.badLength, UInt32(piece.parts)))
        }
        pieces[Int(piece.part)] = piece.data
        guard let missing = pieces.firstIndex(where: { $0 == nil }) else {
            let bytes = pieces.flatMap { $0 ?? [] }
            guard case .info(let info)? = try? Message(type: MessageType.info.rawValue, payload: bytes) else {
                return .reply(.nack(.badLength, UInt32(bytes.count)))
            }
            return .reply(.info(info))
        }
        let timing = engine.timing
        let left = max(timing.commandTimeout, started + timing.handshakeTimeout - now)
        let policy = CommandPolicy(
            timeout: timing.commandTimeout, attempts: max(1, Int((left / timing.commandTimeout).rounded(.down))), adaptive: true)
        return .send(.send(.hello(Message.Hello(part: UInt8(missing))), policy))
    }
}
