/// The varint of the program format (firmware-protocol/PROTOCOL.md 1.4): unsigned LEB128 of at
/// most 4 bytes, 7 value bits per byte, least significant group first, bit 7 = "more follows".
/// Canonical only: a multi-byte varint never ends in 0x00, so every value has one encoding.
public enum Varint {
    public static let maxByteCount = 4
    /// 2^28 - 1: the largest value 4 bytes of 7 bits carry.
    public static let maxValue: UInt32 = (1 << 28) - 1

    /// Bytes `append` writes for `value` (1...4).
    @inlinable
    public static func encodedCount(_ value: UInt32) -> Int {
        precondition(value <= maxValue, "varint value \(value) exceeds 2^28 - 1")
        return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : 4
    }

    /// Appends the canonical encoding of `value` (at most `maxValue`).
    @inlinable
    public static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        precondition(value <= maxValue, "varint value \(value) exceeds 2^28 - 1")
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads a varint at body offset `offset`, advancing it past the varint. Errors in the order
    /// a reader meets them byte by byte (1.4): 16 when the body ends first, 48 when a byte below
    /// the body's end is not there yet (streams), 17 when a 4th byte still has bit 7 set, 18 for a
    /// multi-byte varint ending in 0x00. On error `offset` is unchanged.
    @inlinable
    public static func decode<Bytes: BodyBytes>(
        from bytes: Bytes, bodyLength: UInt32, offset: inout UInt32
    ) throws(ProgramError) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<UInt32(maxByteCount) {
            let byte = try bytes.bodyByte(at: offset + index, bodyLength: bodyLength)
            value |= UInt32(byte & 0x7F) << (7 * index)
            if byte & 0x80 == 0 {
                if index > 0 && byte == 0 { throw .varintNoncanonical }
                offset += index + 1
                return value
            }
        }
        throw .varintTooLong
    }
}
