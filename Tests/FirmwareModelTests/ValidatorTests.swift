import FirmwareModel
import HapticProtocol
import Testing

/// Validation (PROTOCOL.md 1.6) on small hand-made programs: one case per rule, and the order.
struct ValidatorTests {
    /// A program from instructions with header fields overridden.
    static func bytes(
        _ instructions: [Instruction], sharpness: Bool = true, total: UInt32? = nil,
        rate: UInt16 = 1000, edit: (inout [UInt8]) -> Void = { _ in }
    ) -> [UInt8] {
        var program = Program(instructions: instructions, sharpness: sharpness, rate: rate)
        if let total { program.header.totalTicks = total }
        var bytes = program.bytes
        edit(&bytes)
        return bytes
    }

    static func verdict(_ bytes: [UInt8], _ configuration: DeviceConfiguration = .default) -> ProgramError? {
        do {
            try Validator(configuration: configuration).validate(bytes)
            return nil
        } catch { return error }
    }

    @Test func headerRulesInOrder() {
        let good = Self.bytes([.setA(1, delay: 1), .end(delay: 2)])
        #expect(Self.verdict(good) == nil)
        #expect(Self.verdict(Array(good.prefix(15))) == .headerTruncated)
        #expect(
            Self.verdict(
                Self.bytes([.end()]) {
                    $0[0] = 0x49
                    $0[2] = 9
                }) == .badMagic)
        #expect(
            Self.verdict(
                Self.bytes([.end()]) {
                    $0[2] = 2
                    $0[3] = 0x80
                }) == .badVersion)
        #expect(Self.verdict(Self.bytes([.end()], rate: 500) { $0[3] = 0x03 }) == .badFlags)
        #expect(Self.verdict(Self.bytes([.end()], rate: 500)) == .badRate)
        #expect(Self.verdict(good, DeviceConfiguration(maxBody: 2)) == .tooLarge)
        #expect(Self.verdict(good, DeviceConfiguration(maxBody: 3)) == nil)
        #expect(Self.verdict(good + [0]) == .lengthMismatch)
        #expect(Self.verdict(Self.bytes([.end()]) { $0[15] ^= 1 }) == .badCRC)
    }

    @Test func bodyRules() throws {
        let cases: [(ProgramError, [UInt8])] = [
            (
                .truncated,
                Self.bytes([.setA(1)]) {
                    $0.removeLast()
                    $0[6] = 1
                    Self.fixCRC(&$0)
                }
            ),
            (.varintTooLong, Self.bodyBytes([0xFF, 0x80, 0x80, 0x80, 0x80])),
            (.varintNoncanonical, Self.bodyBytes([0xFF, 0x81, 0x00])),
            (.noSharpChannel, Self.bytes([.setA(9), .setS(9), .end()], sharpness: false)),
            (.loopCountZero, Self.bytes([.loop(count: 0), .endLoop(delay: 1), .end()], total: 1)),
            (.loopTooDeep, Self.bytes(Array(repeating: .loop(count: 1), count: 5) + Array(repeating: .endLoop(delay: 1), count: 5) + [.end()])),
            (.endLoopWithoutLoop, Self.bytes([.endLoop(delay: 1), .end()])),
            (.ticksOverflow, Self.bytes(Array(repeating: .setA(1, delay: Instruction.maxDelay), count: 16) + [.end()])),
            (.loopEmpty, Self.bytes([.loop(count: 3, delay: 1), .setA(1), .endLoop(), .end(delay: 1)], total: 2)),
            (.runTooLong, Self.bytes(Array(repeating: .setA(1), count: 17) + [.end(delay: 1)])),
            (.loopUnterminated, Self.bytes([.loop(count: 2), .end(delay: 1)], total: 1)),
            (.endNotLast, Self.bytes([.end(), .setA(1)], total: 0)),
            (.ticksMismatch, Self.bytes([.setA(1, delay: 5), .end()], total: 4)),
            (.ticksMismatch, Self.bytes([.setA(1, delay: 5), .end()], total: 6)),
            (.ticksMismatch, Self.bytes([.loop(count: 3), .endLoop(delay: 2), .end()], total: 5)),
            (.endMissing, Self.bytes([.setA(1, delay: 2)], total: 2)),
        ]
        for (error, bytes) in cases {
            #expect(Self.verdict(bytes) == error, "\(hex(bytes))")
        }
        // The valid neighbours: 16 in a row, depth 4, a loop of exactly 2^32 - 1 ticks.
        #expect(Self.verdict(Self.bytes(Array(repeating: .setA(1), count: 16) + [.end(delay: 1)])) == nil)
        #expect(
            Self.verdict(Self.bytes(Array(repeating: .loop(count: 2), count: 4) + Array(repeating: .endLoop(delay: 1), count: 4) + [.end()])) == nil)
        let maximal = Self.bytes([
            .loop(count: 255), .loop(count: 255), .loop(count: 255), .loop(count: 255),
            .endLoop(delay: 1), .endLoop(), .endLoop(), .endLoop(), .end(delay: 66_716_670),
        ])
        #expect(Self.verdict(maximal) == nil)
        #expect(try Validator().validate(maximal).totalTicks == UInt32.max)
    }

    /// The first error in byte order wins, and header rules come before body rules.
    @Test func firstErrorWins() {
        #expect(Self.verdict(Self.bytes([.setS(1), .endLoop(delay: 1), .end()], sharpness: false)) == .noSharpChannel)
        #expect(Self.verdict(Self.bytes([.endLoop(delay: 1), .setS(1), .end()], sharpness: false)) == .endLoopWithoutLoop)
        #expect(Self.verdict(Self.bytes([.endLoop()], rate: 999) { $0[15] ^= 1 }) == .badRate)
    }

    static func fixCRC(_ bytes: inout [UInt8]) {
        let crc = CRC16.checksum(bytes[16...])
        bytes[14] = UInt8(truncatingIfNeeded: crc)
        bytes[15] = UInt8(truncatingIfNeeded: crc >> 8)
    }

    /// A header with a correct length and CRC around raw body bytes.
    static func bodyBytes(_ body: [UInt8], total: UInt32 = 0) -> [UInt8] {
        ProgramHeader(hasSharpness: true, bodyLength: UInt32(body.count), totalTicks: total, crc: CRC16.checksum(body)).bytes + body
    }
}
