import Foundation

/// What a finished child process left: its exit status and everything it wrote.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
}

/// Runs `executable` with `arguments` (in `directory` when given) to its end and returns its exit
/// status and both outputs. The two pipes are drained at the same time, stderr on a thread of its
/// own: reading one to its end before the other hangs as soon as the child fills the other pipe
/// (64 KB on Linux) and blocks writing, as make does with a long error log.
public func runProcess(executable: String, arguments: [String], directory: String? = nil) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true) }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorsRead = BackgroundRead(errors.fileHandleForReading)
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errorsRead.wait()
    process.waitUntilExit()
    return ProcessOutput(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

/// Reads a file handle to its end on another thread; `wait()` returns what it read.
private final class BackgroundRead: @unchecked Sendable {
    private var data = Data()  // written by the reading thread before `done` is signalled, read after
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
