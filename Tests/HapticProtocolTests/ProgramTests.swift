import Testing

@testable import HapticProtocol

/// Header (1.3), whole programs and the builder.
struct ProgramTests {
    @Test func headerBytesAndParsing() throws {
        let header = ProgramHeader(hasSharpness: true, rate: 1000, bodyLength: 11, totalTicks: 0x0102_0304, crc: 0xABCD)
        let bytes = header.bytes
        #expect(bytes == [0x48, 0x50, 0x02, 0x01, 0xE8, 0x03, 0x0B, 0, 0, 0, 0x04, 0x03, 0x02, 0x01, 0xCD, 0xAB])
        #expect(try ProgramHeader(parsing: bytes) == header)
        #expect(try ProgramHeader(parsing: bytes + [1, 2, 3]) == header)

        #expect(throws: ProgramError.headerTruncated) { try ProgramHeader(parsing: bytes.prefix(15)) }
        var bad = bytes
        bad[1] = 0x51
        #expect(throws: ProgramError.badMagic) { try ProgramHeader(parsing: bad) }
        bad = bytes
        bad[2] = 1
        bad[3] = 0xFF
        #expect(throws: ProgramError.badVersion) { try ProgramHeader(parsing: bad) }
        bad = bytes
        bad[3] = 0x02
        #expect(throws: ProgramError.badFlags) { try ProgramHeader(parsing: bad) }
        bad = bytes
        bad[3] = 0x00
        #expect(try ProgramHeader(parsing: bad).hasSharpness == false)
    }

    /// The first program vector (op_set_a) rebuilt from instructions, byte for byte.
    @Test func programFromInstructionsMatchesVectorBytes() throws {
        let program = Program(instructions: [.setA(100, delay: 2), .setA(0, delay: 5), .end(delay: 3)])
        #expect(program.header.bodyLength == 5)
        #expect(program.header.totalTicks == 10)
        #expect(program.header.crc == CRC16.checksum(program.body))
        #expect(program.body == [0x02, 0x64, 0x05, 0x00, 0xE3])
        #expect(try Program(bytes: program.bytes) == program)

        var bytes = program.bytes
        #expect(throws: ProgramError.lengthMismatch) { try Program(bytes: bytes.dropLast() + []) }
        bytes[16] ^= 1
        #expect(throws: ProgramError.badCRC) { try Program(bytes: bytes) }
    }

    @Test func totalTicksExpandsLoops() {
        // 2 + 3 * (4 + 2 * 5 + 1) = 47, then END 3 later.
        let instructions: [Instruction] = [
            .loop(count: 3, delay: 2), .setA(1, delay: 4), .loop(count: 2), .setA(2, delay: 5), .endLoop(),
            .endLoop(delay: 1), .end(delay: 3),
        ]
        #expect(Program.totalTicks(of: instructions) == 50)
        #expect(Program.totalTicks(of: [.setA(1, delay: 7)]) == 7)
        let huge: [Instruction] = [.loop(count: 255), .loop(count: 255), .endLoop(delay: Instruction.maxDelay), .endLoop(), .end()]
        #expect(Program.totalTicks(of: huge) == UInt32.max)
    }

    @Test func builderEmitsDelaysFromAbsoluteTimes() throws {
        var builder = ProgramBuilder()
        builder.rampA(to: 255, duration: 100, at: 0)
        builder.pulse(amplitude: 255, sharpness: 200, at: 40)
        builder.loop(count: 3, at: 100)
        builder.setA(0, at: 100)
        builder.pulse(amplitude: 180, sharpness: 0, at: 110)
        builder.endLoop(at: 150)
        #expect(builder.time == 250)
        #expect(builder.loopDepth == 0)
        builder.setS(9, at: 260)
        let program = builder.program(endingAt: 300)
        #expect(
            try program.decodedInstructions().map(\.instruction) == [
                .rampA(to: 255, duration: 100), .pulse(amplitude: 255, sharpness: 200, delay: 40), .loop(count: 3, delay: 60),
                .setA(0), .pulse(amplitude: 180, sharpness: 0, delay: 10), .endLoop(delay: 40), .setS(9, delay: 10), .end(delay: 40),
            ])
        #expect(program.header.totalTicks == 300)
        #expect(program.header.bodyLength == UInt32(builder.byteCount + 2))  // END +40 takes 2 bytes
        #expect(program.header.hasSharpness)
    }

    @Test func builderUsesExtendedDelaysForLongGaps() throws {
        var builder = ProgramBuilder(sharpness: false)
        builder.setA(10, at: 1_000_000)
        let program = builder.program(endingAt: 1_000_000 + 31)
        #expect(program.body == [0x1F] + [0xA1, 0x84, 0x3D] + [0x0A] + [0xFF, 0x00])
        #expect(program.header.totalTicks == 1_000_031)
        #expect(!program.header.hasSharpness)
    }
}
