import TestSupport
import Testing

@testable import HapticProtocol

/// The instruction encoding of PROTOCOL.md 1.4, byte by byte.
struct ProgramEncodingTests {
    @Test func protocolExamples() throws {
        #expect(Instruction.setA(200, delay: 1).encoded == [0x01, 0xC8])
        #expect(Instruction.rampA(to: 128, duration: 2, delay: 32).encoded == [0x3F, 0x01, 0x80, 0x02])
        #expect(Instruction.pulse(amplitude: 255, sharpness: 0, delay: 1032).encoded == [0x9F, 0xE9, 0x07, 0xFF, 0x00])
        let body: [UInt8] = [0x01, 0xC8, 0x3F, 0x01, 0x80, 0x02, 0x9F, 0xE9, 0x07, 0xFF, 0x00]
        #expect(
            try Program.decode(body: body) == [
                DecodedInstruction(offset: 0, byteCount: 2, instruction: .setA(200, delay: 1)),
                DecodedInstruction(offset: 2, byteCount: 4, instruction: .rampA(to: 128, duration: 2, delay: 32)),
                DecodedInstruction(offset: 6, byteCount: 5, instruction: .pulse(amplitude: 255, sharpness: 0, delay: 1032)),
            ])
    }

    @Test func everyOpcodeAndLength() {
        let cases: [(Instruction, [UInt8])] = [
            (.setA(7), [0x00, 0x07]),
            (.rampA(to: 9, duration: 300, delay: 3), [0x23, 0x09, 0xAC, 0x02]),
            (.setS(255, delay: 30), [0x5E, 0xFF]),
            (.rampS(to: 0, duration: 0), [0x60, 0x00, 0x00]),
            (.pulse(amplitude: 1, sharpness: 2, delay: 4), [0x84, 0x01, 0x02]),
            (.loop(count: 255), [0xA0, 0xFF]),
            (.endLoop(delay: 31), [0xDF, 0x00]),
            (.end(delay: 158), [0xFF, 0x7F]),
            (.end(delay: 159), [0xFF, 0x80, 0x01]),
        ]
        for (instruction, bytes) in cases {
            #expect(instruction.encoded == bytes, "\(instruction)")
            #expect(instruction.encodedCount == bytes.count, "\(instruction)")
        }
        #expect(Instruction.Opcode.allCases.map(\.rawValue) == Array(0...7))
    }

    @Test func delayAndVarintBoundaries() throws {
        // Delay field inline below 31; 31 + varint (1...4 bytes) from there on.
        let expectedCounts: [(UInt32, Int)] = [
            (0, 1), (30, 1), (31, 2), (31 + 127, 2), (31 + 128, 3), (31 + 16_383, 3), (31 + 16_384, 4),
            (31 + 2_097_151, 4), (31 + 2_097_152, 5), (Instruction.maxDelay, 5),
        ]
        for (delay, count) in expectedCounts {
            let instruction = Instruction.endLoop(delay: delay)
            #expect(instruction.encodedCount == count, "delay \(delay)")
            let bytes = instruction.encoded
            var offset: UInt32 = 0
            #expect(try Instruction.decode(from: bytes, bodyLength: UInt32(bytes.count), offset: &offset) == instruction)
            #expect(offset == UInt32(count))
        }
        #expect(Instruction.maxDelay == 268_435_486)
        #expect(Instruction.rampA(to: 0, duration: Varint.maxValue).encoded == [0x20, 0x00, 0xFF, 0xFF, 0xFF, 0x7F])
    }

    @Test func decodingErrorsCarryCodesAndOffsets() {
        let cases: [([UInt8], ProgramError, Int)] = [
            ([0x00], .truncated, 0),  // SET_A without its value
            ([0x01, 0xC8, 0x1F], .truncated, 2),  // delay varint missing
            ([0x1F, 0x80], .truncated, 0),  // delay varint cut
            ([0x20, 0x05], .truncated, 0),  // RAMP_A without duration
            ([0x80, 0x05], .truncated, 0),  // PULSE without sharpness
            ([0x1F, 0x80, 0x80, 0x80, 0x80, 0x00], .varintTooLong, 0),
            ([0x20, 0x05, 0x81, 0x81, 0x81, 0x81], .varintTooLong, 0),
            ([0x1F, 0x80, 0x00, 0x00], .varintNoncanonical, 0),
            ([0xE0, 0x20, 0x05, 0x85, 0x00], .varintNoncanonical, 1),
        ]
        for (body, error, offset) in cases {
            #expect(throws: ProgramDecodingError(error: error, offset: offset), "\(body)") { try Program.decode(body: body) }
        }
        var offset: UInt32 = 1
        #expect(throws: ProgramError.endMissing) { try Instruction.decode(from: [0xE0], bodyLength: 1, offset: &offset) }
        #expect(offset == 1)
    }

    /// Every value has one encoding (1.4): whatever decodes re-encodes to the same bytes.
    @Test func decodingThenEncodingIsIdentityOnRandomBytes() {
        var rng = SeededGenerator(seed: 0x5EED_0001)
        var decodedCount = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...12, using: &rng)
            let body = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            guard let decoded = try? Program.decode(body: body) else { continue }
            decodedCount += 1
            var reencoded: [UInt8] = []
            for item in decoded { item.instruction.encode(into: &reencoded) }
            #expect(reencoded == body)
        }
        #expect(decodedCount > 1000)
    }

    @Test func pulseLengthFromSharpness() {
        #expect(Instruction.pulseLength(sharpness: 0) == 20)
        #expect(Instruction.pulseLength(sharpness: 12) == 20)
        #expect(Instruction.pulseLength(sharpness: 13) == 19)
        #expect(Instruction.pulseLength(sharpness: 128) == 15)
        #expect(Instruction.pulseLength(sharpness: 243) == 11)
        #expect(Instruction.pulseLength(sharpness: 244) == 10)
        #expect(Instruction.pulseLength(sharpness: 255) == 10)
    }

    @Test func errorCodesAreTheProtocolTable() {
        // 31 is format 3's rule (f) (firmware-protocol/PROTOCOL-3.md 3.13)
        #expect(ProgramError.allCases.map(\.rawValue) == Array(1...8) + Array(16...31) + [48, 49])
        #expect(ProgramError.loopNotClosed.description == "error 31 LOOP_NOT_CLOSED")
        #expect(ProgramError.loopNotClosed.isValidationError && MessageErrorCode(31).isValidationError)
        #expect(ProgramError.badCRC.description == "error 8 BAD_CRC")
        #expect(ProgramError.endLoopWithoutLoop.name == "ENDLOOP_WITHOUT_LOOP")
        #expect(ProgramError.endMissing.isValidationError && !ProgramError.underrun.isValidationError)
    }

    @Test func descriptionMatchesTheVectorListings() {
        #expect(Instruction.rampA(to: 200, duration: 4, delay: 2).description == "RAMP_A +2 200 4")
        #expect(Instruction.end(delay: 3).description == "END +3")
    }
}
