import HapticProtocol

/// Whole-program validation (firmware-protocol/PROTOCOL.md 1.6): every rule in the order the
/// firmware checks them, so the first error found, and its code, are the firmware's. O(B) time
/// for a body of B bytes (a CRC pass and one decoding pass), O(1) state.
///
/// `format` is the program format the device takes: 2 (protocol 2.0, the default) or 3
/// (firmware-protocol/PROTOCOL-3.md 3.1: the version byte 3, and rule (f) closed loops, error 31,
/// after rules 1-30), as the firmware's hb_program_validate_format. `closedLoops` false leaves rule
/// (f) out of format 3: a device without SEEK (PROTOCOL-3.md 3.13, capability bit 9), as the
/// firmware's hb_program_validate_seek with `seek` 0.
public struct Validator: Sendable {
    public var configuration: DeviceConfiguration
    public var format: UInt8
    public var closedLoops: Bool

    public init(
        configuration: DeviceConfiguration = .default, format: UInt8 = ProgramHeader.formatVersion, closedLoops: Bool = true
    ) {
        self.configuration = configuration
        self.format = format
        self.closedLoops = closedLoops
    }

    /// Header rules 1-5: what a streamed program is checked with at load (1.14).
    public func checkHeader(_ bytes: some Collection<UInt8>) throws(ProgramError) -> ProgramHeader {
        let header = try ProgramHeader(parsing: bytes, format: format)  // rules 1-4
        guard header.rate == configuration.rate else { throw .badRate }  // rule 5
        return header
    }

    /// Validates a whole program (header included) and returns its header.
    @discardableResult
    public func validate(_ program: [UInt8]) throws(ProgramError) -> ProgramHeader {
        try inspect(program).header
    }

    /// Validates an encoded `Program`.
    @discardableResult
    public func validate(_ program: Program) throws(ProgramError) -> ProgramHeader {
        try validate(program.bytes)
    }

    /// Validates a whole program and returns its header, peak and seek bound (PROTOCOL-3.md 3.1,
    /// 3.5; computed for either format).
    public func inspect(_ program: [UInt8]) throws(ProgramError) -> ProgramFacts {
        let header = try checkHeader(program)
        guard header.bodyLength <= configuration.maxBody else { throw .tooLarge }  // 6
        guard UInt64(program.count) == 16 + UInt64(header.bodyLength) else { throw .lengthMismatch }  // 7
        guard CRC16.checksum(program[ProgramHeader.size...]) == header.crc else { throw .badCRC }  // 8

        // The body, one pass: decode (a), then the rules (b)-(d) and END's, and what rule (f), the
        // peak and X need.
        let body = ByteSource.flat(bytes: program, bodyStart: ProgramHeader.size)
        var checker = InstructionChecker(header: header, streamed: false)
        var shape = ProgramShape()
        var offset: UInt32 = 0
        while true {
            // Decoding at the body's end is error 30: the body ended without END.
            let instruction = try Instruction.decode(from: body, bodyLength: header.bodyLength, offset: &offset)
            let before = checker.time
            try checker.check(instruction, endOffset: offset)
            shape.note(instruction, checker: checker, before: before)
            if instruction.opcode == .end { break }
        }
        if format == ProgramHeader.formatVersion3 && closedLoops && !shape.isClosed { throw .loopNotClosed }
        return ProgramFacts(header: header, peak: shape.peak, seekBound: shape.seekBound)
    }

    /// `inspect` for an encoded `Program`.
    public func inspect(_ program: Program) throws(ProgramError) -> ProgramFacts {
        try inspect(program.bytes)
    }
}

/// What validation returns about a valid program: its header, its peak (PROTOCOL-3.md 3.1: the
/// most instructions one program tick executes, a looped play's restart included; at most 9) and
/// its seek bound X (3.5: the most instructions a seek executes, saturated at 2^32 - 1).
public struct ProgramFacts: Hashable, Sendable {
    public var header: ProgramHeader
    public var peak: Int
    public var seekBound: UInt32
}
