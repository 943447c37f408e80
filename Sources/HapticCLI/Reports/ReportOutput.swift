import Foundation

/// Where the report commands write their output (the JSON document or the text printed from the
/// same report): standard output, unless a test has bound `capture` to read it in-process. The
/// binding is task-local, so tests running in parallel do not mix their output. Errors and
/// progress go to standard error as before.
enum ReportOutput {
    @TaskLocal static var capture: (@Sendable (String) -> Void)?
    /// Set by the first report output, so the entry point knows a `--json` document was printed.
    static let written = WrittenFlag()
}

/// A flag any task may set: standard output is shared by the whole process.
final class WrittenFlag: @unchecked Sendable {  // `value` behind `lock`
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// `print` for report output.
func emit(_ text: String, terminator: String = "\n") {
    if let capture = ReportOutput.capture {
        capture(text + terminator)
    } else {
        ReportOutput.written.set()
        print(text, terminator: terminator)
    }
}
