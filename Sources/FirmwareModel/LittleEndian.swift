/// Little-endian fields of protocol payloads (firmware-protocol/PROTOCOL.md 2.2), read and written
/// by the 2.0 and 3.0 device models.
extension Array where Element == UInt8 {
    /// The u16 at byte `i`.
    func u16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }

    /// The u32 at byte `i`.
    func u32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}

/// The little-endian bytes of an integer.
func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
