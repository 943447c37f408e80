import Foundation
import TestSupport

/// The built `haptic` executable run as a user runs it: a real process with its own signals,
/// standard output read line by line, and time limits that catch hangs.
final class HapticProcess: @unchecked Sendable {
    /// `haptic` beside the test bundle (`swift build` builds it with the tests), else in `.build/debug`.
    static let executable: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("haptic").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return Repository.path(".build/debug/haptic")
    }()

    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutText = ""
    private var stderrText = ""

    init(_ arguments: [String], directory: URL = Repository.root, standardInput: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = try standardInput.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        // Both pipes are drained as they fill, so a chatty child never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.lock.withLock { self?.stdoutText += text }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            self?.lock.withLock { self?.stderrText += text }
        }
        try process.run()
    }

    var standardOutput: String { lock.withLock { stdoutText } }
    var standardError: String { lock.withLock { stderrText } }

    /// Polls standard output until `match` finds something, or `timeout` seconds pass (nil).
    func waitForOutput<T>(timeout: Double, _ match: (String) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = match(standardOutput) { return found }
            if !process.isRunning, let found = match(standardOutput) { return found }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return match(standardOutput)
    }

    /// The first pseudo-terminal path the process printed (what `haptic emulate` serves on).
    func waitForPTY(timeout: Double) -> String? {
        waitForOutput(timeout: timeout) { text in
            text.firstMatch(of: /\/dev\/pts\/[0-9]+/).map { String($0.output) }
        }
    }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the exit; nil when it did not exit within `timeout` (the process is then killed).
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else {
            send(SIGKILL)
            process.waitUntilExit()
            return nil
        }
        // Let the readability handlers take the last bytes.
        Thread.sleep(forTimeInterval: 0.05)
        return process.terminationStatus
    }

    /// Runs `haptic ARGUMENTS` to its end (at most `timeout` seconds).
    /// `standardInput`: a file to read as standard input (default: none).
    static func run(_ arguments: [String], timeout: Double, directory: URL = Repository.root, standardInput: String? = nil) throws -> (
        status: Int32?, output: String, errors: String
    ) {
        let child = try HapticProcess(arguments, directory: directory, standardInput: standardInput)
        let status = child.waitForExit(timeout: timeout)
        return (status, child.standardOutput, child.standardError)
    }
}
