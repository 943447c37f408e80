import HapticProtocol

/// Program format 3 as a protocol 3 device takes it (firmware-protocol/PROTOCOL-3.md 3.1): the
/// validator's format 3 (rules 1-30 with version 3, then rule (f)), and what the device keeps
/// with a slot: the peak (3.1, the work of 3.9) and the program as the part 1 interpreter loads it.
public enum Format3 {
    /// A validated format 3 program.
    public struct Checked: Sendable {
        public var facts: ProgramFacts
        /// The same bytes with format 2's version byte: what the part 1 interpreter loads (the
        /// body and its CRC are the same).
        public var format2: [UInt8]

        public var header: ProgramHeader { facts.header }
    }

    /// Header rules 1-5 with version 3 (a stream's header, 3.12).
    public static func checkHeader(_ bytes: [UInt8], configuration: DeviceConfiguration) throws(ProgramError) -> ProgramHeader {
        try Validator(configuration: configuration, format: ProgramHeader.formatVersion3).checkHeader(bytes)
    }

    /// Rules 1-30 with version 3, then rule (f) on a device with SEEK (3.13: `seek`, capability bit 9).
    public static func validate(
        _ program: [UInt8], configuration: DeviceConfiguration, seek: Bool = true
    ) throws(ProgramError) -> Checked {
        let validator = Validator(configuration: configuration, format: ProgramHeader.formatVersion3, closedLoops: seek)
        let facts = try validator.inspect(program)
        return Checked(facts: facts, format2: asFormat2(program))
    }

    /// A format 3 program or header with format 2's version byte.
    static func asFormat2(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy[2] = ProgramHeader.formatVersion
        return copy
    }
}
