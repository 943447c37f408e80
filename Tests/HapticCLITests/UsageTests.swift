import Foundation
import TestSupport
import Testing

/// Every command of the README's usage section runs as written from the repository root, with the
/// virtual device standing in for `--port /dev/ttyACM0`. The commands run in a scratch folder that
/// links to the repository's contents, so the files they write do not land in the checkout.
@Suite(.serialized) struct UsageTests {
    /// The `haptic ...` lines of the README's "Usage" block, without their comments.
    static let commands: [String] = {
        let readme = (try? String(contentsOf: Repository.url("README.md"), encoding: .utf8)) ?? ""
        guard let usage = readme.range(of: "## Usage") else { return [] }
        let block = readme[usage.upperBound...].split(separator: "```", maxSplits: 2)[1]
        return block.split(separator: "\n").map { line in
            String(line.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces)
        }.filter { $0.hasPrefix("haptic ") }
    }()

    /// A folder that looks like the repository root (links to its entries) but is not it.
    static func scratchRoot() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("haptic-usage-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for entry in ["Examples", "hardware", "firmware-protocol", "Package.swift"] {
            try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent(entry), withDestinationURL: Repository.url(entry))
        }
        return scratch
    }

    @Test func theReadmeListsTheCommands() {
        #expect(Self.commands.count >= 12, "\(Self.commands)")
        #expect(Self.commands.contains { $0.contains("--port /dev/ttyACM0") })
    }

    @Test func everyUsageCommandRunsAsWritten() throws {
        let scratch = try Self.scratchRoot()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let board = try HapticProcess(["emulate", "--seconds", "300"])
        defer { board.send(SIGKILL) }
        let port = try #require(board.waitForPTY(timeout: 30))
        for command in Self.commands {
            let line = command.replacingOccurrences(of: "/dev/ttyACM0", with: port)
            var words = try shellWords(line, in: scratch)
            words.removeFirst()  // "haptic"
            if words.first == "emulate" {
                // Serves until Ctrl-C: it must come up, print its port, and stop cleanly.
                let emulator = try HapticProcess(words, directory: scratch)
                #expect(emulator.waitForPTY(timeout: 120) != nil, "\(command): \(emulator.standardError)")
                emulator.send(SIGINT)
                #expect(emulator.waitForExit(timeout: 20) == 0, "\(command): \(emulator.standardError)")
                #expect(emulator.standardOutput.contains("stopped after"), "\(command)")
                continue
            }
            let result = try HapticProcess.run(words, timeout: 240, directory: scratch)
            #expect(result.status == 0, "\(command) exited \(result.status.map(String.init) ?? "late"): \(result.errors)")
            #expect(!result.output.isEmpty, "\(command) printed nothing")
        }
        for written in ["splash.svg", "splash.png", "success.ahap"] {
            #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent(written).path), "\(written)")
        }
    }

    /// The line's words after the shell's glob expansion (`Examples/*.ahap`), from `/bin/sh`.
    func shellWords(_ line: String, in directory: URL) throws -> [String] {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "for word in \(line); do printf '%s\\n' \"$word\"; done"]
        shell.currentDirectoryURL = directory
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
