/// Streaming (PROTOCOL.md 2.10): a program larger than a slot, fed into the device's ring ahead of
/// the play head under byte credits.
extension Message {
    /// STREAM_OPEN (command 0x09): the program's 16-byte header. ACK value: the ring capacity; a
    /// CREDIT follows.
    public struct StreamOpen: Hashable, Sendable, MessagePayload {
        /// A program header's size (1.3).
        public static let headerCount = 16

        public var header: [UInt8]

        public init(header: [UInt8]) { self.header = header }

        static let zero = Self(header: [])

        mutating func fields(_ f: inout PayloadFields) { f.bytes(&header, count: Self.headerCount) }
    }

    /// STREAM_DATA (unacknowledged 0x0A): body bytes at body `offset`. Accepted only at the
    /// device's `next` and below its `limit`; anything else, and an empty one (a credit query),
    /// is answered by a CREDIT.
    public struct StreamData: Hashable, Sendable, MessagePayload {
        /// Most body bytes in one frame (128 - 4).
        public static let maxDataCount = Frame.maxPayloadCount - 4

        public var offset: UInt32
        public var data: [UInt8]

        public init(offset: UInt32, data: [UInt8]) {
            self.offset = offset
            self.data = data
        }

        static let zero = Self(offset: 0, data: [])

        mutating func fields(_ f: inout PayloadFields) {
            f.u32(&offset)
            f.rest(&data)
        }
    }

    /// CREDIT (notice 0x85): body bytes received in order (`next`) and the offset the host may
    /// send up to, exclusive (`limit`). Absolute, so a lost CREDIT is repaired by the next one.
    public struct Credit: Hashable, Sendable, MessagePayload {
        public var next: UInt32
        public var limit: UInt32

        public init(next: UInt32, limit: UInt32) {
            self.next = next
            self.limit = limit
        }

        /// Bytes the host may send now.
        public var available: UInt32 { limit &- next }

        static let zero = Self(next: 0, limit: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u32(&next)
            f.u32(&limit)
        }
    }
}
