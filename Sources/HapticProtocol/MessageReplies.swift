/// Responses to commands (PROTOCOL.md 2.4): exactly one per command, with the command's sequence
/// number; a retransmitted command gets the same bytes again.
extension Message {
    /// ACK (0x80): `value` is per command (UPLOAD: fill; COMMIT: total ticks; PLAY: start tick;
    /// STOP: effective tick; PREPARE: warm tick; STREAM_OPEN: ring capacity; SET_CONFIG: value).
    public struct Ack: Hashable, Sendable, MessagePayload {
        /// Raw type of the command answered.
        public var type: UInt8
        public var value: UInt32

        public init(type: MessageType, value: UInt32 = 0) { self.init(rawType: type.rawValue, value: value) }

        public init(rawType: UInt8, value: UInt32) {
            self.type = rawType
            self.value = value
        }

        static let zero = Self(rawType: 0, value: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&type)
            f.u32(&value)
        }
    }

    /// NACK (0x81): why the command was refused, with a detail value (2.15).
    public struct Nack: Hashable, Sendable, MessagePayload {
        /// Raw type of the command answered.
        public var type: UInt8
        public var code: MessageErrorCode
        public var value: UInt32

        public init(type: MessageType, code: MessageErrorCode, value: UInt32 = 0) {
            self.init(rawType: type.rawValue, code: code, value: value)
        }

        public init(rawType: UInt8, code: MessageErrorCode, value: UInt32) {
            self.type = rawType
            self.code = code
            self.value = value
        }

        static let zero = Self(rawType: 0, code: MessageErrorCode(0), value: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&type)
            f.u8(&code.rawValue)
            f.u32(&value)
        }
    }
}

extension Message {
    /// A response to a command (2.4): ACK, NACK, or INFO (HELLO's answer).
    public var isResponse: Bool {
        switch self {
        case .ack, .nack, .info: true
        default: false
        }
    }

    /// ACK's value; nil for any other message.
    public var ackValue: UInt32? { if case .ack(let ack) = self { ack.value } else { nil } }
}
