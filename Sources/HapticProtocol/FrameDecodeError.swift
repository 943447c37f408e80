/// Why a delimited chunk of received bytes was not a frame. The decoder drops the chunk,
/// counts the error and continues with the next byte: a corrupted frame costs only itself.
public enum FrameDecodeError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// More than `Frame.maxRawCount` bytes before the delimiter (also: garbage with no 0x00 for a long time).
    case tooLong
    /// The delimiter arrived inside a COBS block: bytes were lost or the chunk is garbage.
    case cobs
    /// Fewer than `Frame.minRawCount` bytes after unstuffing (`count` of them).
    case short(count: Int)
    /// CRC-16 over header and payload does not match the received checksum.
    case checksum(computed: UInt16, received: UInt16)
    /// The checksum is good but the frame declares a layout version this codec does not speak.
    case unsupportedVersion(UInt8)

    public var description: String {
        switch self {
        case .tooLong: "frame longer than \(Frame.maxRawCount) bytes"
        case .cobs: "COBS block cut short by a delimiter"
        case .short(let count): "frame of \(count) bytes, shorter than \(Frame.minRawCount)"
        case .checksum(let computed, let received):
            "checksum mismatch: computed 0x\(String(computed, radix: 16)), received 0x\(String(received, radix: 16))"
        case .unsupportedVersion(let version): "unsupported frame version \(version)"
        }
    }
}
