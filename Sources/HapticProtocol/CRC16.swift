/// CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, not reflected, no final XOR.
/// Check value: CRC of the ASCII bytes "123456789" is 0x29B1 (firmware-protocol/PROTOCOL.md).
///
/// Used for both the program body checksum and the wire frames. Bitwise here, as the definition
/// reads. The firmware (hardware/firmware/core/src/hb_crc16.c) computes the same CRC a byte at a
/// time without a table: the eight shift-and-xor steps folded into three shifts of one 8-bit
/// value (hand-written assembly on AVR), since a 512-byte table costs more flash than the cycles
/// it saves on a 32 KB part. crc16MatchesFirmware (FirmwareModelTests) holds the two equal.
public enum CRC16 {
    public static let initial: UInt16 = 0xFFFF

    @inlinable
    public static func update(_ crc: UInt16, byte: UInt8) -> UInt16 {
        var crc = crc ^ (UInt16(byte) << 8)
        for _ in 0..<8 {
            crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    @inlinable
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes, initial: UInt16 = CRC16.initial) -> UInt16 where Bytes.Element == UInt8 {
        var crc = initial
        for byte in bytes { crc = update(crc, byte: byte) }
        return crc
    }
}
