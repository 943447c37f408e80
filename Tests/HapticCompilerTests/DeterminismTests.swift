import HapticPattern
import HapticProtocol
import TestSupport
import Testing

@testable import HapticCompiler

/// Same input, same bytes: twice in a row, in another order, and against bytes pinned here.
@Test func corpusCompilesToTheSameBytesEveryTime() throws {
    let files = CompilerFixtures.corpusFiles
    let profile = CompilerFixtures.defaultProfile
    let first = try files.map { try PatternCompiler.compile(try CompilerFixtures.corpusPattern($0), profile: profile).bytes }
    let second = try files.reversed().map { try PatternCompiler.compile(try CompilerFixtures.corpusPattern($0), profile: profile).bytes }
    #expect(first == Array(second.reversed()))
}

@Test func randomPatternsCompileToTheSameBytesEveryTime() throws {
    var g = SeededGenerator(seed: 2024)
    for _ in 0..<20 {
        let pattern = CompilerFixtures.randomPattern(&g)
        for profile in ActuatorProfile.builtIns {
            let a = try PatternCompiler.compile(pattern, profile: profile).bytes
            let b = try PatternCompiler.compile(pattern, profile: profile).bytes
            #expect(a == b)
        }
    }
}

/// The exact program of a small pattern, pinned: a change of the fitter's choices shows here
/// (update the bytes deliberately, with the reason in the commit).
@Test func smallPatternCompilesToPinnedBytes() throws {
    let pattern = HapticPattern(events: [
        .continuous(at: 0, duration: 0.2, intensity: 0.8, sharpness: 0.3, attack: 0.3, release: 0.2),
        .transient(at: 0.05, intensity: 1, sharpness: 0.9),
    ])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.sharpnessProfile)
    let hex = compiled.bytes.map { String(format: "%02x", $0) }.joined()
    #expect(hex == pinnedSmallProgram, "got \(hex)")
}

private let pinnedSmallProgram =
    "48500201e80328000000c8000000127e200107414d26120d2d320d2d5e0c2ca41085ffe62ba26b3f4c7105253e07271e06260707270006e7"
