import Foundation
import HapticTransport
import TestSupport
import Testing

/// docs/cli.md against what `haptic` does, where the two had drifted apart (issue 24, item 10),
/// and the bench's limits (item 12).
@Suite struct DocsMatchBehaviourTests {
    static let cli = (try? String(contentsOfFile: Repository.path("docs/cli.md"), encoding: .utf8)) ?? ""

    /// Every schema a report writes (the CLI's and the libraries') is in the schema table.
    @Test func everySchemaIsInTheTable() throws {
        let sources = Repository.url("Sources")
        var schemas: Set<String> = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []
        for name in files where name.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: /schema = "(haptic-[a-z-]+\/[0-9]+)"/) { schemas.insert(String(match.output.1)) }
        }
        #expect(schemas.count >= 10)
        for schema in schemas { #expect(Self.cli.contains("| `\(schema)` |"), "\(schema) is not in the schema table") }
    }

    /// One section per command: no heading twice.
    @Test func noHeadingTwice() {
        let headings = Self.cli.split(separator: "\n").filter { $0.hasPrefix("## `haptic ") }.map { $0.split(separator: " ").prefix(3).joined() }
        #expect(Set(headings).count == headings.count, "\(headings)")
    }

    /// The emulate sample shows the default baud, and the default corpus is the one bench uses.
    @Test func samplesShowTheDefaults() {
        #expect(Self.cli.contains("virtual device (lra-drv2605l-170hz-10mm, \(SerialConfiguration.referenceBaudRate) baud, firmware model)"))
        #expect(!Self.cli.contains("default `Examples`."))
        // What `haptic emulate --mcu --trace` prints about opening the port is documented.
        #expect(Self.cli.contains("with --trace, opening it does not reset the board"))
    }

    /// A folder without .ahap files is a bad command line (64), as the exit table says.
    @Test func benchOnAFolderWithoutAHAPIsABadCommandLine() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("bench-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let run = try HapticProcess.run(["bench", empty.path], timeout: 30)
        #expect(run.status == 64, "\(run.errors)")
        #expect(run.errors.contains("no .ahap files in \(empty.path)"), "\(run.errors)")
    }

    /// --repeat has a documented limit, and a long bench shows its progress on standard error.
    @Test func benchRepeatIsBoundedAndShowsProgress() throws {
        let huge = try HapticProcess.run(["bench", "--repeat", "100000000", "Examples/heartbeat.ahap"], timeout: 30)
        #expect(huge.status == 64)
        #expect(huge.errors.contains("--repeat must be 1...1000"), "\(huge.errors)")
        let run = try HapticProcess.run(["bench", "--repeat", "20", "Examples/heartbeat.ahap"], timeout: 60)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("bench: 100 %"), "\(run.errors)")
    }
}
