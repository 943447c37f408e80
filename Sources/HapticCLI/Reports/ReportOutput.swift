/// Where the report commands write their output (the JSON document or the text printed from the
/// same report): standard output, unless a test has bound `capture` to read it in-process. The
/// binding is task-local, so tests running in parallel do not mix their output. Errors and
/// progress go to standard error as before.
enum ReportOutput {
    @TaskLocal static var capture: (@Sendable (String) -> Void)?
}

/// `print` for report output.
func emit(_ text: String, terminator: String = "\n") {
    if let capture = ReportOutput.capture {
        capture(text + terminator)
    } else {
        print(text, terminator: terminator)
    }
}
