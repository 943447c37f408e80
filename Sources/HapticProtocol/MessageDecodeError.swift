/// Why a valid frame is not a message this side understands (PROTOCOL.md 2.2.1).
public enum MessageDecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No message of this type in the protocol version that read it.
    case unknownType(UInt8)
    /// The payload is shorter than the type's fixed part (`fixedCount` bytes in the protocol
    /// version that read it: 2.0 and 3.0 differ for the same type).
    case tooShort(MessageType, count: Int, fixedCount: Int)
    /// A field holds a value this version does not define (e.g. an unknown telemetry event).
    case invalidField(MessageType, field: String, value: UInt32)

    public var description: String {
        switch self {
        case .unknownType(let type): "unknown message type \(MessageType.name(of: type))"
        case .tooShort(let type, let count, let fixedCount):
            "\(type) payload of \(count) bytes, shorter than its \(fixedCount)-byte fixed part"
        case .invalidField(let type, let field, let value): "\(type) field \(field) has undefined value \(value)"
        }
    }
}
