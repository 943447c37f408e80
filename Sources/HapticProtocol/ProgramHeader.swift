/// The 16-byte program header (firmware-protocol/PROTOCOL.md 1.3), little-endian:
///
///     0  u8[2] magic "HP"    2  u8 version 2 (3)    3  u8 flags (bit 0 SHARP)
///     4  u16 rate            6  u32 body_length 10 u32 total_ticks   14 u16 CRC of the body
public struct ProgramHeader: Hashable, Sendable {
    public static let size = 16
    public static let magic: [UInt8] = [0x48, 0x50]
    /// 2: the rules of protocol 2.0 (PROTOCOL.md, "Versions"); the encoding is version 1's.
    public static let formatVersion: UInt8 = 2
    /// 3: protocol 3's programs (firmware-protocol/PROTOCOL-3.md 3.1): format 2's encoding and
    /// rules, and rule (f) closed loops.
    public static let formatVersion3: UInt8 = 3
    /// Flag bit 0: the sharpness channel is present.
    public static let sharpnessFlag: UInt8 = 0x01
    /// The contract's tick rate, Hz.
    public static let defaultRate: UInt16 = 1000

    /// The format byte: `formatVersion` (2) or `formatVersion3` (3).
    public var version: UInt8
    /// SHARP: the program has a sharpness channel. When clear, SET_S/RAMP_S are invalid and every
    /// output sample has sharpness 0.
    public var hasSharpness: Bool
    /// Tick rate in Hz; a device rejects rates it does not run.
    public var rate: UInt16
    public var bodyLength: UInt32
    /// T: the time of the END instruction with loops expanded (1.5).
    public var totalTicks: UInt32
    /// CRC-16/CCITT-FALSE of the body.
    public var crc: UInt16

    public init(
        hasSharpness: Bool, rate: UInt16 = ProgramHeader.defaultRate, bodyLength: UInt32, totalTicks: UInt32, crc: UInt16,
        version: UInt8 = ProgramHeader.formatVersion
    ) {
        self.version = version
        self.hasSharpness = hasSharpness
        self.rate = rate
        self.bodyLength = bodyLength
        self.totalTicks = totalTicks
        self.crc = crc
    }

    /// Parses the first 16 bytes with the device-independent header rules of 1.6, in order:
    /// fewer than 16 bytes (1), magic (2), version (3), reserved flag bits (4). The rate (5),
    /// size, length and CRC rules need the device or the whole program: see `Program(bytes:)`
    /// and FirmwareModel's `Validator`. `format` is the version a device takes (rule 3: any other
    /// is error 3).
    public init(parsing bytes: some Collection<UInt8>, format: UInt8 = ProgramHeader.formatVersion) throws(ProgramError) {
        let b = Array(bytes.prefix(Self.size))
        guard b.count == Self.size else { throw .headerTruncated }
        guard b[0] == Self.magic[0] && b[1] == Self.magic[1] else { throw .badMagic }
        guard b[2] == format else { throw .badVersion }
        guard b[3] & ~Self.sharpnessFlag == 0 else { throw .badFlags }
        func le(_ range: Range<Int>) -> UInt32 {
            range.reversed().reduce(0) { $0 << 8 | UInt32(b[$1]) }
        }
        self.init(
            hasSharpness: b[3] & Self.sharpnessFlag != 0, rate: UInt16(le(4..<6)),
            bodyLength: le(6..<10), totalTicks: le(10..<14), crc: UInt16(le(14..<16)), version: format)
    }

    /// Flags byte: SHARP or nothing.
    public var flags: UInt8 { hasSharpness ? Self.sharpnessFlag : 0 }

    /// The 16 header bytes.
    public var bytes: [UInt8] {
        var out = Self.magic + [version, flags]
        func le<T: FixedWidthInteger>(_ value: T) {
            for index in 0..<T.bitWidth / 8 { out.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
        le(rate)
        le(bodyLength)
        le(totalTicks)
        le(crc)
        return out
    }
}
