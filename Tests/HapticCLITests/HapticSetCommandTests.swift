import Foundation
import HapticPattern
import HapticPlots
import TestSupport
import Testing

@testable import HapticCLI

/// `haptic render SET.json` and `haptic compile SET.json` (docs/channels.md): the CLI draws and
/// compiles what the libraries produce, and `--json` prints one document on every exit.
@Suite struct HapticSetCommandTests {
    static let example = Repository.path("Examples/sets/two-handles.json")

    static func document(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "not one JSON object: \(output)")
    }

    /// The PNG is the library's plot of the library's rendering, byte for byte; the CSV has one
    /// intensity and one sharpness column per channel.
    @Test func renderDrawsEveryChannel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("haptic-set-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("set.png").path, csv = folder.appendingPathComponent("set.csv").path
        try Render.parse([Self.example, "-o", png]).run()
        try Render.parse([Self.example, "-o", csv]).run()
        let set = try HapticSet(contentsOfFile: Self.example)
        let rendering = HapticSetRenderer.render(set)
        let plot = TimePlot.set(set, rendering: rendering, title: set.name!)
        #expect(plot.panels.count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)) == Data(plot.png()))
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "time_s,b0c0_intensity,b0c0_sharpness,b0c1_intensity,b0c1_sharpness")
        #expect(lines.count == 1 + rendering.tickCount)
        #expect(lines[301] == "0.3,1,0.38947368421052636,0.720703125,0.5")
    }

    @Test func renderRefusesAnActuatorForASet() throws {
        let run = try HapticProcess.run(["render", Self.example, "-o", "/tmp/x.svg", "--actuator", "lra-235hz-8mm"], timeout: 60)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("--actuator is for one pattern"), "\(run.errors)")
    }

    /// Every entry compiles for its channel's actuator (the hit on channel 0 for the rumble's
    /// profile, named by another entry), with the scale and start tick a device gets.
    @Test func compileReportsEveryEntry() throws {
        let run = try HapticProcess.run(["compile", "Examples/sets/two-handles.json", "--json"], timeout: 120)
        #expect(run.status == 0, "\(run.errors)")
        let root = try Self.document(run.output)
        #expect(root["schema"] as? String == "haptic-compile/2")
        let files = try #require(root["files"] as? [[String: Any]])
        let entries = files.compactMap { $0["entry"] as? [String: Any] }
        #expect(entries.count == 3)
        #expect(entries.map { $0["actuator"] as? String } == ["lra-170hz-10mm", "lra-170hz-10mm", "lra-235hz-8mm"])
        #expect(entries.map { $0["scale"] as? Int } == [255, 255, 204])
        #expect(entries.map { $0["start_tick"] as? Int } == [0, 300, 300])
        #expect(entries.map { $0["path"] as? String } == ["channels[0]", "channels[1]", "channels[2]"])
        #expect(entries[0]["location"] as? String == "hand-left" && entries[0]["mix"] as? String == "sum")
        #expect(files.allSatisfy { $0["error"] is NSNull && $0["report"] is [String: Any] })
        let text = try HapticProcess.run(["compile", "Examples/sets/two-handles.json"], timeout: 120)
        #expect(
            text.output.contains(
                "two-handles.json channels[2] (hit right): board 0 channel 1, preset:impact.heavy for lra-235hz-8mm, gain 0.8 (scale 204), from tick 300"
            ))
    }

    /// Commands that take one pattern say a set is not for them, and why (playing needs protocol 3).
    @Test func playAndInspectRefuseASet() throws {
        let play = try HapticProcess.run(["play", "Examples/sets/two-handles.json", "--json"], timeout: 60)
        #expect(play.status == 1)
        let error = try #require(try Self.document(play.output)["error"] as? [String: Any])
        #expect((error["message"] as? String)?.hasSuffix("playing one needs protocol 3 (not yet)") == true, "\(error)")
        let inspect = try HapticProcess.run(["inspect", "Examples/sets/two-handles.json"], timeout: 60)
        #expect(inspect.status == 1)
        #expect(inspect.errors.contains("a haptic set of 3 entries, 0 warnings: `haptic render` and `haptic compile` read sets"), "\(inspect.errors)")
    }

    /// A set that does not load: one line with the file and the JSON path, and one document with --json.
    @Test func aBrokenSetFailsWithItsPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json").path
        try #"{"format": "haptic-set/1", "channels": [{"channel": 0, "pattern": "preset:impact.hevy"}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let compile = try HapticProcess.run(["compile", path, "--json"], timeout: 60)
        #expect(compile.status == 1)
        let files = try #require(try Self.document(compile.output)["files"] as? [[String: Any]])
        #expect((files.first?["error"] as? String)?.hasPrefix("\(path): channels[0].pattern: no preset named") == true, "\(files)")
        let render = try HapticProcess.run(["render", path, "-o", "/tmp/never.svg"], timeout: 60)
        #expect(render.status == 1)
        #expect(render.errors.contains("\(path): channels[0].pattern: no preset named \"impact.hevy\" (did you mean"), "\(render.errors)")
    }
}
