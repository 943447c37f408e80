/// A whole program (firmware-protocol/PROTOCOL.md part 1): header and body bytes.
///
/// `Program` is the byte format only. Whether a device accepts it (rate, body size, loop
/// depth, instruction runs, times) is the validator's verdict: FirmwareModel's `Validator`, the
/// same verdict the firmware reaches.
public struct Program: Hashable, Sendable {
    public var header: ProgramHeader
    public var body: [UInt8]

    /// A program from its parts, unchecked.
    public init(header: ProgramHeader, body: [UInt8]) {
        self.header = header
        self.body = body
    }

    /// Encodes `instructions` (shortest forms) and fills in the header: body length, CRC and
    /// total ticks (`totalTicks(of:)`). `sharpness` sets the SHARP flag, `version` the format
    /// byte (2, or 3 for a protocol 3 device). Does not validate.
    public init(
        instructions: [Instruction], sharpness: Bool = true, rate: UInt16 = ProgramHeader.defaultRate,
        version: UInt8 = ProgramHeader.formatVersion
    ) {
        var body: [UInt8] = []
        body.reserveCapacity(instructions.count * 3)
        for instruction in instructions { instruction.encode(into: &body) }
        self.init(
            header: ProgramHeader(
                hasSharpness: sharpness, rate: rate, bodyLength: UInt32(body.count),
                totalTicks: Self.totalTicks(of: instructions), crc: CRC16.checksum(body), version: version),
            body: body)
    }

    /// Parses a program file: header rules 1-4 (`ProgramHeader(parsing:)`), then the byte count
    /// (7, LENGTH_MISMATCH) and the body CRC (8, BAD_CRC), for programs of `format`. The
    /// instructions are not examined.
    public init(bytes: [UInt8], format: UInt8 = ProgramHeader.formatVersion) throws(ProgramError) {
        let header = try ProgramHeader(parsing: bytes, format: format)
        guard UInt64(bytes.count) == UInt64(ProgramHeader.size) + UInt64(header.bodyLength) else { throw .lengthMismatch }
        let body = Array(bytes[ProgramHeader.size...])
        guard CRC16.checksum(body) == header.crc else { throw .badCRC }
        self.init(header: header, body: body)
    }

    /// Header and body, ready to send or store.
    public var bytes: [UInt8] { header.bytes + body }

    /// The body decoded instruction by instruction, with offsets, up to the body's end (bytes
    /// after an END are decoded too: rejecting them is the validator's job).
    public func decodedInstructions() throws(ProgramDecodingError) -> [DecodedInstruction] {
        try Self.decode(body: body)
    }

    /// Decodes every instruction of `body`. Errors carry the offset of the instruction that
    /// failed: 16 (truncated), 17 and 18 (varints).
    public static func decode(body: [UInt8]) throws(ProgramDecodingError) -> [DecodedInstruction] {
        var decoded: [DecodedInstruction] = []
        var offset: UInt32 = 0
        while Int(offset) < body.count {
            let start = offset
            do {
                let instruction = try Instruction.decode(from: body, bodyLength: UInt32(body.count), offset: &offset)
                decoded.append(DecodedInstruction(offset: Int(start), byteCount: Int(offset - start), instruction: instruction))
            } catch {
                throw ProgramDecodingError(error: error, offset: Int(start))
            }
        }
        return decoded
    }

    /// The time of the first END with loops expanded (1.5), or, without END, the time after the
    /// last instruction. A time past 2^32 - 1 gives `UInt32.max`. Matching is lenient (an
    /// ENDLOOP without LOOP only adds its delay; loops left open count once) so this never fails:
    /// a program that needs those rules is invalid anyway, and the validator says why.
    public static func totalTicks(of instructions: [Instruction]) -> UInt32 {
        // Times are clamped just past UInt32.max so nested products stay far from 64-bit overflow.
        let overflow = UInt64(UInt32.max) + 1
        var time: UInt64 = 0
        var loops: [(start: UInt64, count: UInt64)] = []
        for instruction in instructions {
            time = min(time + UInt64(instruction.delay), overflow)
            switch instruction {
            case .loop(let count, _):
                loops.append((time, UInt64(count)))
            case .endLoop:
                if let loop = loops.popLast() { time = min(loop.start + (time - loop.start) * loop.count, overflow) }
            case .end:
                return UInt32(min(time, UInt64(UInt32.max)))
            default:
                break
            }
        }
        return UInt32(min(time, UInt64(UInt32.max)))
    }
}

/// One instruction found in a body, at byte `offset`, `byteCount` bytes long.
public struct DecodedInstruction: Hashable, Sendable {
    public var offset: Int
    public var byteCount: Int
    public var instruction: Instruction
}

/// A body that does not decode: the PROTOCOL.md code and the offset of the instruction.
public struct ProgramDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var error: ProgramError
    public var offset: Int

    public init(error: ProgramError, offset: Int) {
        self.error = error
        self.offset = offset
    }

    public var description: String { "\(error) at body offset \(offset)" }
}
