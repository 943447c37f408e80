import FirmwareModel
import HapticCompiler
import HapticPattern
import Testing

/// Felt release (`FeltRelease`): when a play stops being felt after its program ends, the mirror
/// of the felt onset, which the device group uses to end boards together.
@Suite struct FeltReleaseTests {
    static func model(_ name: String) throws -> ActuatorSimulator.Model {
        try #require(ActuatorProfile.builtIns.first { $0.name == name }).physicsModel(tickRate: 1000)
    }

    static let quiet = OutputSample(amplitude: 0, sharpness: 0)

    @Test func releaseIsMeasuredFromTheProgramsEndAgainstTheLastPeak() throws {
        let drive = Array(repeating: OutputSample(amplitude: 200, sharpness: 128), count: 300) + Array(repeating: Self.quiet, count: 10)
        for name in ["lra-170hz-10mm", "erm-coin-10mm"] {
            let release = try #require(FeltRelease.of(drive: drive, endTick: 300, model: try Self.model(name)))
            #expect(release.peak > 0)
            // Felt a little after the drive stops, never longer than the tail looked at.
            #expect(release.release50 > 0 && release.release50 < 0.5, "\(name): \(release.release50)")
            // A program that ends 10 quiet ticks after its drive is released 10 ms earlier.
            let early = try #require(FeltRelease.of(drive: drive, endTick: 310, model: try Self.model(name)))
            #expect(abs(early.release50 - (release.release50 - 0.010)) < 1e-9)
        }
        #expect(FeltRelease.of(drive: [Self.quiet], endTick: 1, model: try Self.model("erm-coin-10mm")) == nil)
    }

    /// An ERM coasts after its drive stops, a braked LRA stops quickly: the ERM is felt longer,
    /// which is why two boards whose programs end on one tick are not felt to end together.
    @Test func anERMIsFeltLongerAfterItsEndThanABrakedLRA() throws {
        let pattern = try #require(Preset.all.first { $0.name == "impact.heavy" }).pattern
        func release(_ name: String) throws -> Double {
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == name })
            let program = try PatternCompiler.compile(pattern, profile: profile).program
            return try #require(FeltRelease.of(program: program, brakeTicks: 20, model: try Self.model(name))).release50
        }
        #expect(try release("erm-coin-10mm") > release("lra-170hz-10mm") + 0.002)
    }
}
