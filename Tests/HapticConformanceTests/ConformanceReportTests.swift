import Foundation
import HapticConformance
import Testing

/// The conformance report of a port that did not open, and what the doctor calls a path that is
/// not a listed USB port.
@Suite struct ConformanceReportTests {
    @Test func aPortThatDidNotOpenFailsTheHandshakeOnly() throws {
        let report = ConformanceReport(port: "/dev/none", baud: 115_200, vectors: nil, cannotOpen: "no such device")
        #expect(!report.passed && report.device == nil)
        #expect(report.counts.passed == 0 && report.counts.failed == 1 && report.counts.skipped == 0)
        #expect(report.checks.count == 1)
        let check = try #require(report.checks.first)
        #expect(check.kind == "live" && check.name == "handshake" && check.status == "failed")
        #expect(check.detail == "cannot open /dev/none: no such device")
        let text = report.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(text.first == "conformance of /dev/none: no session")
        #expect(text.contains { $0.hasPrefix("live handshake") && $0.contains("FAIL") && $0.hasSuffix("cannot open /dev/none: no such device") })
        #expect(text.last == "does not conform")
    }

    @Test func aPathIsNamedForWhatItIs() {
        #expect(DoctorReport.kind(ofPort: "/dev/no-such-port") == "no such device")
        #expect(DoctorReport.kind(ofPort: "/dev/null") == "not a listed USB port: a native UART or another serial device")
    }

    @Test func theChecksOfARunAreCountedBeforeItStarts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vectors-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["a.txt", "b.txt", "notes.md"] { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()) }
        #expect(Conformance.vectorNames(in: folder).sorted() == ["a", "b"])
        #expect(Conformance.checkCount(vectorsDirectory: folder, only: nil) == 2 + Conformance.liveChecks.count)
        #expect(Conformance.checkCount(vectorsDirectory: nil, only: nil) == Conformance.liveChecks.count)
        #expect(Conformance.checkCount(vectorsDirectory: folder, only: ["vector:a"]) == 1)
    }
}
