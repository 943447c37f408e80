import FirmwareModel
import HapticProtocol
import TestSupport
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
                    $0[2] = 1
                    $0[3] = 0x80
                }) == .badVersion)  // a 1.0 program
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
            (.runTooLong, Self.bytes(Array(repeating: .setA(1), count: 10) + [.end(delay: 1)])),
            // 1.6 (e): a restart would execute END's run and tick 0's 9.
            (.runTooLong, Self.bytes(Array(repeating: .setA(1), count: 9) + [.end(delay: 1)])),
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
        // The valid neighbours: 9 in a row (T = 0, never restarted), 8 at tick 0 and END alone,
        // depth 4, a loop of exactly 2^32 - 1 ticks.
        #expect(Self.verdict(Self.bytes(Array(repeating: .setA(1), count: 8) + [.end()], total: 0)) == nil)
        #expect(Self.verdict(Self.bytes(Array(repeating: .setA(1), count: 8) + [.end(delay: 1)])) == nil)
        #expect(
            Self.verdict(Self.bytes(Array(repeating: .loop(count: 2), count: 4) + Array(repeating: .endLoop(delay: 1), count: 4) + [.end()])) == nil)
        let maximal = Self.bytes([
            .loop(count: 255), .loop(count: 255), .loop(count: 255), .loop(count: 255),
            .endLoop(delay: 1), .endLoop(), .endLoop(), .endLoop(), .end(delay: 66_716_670),
        ])
        #expect(Self.verdict(maximal) == nil)
        #expect(try Validator().validate(maximal).totalTicks == UInt32.max)
    }

    /// 1.6 (e): at an ENDLOOP the run ending there plus the loop's head, at END (T > 0) the run
    /// ending there plus tick 0's instructions, at most 9; heads nest; an empty iteration is
    /// error 25 before the head is known.
    @Test func headsBoundAJumpsTick() {
        func loop(head: Int, tail: Int, count: UInt8 = 2, ticks: UInt32 = 3) -> [Instruction] {
            [.loop(count: count, delay: 1)] + Array(repeating: .setA(1), count: head) + [.setA(2, delay: ticks)]
                + Array(repeating: .setA(3), count: tail) + [.endLoop(), .end(delay: 2)]
        }
        #expect(Self.verdict(Self.bytes(loop(head: 4, tail: 3))) == nil)  // 5 + 4
        #expect(Self.verdict(Self.bytes(loop(head: 5, tail: 3))) == .runTooLong)  // 5 + 5
        #expect(Self.verdict(Self.bytes(loop(head: 3, tail: 4))) == nil)  // 6 + 3
        #expect(Self.verdict(Self.bytes(loop(head: 3, tail: 5))) == .runTooLong)  // 7 + 3
        #expect(Self.verdict(Self.bytes(loop(head: 5, tail: 3, count: 1))) == .runTooLong)  // whatever the count
        // The ENDLOOP's own delay closes the head: a body all at one tick has head = the body.
        #expect(
            Self.verdict(
                Self.bytes(
                    [.loop(count: 2, delay: 1)] + Array(repeating: .setA(1), count: 8)
                        + [.endLoop(delay: 2), .end(delay: 1)])) == nil)  // 1 + 8
        #expect(
            Self.verdict(
                Self.bytes(
                    [.loop(count: 2, delay: 1)] + Array(repeating: .setA(1), count: 8)
                        + [.endLoop(), .end(delay: 1)], total: 1)) == .loopEmpty)
        // Nested: the outer head counts the inner LOOP and its head.
        let nested: (Int) -> [Instruction] = { inner in
            [.loop(count: 2, delay: 1), .loop(count: 2)] + Array(repeating: .setA(1), count: inner)
                + [.setA(2, delay: 4), .endLoop(), .setA(3), .endLoop(), .end(delay: 1)]
        }
        #expect(Self.verdict(Self.bytes(nested(4))) == nil)  // outer: 4 + (1 + 4)
        #expect(Self.verdict(Self.bytes(nested(5))) == .runTooLong)  // outer: 4 + (1 + 5)
        // END: the restart of a looped play.
        let restart: (Int, Int) -> [Instruction] = { atZero, atEnd in
            Array(repeating: .setA(1), count: atZero) + [.setA(2, delay: 7)] + Array(repeating: .setA(3), count: atEnd - 1)
                + [.end()]
        }
        #expect(Self.verdict(Self.bytes(restart(6, 2))) == nil)  // 3 + 6
        #expect(Self.verdict(Self.bytes(restart(7, 2))) == .runTooLong)  // 3 + 7
        #expect(Self.verdict(Self.bytes(restart(8, 1))) == .runTooLong)  // 2 + 8
    }

    /// What (e) is for, on random looped programs: a program whose loops all jump (count >= 2) is
    /// refused with error 26 exactly when some tick, expanded, would execute more than 9
    /// instructions, a looped play's restart (END's tick, then tick 0) included.
    @Test func tickBoundMatchesTheExpansion() {
        var rng = SeededGenerator(seed: 0x9_7E55)
        var refused = 0, accepted = 0, busiest = 0
        for _ in 0..<4_000 {
            let instructions = Self.randomLoops(&rng, depth: 0) + [.end(delay: UInt32(rng.below(3)))]
            let (counts, total, empty) = Self.executionsPerTick(instructions)
            guard total <= 5_000, !empty else { continue }
            let restart = total > 0 ? counts[total, default: 0] + counts[0, default: 0] : 0
            let most = max(counts.values.max() ?? 0, restart)
            let verdict = Self.verdict(Self.bytes(instructions))
            guard verdict == nil || verdict == .runTooLong else { continue }
            #expect((verdict == .runTooLong) == (most > 9), "\(instructions) \(counts.sorted { $0.key < $1.key })")
            if verdict == .runTooLong {
                refused += 1
            } else if verdict == nil {
                accepted += 1
                busiest = max(busiest, most)
            }
        }
        #expect(refused > 300 && accepted > 300)
        #expect(busiest == 9)
    }

    /// A random body of loops (counts 2...3) around runs of SET_A with delays 0 or 1...3.
    static func randomLoops(_ rng: inout SeededGenerator, depth: Int) -> [Instruction] {
        var out: [Instruction] = []
        for _ in 0..<rng.within(1...4) {
            let delay = UInt32(rng.percent(60) ? 0 : rng.within(1...3))
            if depth < 3 && rng.percent(30) {
                out.append(.loop(count: UInt8(rng.within(2...3)), delay: delay))
                out += randomLoops(&rng, depth: depth + 1)
                out.append(.endLoop(delay: UInt32(rng.percent(50) ? 0 : rng.within(1...3))))
            } else {
                for index in 0..<rng.within(1...5) { out.append(.setA(1, delay: index == 0 ? delay : 0)) }
            }
        }
        return out
    }

    /// Executions per tick of a body, loops expanded (1.5: the LOOP once, the ENDLOOP at the end
    /// of every iteration), END's time, and whether some iteration lasts 0 ticks (error 25).
    static func executionsPerTick(_ instructions: [Instruction]) -> (counts: [Int: Int], total: Int, empty: Bool) {
        var counts: [Int: Int] = [:]
        var empty = false
        var index = 0
        func play(_ start: Int) -> Int {  // from `index` to just past the matching ENDLOOP (or END)
            var t = start
            while index < instructions.count {
                let instruction = instructions[index]
                index += 1
                t += Int(instruction.delay)
                counts[t, default: 0] += 1
                switch instruction {
                case .loop(let count, _):
                    let body = index
                    for _ in 0..<Int(count) {
                        index = body
                        let before = t
                        t = play(t)
                        if t == before { empty = true }
                    }
                // play counted the ENDLOOP at each iteration's end
                case .endLoop, .end:
                    return t
                default:
                    break
                }
            }
            return t
        }
        let total = play(0)
        return (counts, total, empty)
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
