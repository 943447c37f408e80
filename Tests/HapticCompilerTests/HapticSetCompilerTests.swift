import HapticPattern
import Testing

@testable import HapticCompiler

/// Each entry of a set compiles for its channel's actuator; gain and offset stay play parameters.
@Suite struct HapticSetCompilerTests {
    static func entry(_ channel: Int, _ preset: String, actuator: String? = nil, gain: Double = 1, offset: Double = 0) -> HapticSet.Entry {
        HapticSet.Entry(
            channel: channel, source: .preset(preset), pattern: Preset.named(preset)!.pattern, actuator: actuator, gain: gain, offset: offset)
    }

    @Test func entriesCompileForTheirChannelsActuator() throws {
        let set = HapticSet(entries: [
            Self.entry(0, "impact.heavy", gain: 0.8, offset: 0.0125),
            Self.entry(0, "selection", actuator: "erm-coin-10mm"),
            Self.entry(1, "impact.heavy"),
            Self.entry(2, "impact.heavy", actuator: "no-such-profile"),
        ])
        let lra = try ProfileLoader().load("lra-235hz-8mm")
        let entries = HapticSetCompiler.compile(set, defaultProfile: lra)
        #expect(entries.map(\.placement.actuator) == ["erm-coin-10mm", "erm-coin-10mm", "lra-235hz-8mm", "no-such-profile"])
        #expect(entries.map(\.placement.scale) == [204, 255, 255, 255])
        #expect(entries.map(\.placement.startTick) == [13, 0, 0, 0])
        // The program is the pattern's alone: the same as compiling it directly.
        let direct = try PatternCompiler.compile(Preset.named("impact.heavy")!.pattern, profile: lra)
        #expect(entries[2].compiled?.bytes == direct.bytes && entries[2].error == nil)
        #expect(entries[0].compiled?.report.profile == "erm-coin-10mm")
        #expect(entries[3].compiled == nil)
        #expect(entries[3].error?.hasPrefix("actuator: ") == true, "\(entries[3].error ?? "")")
    }
}
