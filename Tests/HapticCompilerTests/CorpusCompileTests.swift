import FirmwareModel
import Foundation
import HapticPattern
import HapticProtocol
import TestSupport
import Testing

@testable import HapticCompiler

/// Every corpus file compiles for every shipped profile, within the tolerance, to a program the
/// validator accepts (docs/performance.md, "Compiler", has the figures).
@Test(arguments: ActuatorProfile.builtIns.map(\.name))
func corpusCompilesWithinToleranceFor(profileName: String) throws {
    let profile = ActuatorProfile.builtIns.first { $0.name == profileName }!
    let files = CompilerFixtures.corpusFiles
    for file in files {
        let pattern = try CompilerFixtures.corpusPattern(file)
        let compiled = try PatternCompiler.compile(pattern, profile: profile)
        let fidelity = compiled.report.fidelity
        #expect(fidelity.problem == nil, "\(file): \(fidelity.problem ?? "")")
        #expect(fidelity.amplitudeMaxError <= 1, "\(file): amplitude error \(fidelity.amplitudeMaxError)")
        #expect((fidelity.sharpnessMaxError ?? 0) <= 1, "\(file): sharpness error \(fidelity.sharpnessMaxError ?? 0)")
        #expect(fidelity.ticks == compiled.report.totalTicks)
        // The validator of a device that holds the program accepts it.
        let device = Fidelity.checkConfiguration(for: compiled.program)
        #expect(throws: Never.self) { try Validator(configuration: device).validate(compiled.program) }
        if compiled.program.body.count <= Int(DeviceConfiguration.default.maxBody) {
            #expect(throws: Never.self) { try Validator().validate(compiled.program) }
        }
    }
}

/// The byte target: below the MPEG-I reference encoder's 11,111 bytes (one packet per file,
/// measured on the same 41 shipped files; docs/performance.md) with the default profile, every
/// file within 1 LSB. A figure about the shipped files, so it reads them whatever HAPTIC_CORPUS says.
@Test func corpusBeatsTheMPEGReferenceSize() throws {
    let patterns = try Corpus.files(in: Corpus.shipped).map {
        (($0 as NSString).lastPathComponent, try AHAPDecoder().decode(contentsOfFile: $0).pattern)
    }
    let bench = CompilerBenchmark.run(patterns, profile: CompilerFixtures.defaultProfile)
    #expect(bench.entries.count == 41)
    #expect(bench.failures == 0)
    #expect(bench.amplitudeMaxError == 1)
    #expect(bench.totalProgramBytes < 11_111, "total \(bench.totalProgramBytes) bytes")
    // Sanity on the comparison columns: raw samples and minified AHAP are both far larger.
    #expect(bench.totalRawSampleBytes > 10 * bench.totalProgramBytes)
    #expect(bench.totalAHAPMinifiedBytes > 10 * bench.totalProgramBytes)
}

/// Tolerance 0 is reachable too: every corpus file compiles exactly (at more bytes), sharpness
/// included on a profile that renders it.
@Test func corpusCompilesExactlyWithToleranceZero() throws {
    for file in CompilerFixtures.corpusFiles {
        let compiled = try PatternCompiler.compile(
            try CompilerFixtures.corpusPattern(file), profile: CompilerFixtures.sharpnessProfile,
            options: CompileOptions(tolerance: 0))
        #expect(compiled.report.fidelity.amplitudeMaxError == 0, "\(file)")
        #expect(compiled.report.fidelity.sharpnessMaxError == 0, "\(file)")
    }
}

/// The examples in the repository compile for every profile too.
@Test func examplesCompile() throws {
    let directory = Repository.path("Examples")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".ahap") }.sorted()
    #expect(files.count >= 5)
    for file in files {
        let pattern = try AHAPDecoder().decode(contentsOfFile: directory + "/" + file).pattern
        for profile in ActuatorProfile.builtIns {
            let compiled = try PatternCompiler.compile(pattern, profile: profile)
            #expect(compiled.report.fidelity.withinTolerance, "\(file) on \(profile.name)")
        }
    }
}
