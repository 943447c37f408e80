import HapticProtocol

/// Program format 3 (firmware-protocol/PROTOCOL-3.md 3.1): format 2 with version byte 3, rule (f)
/// closed loops (error 31) after rules 1-30, and the figures a protocol 3 device keeps with a slot:
/// the peak (3.1, the work of 3.9) and the seek bound X (3.5).
public enum Format3 {
    /// The header's version byte.
    public static let version: UInt8 = 3
    /// Rule (f)'s error.
    public static let loopNotClosed: UInt8 = 31
    /// The longest pulse (sharpness 0, 1.10): after `settle(period:)` iterations every earlier
    /// pulse has ended (3.5).
    static let longestPulse = UInt32(Instruction.pulseLength(sharpness: 0))

    /// A validated format 3 program.
    public struct Checked: Sendable {
        public var header: ProgramHeader
        public var instructions: [Instruction]
        /// The same bytes with format 2's version byte: what the part 1 interpreter loads.
        public var format2: [UInt8]
    }

    /// 3.1: header rules 1-5 with version 3 (a format 2 header is error 3).
    public static func checkHeader(_ bytes: [UInt8], configuration: DeviceConfiguration) throws(CodedError) -> ProgramHeader {
        let format2 = try asFormat2(bytes)
        do {
            return try Validator(configuration: configuration).checkHeader(format2)
        } catch {
            throw CodedError(code: error.rawValue)
        }
    }

    /// 3.1: rules 1-30 with version 3, then rule (f).
    public static func validate(_ program: [UInt8], configuration: DeviceConfiguration) throws(CodedError) -> Checked {
        let format2 = try asFormat2(program)
        let header: ProgramHeader
        let instructions: [Instruction]
        do {
            header = try Validator(configuration: configuration).validate(format2)
            instructions = try Program.decode(body: Array(format2[ProgramHeader.size...])).map(\.instruction)
        } catch {
            throw CodedError(code: (error as? ProgramError)?.rawValue ?? ProgramError.truncated.rawValue)
        }
        guard ClosedLoops.areClosed(instructions) else { throw CodedError(code: loopNotClosed) }
        return Checked(header: header, instructions: instructions, format2: format2)
    }

    /// Format 3's version byte replaced by format 2's, for v2's header rules; a header with the
    /// magic and another version is error 3 (rules 1-2 stay v2's for anything shorter or else).
    static func asFormat2(_ bytes: [UInt8]) throws(CodedError) -> [UInt8] {
        guard bytes.count >= 3, bytes[0] == 0x48, bytes[1] == 0x50 else { return bytes }  // "HP"
        guard bytes[2] == version else { throw CodedError(code: ProgramError.badVersion.rawValue) }
        var copy = bytes
        copy[2] = ProgramHeader.formatVersion
        return copy
    }

    /// 3.5: `s = max(1, ceil(20 / P))`, the iterations of a loop of period P after which its
    /// whole iterations can be skipped.
    static func settle(period: UInt32) -> UInt32 {
        max(1, (longestPulse + period - 1) / period)
    }
}

/// An error code as an `Error`: a program error of any format (1-31) or a command's NACK code.
public struct CodedError: Error, Sendable, Hashable {
    public var code: UInt8

    public init(code: UInt8) { self.code = code }
}
