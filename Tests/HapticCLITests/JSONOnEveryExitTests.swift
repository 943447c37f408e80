import Foundation
import TestSupport
import Testing

/// `--json` prints one document on every exit (docs/cli.md, "JSON output"): every command that
/// takes it, on a bad command line (64) and on an input that is not there (1), prints exactly one
/// JSON document to standard output, and a failure the command did not report itself says its
/// status and message in `error` (schema `haptic-error/1`).
@Suite struct JSONOnEveryExitTests {
    /// The commands that take `--json`, each with arguments that are otherwise valid.
    static let commands: [[String]] = [
        ["inspect", "preset:impact.heavy"], ["ports"], ["presets"], ["compile", "preset:impact.heavy"],
        ["bench", "Examples"], ["profile"], ["play", "preset:impact.heavy"], ["conformance"],
        ["doctor", "--port", "/dev/nope"],
    ]

    /// The same commands naming a file, folder or port that does not exist, and the documented
    /// status: 1 for an input that does not load, 64 for a `bench` or `profile` folder that is not
    /// there (a bad command line, docs/cli.md).
    static let missingInputs: [([String], Int32)] = [
        (["inspect", "/nope/missing.ahap"], 1), (["compile", "/nope/missing.ahap"], 1), (["bench", "/nope/folder"], 64),
        (["profile", "--corpus", "/nope/folder"], 64), (["play", "/nope/missing.ahap"], 1),
        (["conformance", "--port", "/dev/nope"], 1), (["doctor", "--port", "/dev/nope"], 1),
    ]

    /// The one document on standard output, parsed (two documents, or none, do not parse).
    static func document(_ output: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [String: Any], "not one JSON object: \(output)")
    }

    /// A `haptic-error/1` document names the status the command exited with, and its message.
    static func checkFailure(_ root: [String: Any], status: Int32?, errors: String) {
        guard root["schema"] as? String == "haptic-error/1" else { return }
        let error = root["error"] as? [String: Any]
        #expect(error?["status"] as? Int == status.map(Int.init))
        let message = error?["message"] as? String ?? ""
        #expect(!message.isEmpty && errors.contains(message), "\(message) not in \(errors)")
    }

    @Test(arguments: commands)
    func aBadOptionPrintsOneDocument(arguments: [String]) throws {
        let run = try HapticProcess.run(arguments + ["--no-such-option", "--json"], timeout: 30)
        #expect(run.status == 64, "\(run.errors)")
        let root = try Self.document(run.output)
        #expect((root["error"] as? [String: Any])?["status"] as? Int == 64, "\(run.output)")
        Self.checkFailure(root, status: run.status, errors: run.errors)
    }

    @Test(arguments: missingInputs)
    func aMissingInputPrintsOneDocument(arguments: [String], status: Int32) throws {
        let run = try HapticProcess.run(arguments + ["--json"], timeout: 60)
        #expect(run.status == status, "\(run.errors)")
        let root = try Self.document(run.output)
        Self.checkFailure(root, status: run.status, errors: run.errors)
    }

    /// A mistyped command with `--json` still prints the document; `--help` prints none (exit 0).
    @Test func anUnknownCommandPrintsOneDocument() throws {
        let run = try HapticProcess.run(["plya", "--json"], timeout: 30)
        #expect(run.status == 64)
        let root = try Self.document(run.output)
        #expect(root["command"] is NSNull)
        Self.checkFailure(root, status: run.status, errors: run.errors)
        let help = try HapticProcess.run(["bench", "--help", "--json"], timeout: 30)
        #expect(help.status == 0)
        #expect(!help.output.contains("haptic-error/1"))
    }
}
