import ArgumentParser
import Foundation
import HapticConformance
import HapticTransport

/// `haptic conformance --port PATH [--baud N] [--json] [--vectors DIR] [--check NAME]...`: the
/// conformance kit (`HapticConformance`) against any device that implements PROTOCOL.md.
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Check that the device on a serial port implements the wire protocol (firmware-protocol/PROTOCOL.md).",
        discussion: """
            Replays the device vectors (firmware-protocol/vectors/device) over the port and runs live checks: \
            \(Conformance.liveChecks.joined(separator: ", ")). Vector stretches whose outcome depends on the exact tick the \
            device took a frame at are counted, not compared. Prints one row per check with the first divergence of each \
            failing one. Vectors: --vectors DIR, else those shipped with haptic (firmware-protocol/vectors/device); \
            a folder without vectors fails the run.

            Exit status: 0 when no check failed (skipped checks do not fail); 1 when a check failed or the port cannot be opened; 64 for a bad command line.
            """
    )

    @Option(help: "Serial port of the device (a board, or the path `haptic emulate` prints).")
    var port: String

    @OptionGroup var line: LineOptions

    @Flag(help: "Write one JSON document (schema haptic-conformance/1, docs/cli.md) instead of the table.")
    var json = false

    @Option(
        help: ArgumentHelp("Directory of device vectors (default: the ones shipped with haptic, firmware-protocol/vectors/device).", valueName: "dir")
    )
    var vectors: String?

    @Option(
        name: .customLong("check"),
        help: ArgumentHelp(
            "Run only this check: a vector's file name without .txt or a live check (both for a name that is both, such as watchdog; vector:NAME or live:NAME for one); repeatable.",
            valueName: "name"))
    var checks: [String] = []

    func validate() throws {
        if let vectors {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: vectors, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--vectors \(vectors): no such directory")
            }
        }
        let known = Set(Conformance.liveChecks + vectorNames + Conformance.liveChecks.map { "live:\($0)" } + vectorNames.map { "vector:\($0)" })
        for name in checks where !known.contains(name) {
            throw ValidationError(
                "--check \(name): no such check (live: \(Conformance.liveChecks.joined(separator: ", ")); vectors: the .txt files of the vector directory)"
            )
        }
    }

    var vectorDirectory: String? { vectors ?? ShippedVectors.directory }

    var vectorNames: [String] { Conformance.vectorNames(in: vectorDirectory) }

    /// What `haptic conformance` reports: `--json` encodes it (schema haptic-conformance/1,
    /// docs/cli.md), the table is printed from it.
    typealias Report = ConformanceReport

    func run() throws {
        let transport: any Transport
        do {
            transport = try openTransport(path: port, configuration: SerialConfiguration(baudRate: line.baud))
        } catch {
            // --json prints its document on this exit too: the handshake failed, nothing else ran.
            if json {
                emit(try reportJSON(Report(port: port, baud: line.baud, vectors: vectorDirectory, cannotOpen: "\(error)")))
            }
            throw CommandFailure("\(error)")
        }
        defer { transport.close() }
        let only = checks.isEmpty ? nil : Set(checks)
        let total = Conformance.checkCount(vectorsDirectory: vectorDirectory, only: only)
        let progress = ProgressDisplay("conformance", total: Double(total), quiet: json)
        let directory = vectorDirectory
        let run = Conformance.run(on: transport, options: .init(vectorsDirectory: directory, only: only)) { _ in progress.advance() }
        progress.finish()
        let report = Report(run, baud: line.baud, vectors: directory)
        emit(json ? try reportJSON(report) : report.text)
        if !run.passed {
            let failed = run.results.filter { $0.status == .failed }.map { "\($0.kind.rawValue) \($0.name)" }
            FileHandle.standardError.write(Data("conformance: failed: \(failed.joined(separator: ", "))\n".utf8))
            throw ExitCode(1)
        }
    }
}
