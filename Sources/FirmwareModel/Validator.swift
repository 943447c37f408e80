import HapticProtocol

/// Whole-program validation (firmware-protocol/PROTOCOL.md 1.6): every rule in the order the
/// firmware checks them, so the first error found, and its code, are the firmware's. O(B) time
/// for a body of B bytes (a CRC pass and one decoding pass), O(1) state.
public struct Validator: Sendable {
    public var configuration: DeviceConfiguration

    public init(configuration: DeviceConfiguration = .default) {
        self.configuration = configuration
    }

    /// Header rules 1-5: what a streamed program is checked with at load (1.14).
    public func checkHeader(_ bytes: some Collection<UInt8>) throws(ProgramError) -> ProgramHeader {
        let header = try ProgramHeader(parsing: bytes)  // rules 1-4
        guard header.rate == configuration.rate else { throw .badRate }  // rule 5
        return header
    }

    /// Validates a whole program (header included) and returns its header.
    @discardableResult
    public func validate(_ program: [UInt8]) throws(ProgramError) -> ProgramHeader {
        let header = try checkHeader(program)
        guard header.bodyLength <= configuration.maxBody else { throw .tooLarge }  // 6
        guard UInt64(program.count) == 16 + UInt64(header.bodyLength) else { throw .lengthMismatch }  // 7
        guard CRC16.checksum(program[ProgramHeader.size...]) == header.crc else { throw .badCRC }  // 8

        // The body, one pass: decode (a), then the rules (b)-(d) and END's.
        let body = ByteSource.flat(bytes: program, bodyStart: ProgramHeader.size)
        var checker = InstructionChecker(header: header, streamed: false)
        var offset: UInt32 = 0
        while true {
            // Decoding at the body's end is error 30: the body ended without END.
            let instruction = try Instruction.decode(from: body, bodyLength: header.bodyLength, offset: &offset)
            try checker.check(instruction, endOffset: offset)
            if instruction.opcode == .end { return header }
        }
    }

    /// Validates an encoded `Program`.
    @discardableResult
    public func validate(_ program: Program) throws(ProgramError) -> ProgramHeader {
        try validate(program.bytes)
    }
}
