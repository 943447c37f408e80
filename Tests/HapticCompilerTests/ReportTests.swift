import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern
import HapticProtocol
import Testing

/// The report types of `haptic compile` and `haptic bench` (haptic-compile/2, haptic-bench/2):
/// the figures of a compile as plain data, instruction counts by their PROTOCOL.md names, and a
/// play's slot against the program's placement (`haptic verify`).
@Suite struct ReportTests {
    static let profile = ActuatorProfile.builtIns.first { $0.name == ActuatorProfile.defaultName }!

    static func json(_ value: some Encodable) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try #require(try JSONSerialization.jsonObject(with: encoder.encode(value)) as? [String: Any])
    }

    @Test func aProgramReportCarriesTheCompilersFigures() throws {
        let pattern = try #require(Preset.named("impact.heavy")).pattern
        let compiled = try PatternCompiler.compile(pattern, profile: Self.profile)
        let report = ProgramReport(compiled.report)
        #expect(report.programBytes == compiled.program.bytes.count)
        #expect(report.totalTicks == compiled.report.totalTicks)
        let root = try Self.json(report)
        let instructions = try #require(root["instructions"] as? [String: Int])
        #expect(instructions["total"] == compiled.report.instructions.total)
        #expect(instructions["end"] == 1)
        let fidelity = try #require(root["fidelity"] as? [String: Any])
        #expect(fidelity["within_tolerance"] as? Bool == true)
        #expect(fidelity.keys.contains("problem"))  // null, not left out
    }

    @Test func aBenchReportSumsItsFiles() throws {
        let patterns = ["impact.heavy", "impact.light"].map { ($0, Preset.named($0)!.pattern) }
        let bench = CompilerBenchmark.run(patterns, profile: Self.profile, options: CompileOptions())
        let busy = InterpreterBenchmark.measure(ticks: 1000)
        let report = BenchReport(bench, busy: busy, repeat: 3, unreadable: [("x.ahap", "bad")])
        #expect(report.files.count == 2 && report.totals.files == 2)
        #expect(report.totals.programBytes == report.files.compactMap(\.report?.programBytes).reduce(0, +))
        let root = try Self.json(report)
        #expect(root["schema"] as? String == "haptic-bench/2")
        #expect(root["repeat"] as? Int == 3)
        #expect((root["unreadable"] as? [[String: String]])?.first == ["error": "bad", "file": "x.ahap"])
    }

    @Test func aPlayFromTheWrongPlaceIsNamed() {
        #expect(ProgramPlacement.slot.mismatch(playedFrom: 0) == nil)
        #expect(ProgramPlacement.stream.mismatch(playedFrom: Message.streamSlot) == nil)
        #expect(ProgramPlacement.unplaced.mismatch(playedFrom: 2) == nil)
        #expect(ProgramPlacement.slot.mismatch(playedFrom: nil) == nil)
        #expect(
            ProgramPlacement.stream.mismatch(playedFrom: 1)
                == "the trace's play ran from slot 1, but for the device in its INFO this pattern must be streamed: it is not the program that was played"
        )
        #expect(ProgramPlacement.slot.mismatch(playedFrom: Message.streamSlot)?.hasPrefix("the trace's play ran from the stream") == true)
    }

    @Test func optionsTargetTheDeviceInItsInfo() {
        let info = Message.Info(
            firmwareMajor: 0, firmwareMinor: 3, firmwarePatch: 1, actuatorCode: 1, profileID: 42, deviceID: 1, capabilities: [.stream],
            rate: 500, brakeTicks: 20, safetyThreshold: 224, slotCount: 4, safetyTicks: 30000, maxBody: 4096, slotCapacity: 1024,
            streamCapacity: 256, rxBuffer: 256, wakeTicks: 20, idleTicks: 2000, watchdog: 1000, profileName: Array("lra-170".utf8))
        var options = CompileOptions()
        options.target(info, baudRate: 115_200)
        #expect(options.tickRate == 500)
        #expect(options.device == DeviceCapabilities(info: info, baudRate: 115_200))
    }
}
