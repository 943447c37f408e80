import Foundation
import HapticTransport

/// Builds a board port's firmware with its Makefile (hardware/firmware/boards/NAME/Makefile) and
/// returns the ELF's path: `make all`, then `make print-elf`. Builds of one port are serialised
/// across processes with a lock file in the build directory, since tests may build in parallel.
package struct BoardPortMake {
    package enum Failure: Error {
        case cannotRun(String)
        case failed(status: Int32, log: String)
        case noOutput(String)
    }

    /// The folder under hardware/firmware/boards ("atmega328p", "microbit").
    package var board: String
    /// Make variables for both calls (OUTPUT=pwm, VARIANT=...).
    package var variables: [String]

    package init(board: String, variables: [String] = []) {
        self.board = board
        self.variables = variables
    }

    /// Runs make on the port in the checkout at `repositoryRoot`; images go to `buildDirectory`
    /// (default: the checkout's `hardware/firmware/build`).
    package func build(repositoryRoot: String, buildDirectory: String?) throws(Failure) -> String {
        let folder = repositoryRoot + "/hardware/firmware/boards/" + board
        let buildDirectory = buildDirectory ?? repositoryRoot + "/hardware/firmware/build"
        try? FileManager.default.createDirectory(atPath: buildDirectory, withIntermediateDirectories: true)
        let lock = open(buildDirectory + "/.\(board)-build.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0 { flock(lock, LOCK_EX) }
        let arguments = ["-s", "--no-print-directory", "-C", folder] + variables + ["BUILD_ROOT=\(buildDirectory)"]
        _ = try Self.make(arguments + ["all"])
        let path = try Self.make(arguments + ["print-elf"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard FileManager.default.fileExists(atPath: path) else { throw .noOutput(path) }
        return path
    }

    private static func make(_ arguments: [String]) throws(Failure) -> String {
        let result: ProcessOutput
        do {
            result = try runProcess(executable: "/usr/bin/env", arguments: ["make"] + arguments)
        } catch {
            throw .cannotRun("\(error)")
        }
        guard result.status == 0 else {
            throw .failed(status: result.status, log: String(decoding: result.stderr + result.stdout, as: UTF8.self))
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
