/// One wire frame (firmware-protocol/PROTOCOL.md 2.1): a 4-byte header and a payload.
///
/// On the wire: `COBS(version, messageType, sequence, flags, payload..., crcLow, crcHigh)`
/// followed by one 0x00. The CRC is CRC-16/CCITT-FALSE over header and payload, least
/// significant byte first. The frame layer gives no meaning to `messageType`, `sequence` or
/// `flags`: the message layer (PROTOCOL.md 2.2) does.
public struct Frame: Equatable, Hashable, Sendable {
    /// Version of the frame layout this codec speaks; other versions are rejected after the CRC check.
    public static let version: UInt8 = 1
    public static let headerCount = 4
    public static let checksumCount = 2
    /// Largest payload: keeps a frame in 134 bytes so a 2 KB-RAM AVR can hold one in each direction.
    /// Larger data (program uploads) is chunked by the message layer.
    public static let maxPayloadCount = 128
    /// Header plus checksum: the shortest valid frame before stuffing.
    public static let minRawCount = headerCount + checksumCount
    /// 134: the decoder's buffer size.
    public static let maxRawCount = headerCount + maxPayloadCount + checksumCount
    /// 136: the most bytes one frame occupies on the wire, delimiter included.
    public static let maxWireCount = COBS.maxEncodedCount(maxRawCount) + 1

    public var version: UInt8
    public var messageType: UInt8
    public var sequence: UInt8
    public var flags: UInt8
    public var payload: [UInt8]

    public init(messageType: UInt8, sequence: UInt8, flags: UInt8 = 0, payload: [UInt8] = [], version: UInt8 = Frame.version) {
        self.version = version
        self.messageType = messageType
        self.sequence = sequence
        self.flags = flags
        self.payload = payload
    }

    public struct PayloadTooLong: Error, Equatable, Sendable {
        public var count: Int
    }

    /// Header, payload and checksum before stuffing.
    public func rawBytes() throws(PayloadTooLong) -> [UInt8] {
        guard payload.count <= Frame.maxPayloadCount else { throw PayloadTooLong(count: payload.count) }
        var raw = [version, messageType, sequence, flags] + payload
        let crc = CRC16.checksum(raw)
        raw.append(UInt8(truncatingIfNeeded: crc))
        raw.append(UInt8(truncatingIfNeeded: crc >> 8))
        return raw
    }

    /// The bytes to send: stuffed frame and the 0x00 delimiter. Byte-identical to `hb_frame_encode`.
    public func encoded() throws(PayloadTooLong) -> [UInt8] {
        COBS.encode(try rawBytes()) + [0]
    }
}
