import FirmwareModel
import Foundation
import HapticPattern
import HapticProtocol
import TestSupport
import Testing

@testable import HapticCompiler

/// The compiler folds closed loops only (PROTOCOL-3.md 3.1, rule (f); docs/compiler.md, "Loops"),
/// so every program it writes is a valid format 3 program once its format byte is 3, and
/// `CompileOptions.formatVersion` writes that byte.
struct RuleFFoldingTests {
    /// `program` with its format byte set to 3 passes a format 3 validator (rule (f) included).
    static func passesRuleF(_ program: Program) -> ProgramError? {
        var asFormat3 = program
        asFormat3.header.version = ProgramHeader.formatVersion3
        let configuration = Fidelity.checkConfiguration(for: program)
        do {
            try Validator(configuration: configuration, format: ProgramHeader.formatVersion3).validate(asFormat3)
            return nil
        } catch { return error }
    }

    /// The corpus files whose loops the compiler folded before rule (f) (docs/compiler.md,
    /// "Loops"): with closed loops they still fold (2 of them had open loops for the LRA, 5 for
    /// the ERM: the boundary moved).
    static let looping: [String: Set<String>] = {
        let apple: Set<String> = ["apple__unityplugins__Heartbeats", "apple__unityplugins__Recharge", "apple__unityplugins__Texture"]
        let lofelt = Set(["ahap_from_valid_v1", "valid_v1", "valid_v1_multiple_transients"].map { "Lofelt__NiceVibrations__" + $0 })
        return [ActuatorProfile.defaultName: apple, "erm-coin-10mm": apple.union(lofelt)]
    }()

    @Test(arguments: ActuatorProfile.builtIns.map(\.name))
    func corpusLoopsAreClosed(profileName: String) throws {
        let profile = ActuatorProfile.builtIns.first { $0.name == profileName }!
        var looped: Set<String> = []
        for file in CompilerFixtures.corpusFiles {
            let compiled = try PatternCompiler.compile(try CompilerFixtures.corpusPattern(file), profile: profile)
            #expect(Self.passesRuleF(compiled.program) == nil, "\(file)")
            if compiled.report.instructions.loop > 0 { looped.insert((file as NSString).deletingPathExtension) }
        }
        #expect(!looped.isEmpty, "no corpus program folds a loop for \(profileName)")
        // (about the shipped files: skipped when HAPTIC_CORPUS names another corpus)
        let names = Set(CompilerFixtures.corpusFiles.map { ($0 as NSString).deletingPathExtension })
        if let expected = Self.looping[profileName], expected.isSubset(of: names) {
            #expect(looped.isSuperset(of: expected), "\(expected.subtracting(looped)) no longer fold")
        }
    }

    @Test func randomPatternsLoopsAreClosed() throws {
        var g = SeededGenerator(seed: 0xF)
        for _ in 0..<40 {
            let pattern = CompilerFixtures.randomPattern(&g)
            for profile in ActuatorProfile.builtIns {
                let compiled = try PatternCompiler.compile(pattern, profile: profile)
                #expect(Self.passesRuleF(compiled.program) == nil)
            }
        }
    }

    /// A period whose ramp runs past the iteration's end when the loop starts at the stretch's
    /// first instruction: SET_A at t, RAMP_A at t + 5 lasting 20 (cut by the next SET_A at t + 20).
    /// The fold starts one instruction later (RAMP, SET: the SET ends each iteration), leaving the
    /// first SET flat; plays the same samples; and is closed.
    @Test func aCrossingRampMovesTheLoopBoundary() throws {
        var timed: [TimedInstruction] = []
        for beat in 0..<8 {
            timed.append(TimedInstruction(tick: beat * 20, instruction: .setA(0)))
            timed.append(TimedInstruction(tick: beat * 20 + 5, instruction: .rampA(to: 200, duration: 20)))
        }
        let end = 8 * 20 + 30
        let folded = try #require(LoopFolding.fold(timed, end: end, maxPerTick: 9))
        #expect(folded.first == .setA(0))
        #expect(folded.contains { $0.opcode == .loop })
        let flat = CompileAssembly.flat(timed, end: end)
        let program = Program(instructions: folded, sharpness: false)
        #expect(Self.passesRuleF(program) == nil)
        #expect(try CompilerFixtures.play(program) == CompilerFixtures.play(Program(instructions: flat, sharpness: false)))
    }

    /// A pulse that lasts past every possible iteration end (period 12, pulse 20 ticks): no fold.
    @Test func aPulseLongerThanThePeriodIsNotFolded() {
        let timed = (0..<10).map { TimedInstruction(tick: $0 * 12, instruction: .pulse(amplitude: 200, sharpness: 0)) }
        #expect(LoopFolding.fold(timed, end: 200, maxPerTick: 9) == nil)
    }

    @Test func theFormatByteIsAnOption() throws {
        let pattern = try CompilerFixtures.corpusPattern(CompilerFixtures.corpusFiles[0])
        let two = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile)
        let three = try PatternCompiler.compile(
            pattern, profile: CompilerFixtures.defaultProfile, options: CompileOptions(formatVersion: 3))
        #expect(two.program.bytes[2] == 2 && three.program.bytes[2] == 3)
        #expect(two.program.body == three.program.body)
        #expect(three.report.fidelity.withinTolerance)
        #expect(throws: Never.self) { try Validator(format: 3).validate(three.program) }
        #expect(throws: ProgramError.badVersion) { try Validator().validate(three.program) }
        #expect(throws: CompileError.self) {
            try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile, options: CompileOptions(formatVersion: 4))
        }
    }
}
