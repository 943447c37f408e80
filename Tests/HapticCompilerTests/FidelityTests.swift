import FirmwareModel
import HapticPattern
import HapticProtocol
import TestSupport
import Testing

@testable import HapticCompiler

/// Seeded random patterns, every profile, several tolerances: the program always stays within
/// the tolerance, and the fidelity report agrees with an independent comparison.
@Test(arguments: [0, 1, 2, 4])
func randomPatternsStayWithinTolerance(tolerance: Int) throws {
    var g = SeededGenerator(seed: UInt64(100 + tolerance))
    for _ in 0..<40 {
        let pattern = CompilerFixtures.randomPattern(&g)
        for profile in ActuatorProfile.builtIns {
            let compiled = try PatternCompiler.compile(pattern, profile: profile, options: CompileOptions(tolerance: tolerance))
            let f = compiled.report.fidelity
            #expect(f.withinTolerance)
            #expect(f.amplitudeMaxError <= tolerance)
            #expect(throws: Never.self) {
                try Validator(configuration: Fidelity.checkConfiguration(for: compiled.program)).validate(compiled.program)
            }
            // Independent check: the renderer's grid through the transfer against a fresh playback.
            let reference = ReferenceRenderer(pattern: pattern).render(rate: 1000)
            let output = try CompilerFixtures.play(compiled.program)
            #expect(output.count == reference.count)
            var worst = 0
            for (sample, ref) in zip(output, reference) {
                let a = Int(profile.amplitudeCode(forIntensity: ref.intensity))
                worst = max(worst, abs(Int(sample.amplitude) - a))
                if a == 0 { #expect(sample.amplitude == 0) }  // silence is exact
                if a > 0 && profile.rendersSharpness {
                    let s = Int(SharpnessRendering.code(forSharpness: ref.sharpness))
                    #expect(abs(Int(sample.sharpness) - s) <= tolerance)
                }
            }
            #expect(worst == f.amplitudeMaxError)
        }
    }
}

/// The check catches a wrong program: one changed value byte is reported, and compiling with a
/// failing check throws.
@Test func fidelityCheckCatchesATamperedProgram() throws {
    let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0)])
    let profile = CompilerFixtures.defaultProfile
    let compiled = try PatternCompiler.compile(pattern, profile: profile)
    let target = CompileTarget(renderer: ReferenceRenderer(pattern: pattern), profile: profile, rate: 1000, sharpnessTolerance: 1)
    var instructions = try compiled.program.decodedInstructions().map(\.instruction)
    #expect(instructions.first == .setA(255))
    instructions[0] = .setA(250)
    let tampered = Program(instructions: instructions, sharpness: false)
    let (report, _) = Fidelity.check(tampered, target: target, tolerance: 1)
    #expect(report.amplitudeMaxError == 5)
    #expect(!report.withinTolerance)

    let short = Program(instructions: [.setA(255), .end(delay: 50)], sharpness: false)
    let (early, _) = Fidelity.check(short, target: target, tolerance: 1)
    #expect(early.problem != nil)  // it ends (and brakes) at tick 50 of 100
    #expect(early.amplitudeMaxError == 255)
}

/// A program that does not validate is a problem, not an error count.
@Test func fidelityCheckReportsAnInvalidProgram() throws {
    let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0)])
    let target = CompileTarget(
        renderer: ReferenceRenderer(pattern: pattern), profile: CompilerFixtures.defaultProfile,
        rate: 1000, sharpnessTolerance: 1)
    let invalid = Program(instructions: [.setS(10), .end(delay: 100)], sharpness: false)  // SET_S without SHARP
    let (report, _) = Fidelity.check(invalid, target: target, tolerance: 1)
    #expect(report.problem != nil)
    #expect(!report.withinTolerance)
}
