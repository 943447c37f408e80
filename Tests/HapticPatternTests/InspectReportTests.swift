import Foundation
import HapticPattern
import TestSupport
import Testing

/// What `haptic inspect` reports (haptic-inspect/2) and how it loads: the summary as plain data,
/// an error as one line with its place, the load timing, and the AHAP files of a folder.
@Suite struct InspectReportTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aSummaryCountsWhatThePatternHolds() throws {
        let pattern = try #require(Preset.named("impact.heavy")).pattern
        let summary = InspectReport.Summary(AHAPSummary(pattern))
        #expect(summary.events.total == AHAPSummary(pattern).eventCount)
        #expect(summary.events.byType.count == HapticEventType.allCases.count)
        #expect(summary.duration == AHAPSummary(pattern).duration)
        let file = InspectReport.File(file: "preset:impact.heavy", document: AHAPDocument(pattern: pattern), error: nil, timing: nil)
        #expect(file.ok && file.summary?.events.total == summary.events.total && file.warnings.isEmpty)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let root = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(InspectReport(files: [file], mode: "lenient"))) as? [String: Any])
        #expect(root["schema"] as? String == "haptic-inspect/2")
        let first = try #require((root["files"] as? [[String: Any]])?.first)
        #expect(first["error"] is NSNull && first["timing"] is NSNull)
        let (error, lines) = file.text(warningsShown: 20)
        #expect(error == nil && lines.count == 5)
        #expect(lines.first?.hasPrefix("preset:impact.heavy: \(summary.events.total) event") == true)
        #expect(lines.last == "  warnings: none")
        let failed = InspectReport.File(file: "x.ahap", document: nil, error: AHAPError(file: "x.ahap", message: "bad"), timing: nil)
        #expect(failed.text(warningsShown: 20).error == AHAPError(file: "x.ahap", message: "bad").description)
        #expect(failed.text(warningsShown: 20).lines.isEmpty)
    }

    @Test func anErrorKeepsItsPlaceAndATimedLoadItsRuns() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bad = (folder as NSString).appendingPathComponent("b.ahap")
        try Data("{\"Pattern\": [".utf8).write(to: URL(fileURLWithPath: bad))
        let (result, timing) = AHAPDecoder().decodeTimed(contentsOfFile: bad, runs: 3)
        guard case .failure(let error) = result else {
            Issue.record("decoded a truncated file")
            return
        }
        let reported = InspectReport.LoadError(error)
        #expect(reported.description == error.description && reported.line == error.line)
        let measured = try #require(timing)
        #expect(measured.bytes == 13 && measured.decodeSeconds.count == 3 && measured.decodeCPUSeconds.count == 3)
        #expect(measured.best == measured.decodeSeconds.min())
        let (_, unread) = AHAPDecoder().decodeTimed(contentsOfFile: (folder as NSString).appendingPathComponent("none.ahap"), runs: 3)
        #expect(unread == nil)
    }

    @Test func aFoldersAHAPFilesAreListedSorted() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["b.ahap", "a.AHAP", "notes.txt"] {
            _ = FileManager.default.createFile(atPath: (folder as NSString).appendingPathComponent(name), contents: Data())
        }
        let single = (folder as NSString).appendingPathComponent("notes.txt")
        #expect(try AHAPFiles.list([folder, single]) == ["a.AHAP", "b.ahap"].map { (folder as NSString).appendingPathComponent($0) } + [single])
        #expect(throws: AHAPFiles.Missing(path: "/no/such.ahap")) { try AHAPFiles.list(["/no/such.ahap"]) }
        #expect("\(AHAPFiles.Missing(path: "x"))" == "no such file or directory: x")
    }
}
