/// Random access to a program body whose bytes may not all be there yet: a flat buffer holds
/// them all, a ring fed while the program plays holds only those written so far
/// (firmware-protocol/PROTOCOL.md 1.14). Offsets are body offsets: 0 is the first byte after the
/// 16-byte header.
public protocol BodyBytes {
    /// The byte at body offset `offset`, or nil if it has not been written (yet).
    func byte(at offset: UInt32) -> UInt8?
}

extension BodyBytes {
    /// A byte an instruction needs: past the body's end is error 16 (truncated), not written yet
    /// is error 48 (underrun). The body's end is checked first (1.14).
    @inlinable
    public func bodyByte(at offset: UInt32, bodyLength: UInt32) throws(ProgramError) -> UInt8 {
        guard offset < bodyLength else { throw .truncated }
        guard let byte = byte(at: offset) else { throw .underrun }
        return byte
    }
}

/// A whole body in memory: every byte below `count` is there.
extension Array: BodyBytes where Element == UInt8 {
    @inlinable
    public func byte(at offset: UInt32) -> UInt8? {
        Int(offset) < count ? self[Int(offset)] : nil
    }
}
