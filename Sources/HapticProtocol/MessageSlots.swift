/// Program slots (PROTOCOL.md 2.7): sequential UPLOAD chunks, then COMMIT with the whole
/// program's CRC; the device validates (1.6) and a slot never holds a program that failed.
extension Message {
    /// UPLOAD (command 0x03): `data` goes to `slot` at `offset`, which must be 0 (start over) or
    /// the slot's fill (append). ACK value: the new fill.
    public struct Upload: Hashable, Sendable, MessagePayload {
        /// Most data bytes in one frame (128 - 5); a device with `rx_buffer` under 136 takes
        /// `rx_buffer - 13` (2.5).
        public static let maxDataCount = Frame.maxPayloadCount - 5

        public var slot: UInt8
        public var offset: UInt32
        public var data: [UInt8]

        public init(slot: UInt8, offset: UInt32, data: [UInt8]) {
            self.slot = slot
            self.offset = offset
            self.data = data
        }

        static let zero = Self(slot: 0, offset: 0, data: [])

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&slot)
            f.u32(&offset)
            f.rest(&data)
        }
    }

    /// COMMIT (command 0x04): `crc` is CRC-16/CCITT-FALSE of the whole program, header included.
    /// ACK value: the program's total ticks; NACK: COMMIT_LENGTH, CHECKSUM_MISMATCH or the
    /// validation error (1...30).
    public struct Commit: Hashable, Sendable, MessagePayload {
        public var slot: UInt8
        public var length: UInt32
        public var crc: UInt16

        public init(slot: UInt8, length: UInt32, crc: UInt16) {
            self.slot = slot
            self.length = length
            self.crc = crc
        }

        /// The COMMIT for a whole program's bytes.
        public init(slot: UInt8, program: [UInt8]) {
            self.init(slot: slot, length: UInt32(program.count), crc: CRC16.checksum(program))
        }

        static let zero = Self(slot: 0, length: 0, crc: 0)

        mutating func fields(_ f: inout PayloadFields) {
            f.u8(&slot)
            f.u32(&length)
            f.u16(&crc)
        }
    }
}
