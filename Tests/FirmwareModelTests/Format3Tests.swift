import FirmwareModel
import Foundation
import HapticProtocol
import TestSupport
import Testing

/// Program format 3 (firmware-protocol/PROTOCOL-3.md 3.1): rule (f) closed loops (error 31), the
/// peak and the seek bound X (3.5), against the v3 vectors, the expanded-program definitions and
/// the C validator; and format 2's verdicts unchanged.
struct Format3Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var program: [UInt8]
        /// nil: valid, with `facts`.
        var error: UInt8?
        var facts: (total: UInt32, peak: Int, seekBound: UInt32)

        var testDescription: String { name }
    }

    /// firmware-protocol/vectors/v3/programs.txt: "program <name> <hex>", then "expect: ok total T
    /// peak P seek_bound X" or "expect: error N".
    static let vectors: [Vector] = {
        let url = Repository.url("firmware-protocol/vectors/v3/programs.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var out: [Vector] = []
        var pending: (String, [UInt8])?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ").map(String.init)
            if fields.first == "program", fields.count == 3, let bytes = Hex.decode(fields[2]) {
                pending = (fields[1], bytes)
            } else if fields.first == "expect:", let (name, program) = pending {
                var vector = Vector(name: name, program: program, error: nil, facts: (0, 0, 0))
                if fields.count == 3, fields[1] == "error" {
                    vector.error = UInt8(fields[2])
                } else if fields.count == 8 {
                    vector.facts = (UInt32(fields[3]) ?? 0, Int(fields[5]) ?? 0, UInt32(fields[7]) ?? 0)
                }
                out.append(vector)
                pending = nil
            }
        }
        return out
    }()

    static let format3 = Validator(format: ProgramHeader.formatVersion3)

    @Test func theVectorsAreRead() {
        #expect(Self.vectors.count >= 12)
        #expect(Self.vectors.contains { $0.error == ProgramError.loopNotClosed.rawValue })
    }

    @Test(arguments: vectors) func vector(_ vector: Vector) throws {
        do {
            let facts = try Self.format3.inspect(vector.program)
            #expect(vector.error == nil)
            #expect(facts.header.totalTicks == vector.facts.total)
            #expect(facts.header.version == 3)
            #expect(facts.peak == vector.facts.peak)
            #expect(facts.seekBound == vector.facts.seekBound)
        } catch {
            #expect(error.rawValue == vector.error)
        }
        let c = CFirmware.validate(vector.program, .default, format: 3)
        #expect(c.code == vector.error ?? 0)
    }

    /// A format 2 device: version 3 is error 3, and the same bytes with version 2 pass rules 1-30
    /// exactly when they did (rule (f) is not format 2's).
    @Test(arguments: vectors) func formatTwoUnchanged(_ vector: Vector) throws {
        guard vector.program[2] == 3 else { return }
        #expect(throws: ProgramError.badVersion) { try Validator().validate(vector.program) }
        var asTwo = vector.program
        asTwo[2] = 2
        let open = vector.error == ProgramError.loopNotClosed.rawValue
        if vector.error == nil || open {
            let facts = try Validator().inspect(asTwo)
            #expect(facts.header.version == 2)
            if !open { #expect(facts.peak == vector.facts.peak && facts.seekBound == vector.facts.seekBound) }
        } else {
            #expect(throws: ProgramError.self) { try Validator().validate(asTwo) }
            #expect((try? Validator().validate(asTwo)) == nil)
            do { try Validator().validate(asTwo) } catch { #expect(error.rawValue == vector.error) }
        }
    }

    /// Random bodies with loops, nested, long and short, ramps and pulses that end inside or past
    /// an iteration.
    static func randomProgram(_ rng: inout SeededGenerator, version: UInt8) -> (Program, [Instruction]) {
        let shape = BodyShape(
            instructions: 1...14, zeroDelay: 30, longDelay: 2, loop: 16, pulse: 18, maxDepth: 3,
            loopCounts: [1, 2, 3, 5, 25], longRamp: 0, emptyIteration: 25)
        let instructions = randomInstructions(&rng, shape)
        return (Program(instructions: instructions, sharpness: rng.percent(85), version: version), instructions)
    }

    /// The one-pass validator equals the definitions on the expanded program: rule (f) on every
    /// loop's expanded iteration, the peak from the execution counts, X from the loop tree.
    @Test func onePassEqualsTheDefinition() throws {
        var rng = SeededGenerator(seed: 0xF0_4A73)
        var closedWithLoops = 0
        var open = 0
        for _ in 0..<6000 {
            let (program, instructions) = Self.randomProgram(&rng, version: 3)
            var asTwo = program
            asTwo.header.version = 2
            guard (try? Validator().validate(asTwo)) != nil else { continue }  // rules 1-30
            let tree = Format3Definition.tree(instructions)
            guard Format3Definition.executions(tree) < 20_000 else { continue }
            let closed = Format3Definition.isClosed(tree)
            let hasLoop = instructions.contains { $0.opcode == .loop }
            do {
                let facts = try Self.format3.inspect(program)
                #expect(closed, "\(instructions)")
                #expect(facts.peak == Format3Definition.peak(tree), "\(instructions)")
                #expect(UInt64(facts.seekBound) == Format3Definition.seekBound(tree), "\(instructions)")
                if hasLoop { closedWithLoops += 1 }
            } catch {
                #expect(error == .loopNotClosed && !closed, "\(instructions)")
                open += 1
            }
        }
        #expect(closedWithLoops >= 300 && open >= 300, "closed with loops \(closedWithLoops), open \(open)")
    }

    /// The Swift validator and the C one (hb_program_validate_format) agree on every program, valid
    /// or not, for both formats: the error, and T, the peak and X.
    @Test func matchesTheCValidator() {
        var rng = SeededGenerator(seed: 0xC_F3)
        for round in 0..<4000 {
            let version: UInt8 = rng.percent(80) ? 3 : 2
            var (program, _) = Self.randomProgram(&rng, version: version)
            if round % 10 == 0 { program.header.totalTicks &+= UInt32(rng.within(0...2)) }
            for format in [ProgramHeader.formatVersion, ProgramHeader.formatVersion3] {
                let c = CFirmware.validate(program.bytes, .default, format: format)
                do {
                    let facts = try Validator(format: format).inspect(program.bytes)
                    #expect(c.code == 0 && c.total == facts.header.totalTicks)
                    #expect(c.peak == facts.peak && c.seekBound == facts.seekBound)
                } catch {
                    #expect(c.code == error.rawValue)
                }
            }
        }
    }
}
