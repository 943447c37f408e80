import HapticPattern

/// The document `--json` prints when a command fails before printing its own (docs/cli.md, "JSON
/// output"): a bad command line, an input that does not load, a port that does not open. The
/// entry point prints it once, so no command needs its own copy of this error path.
struct FailureDocument: Encodable {
    struct Failure: Encodable {
        let status: Int32
        let message: String
    }
    let schema = "haptic-error/1"
    /// The subcommand, or null when the command line did not name one.
    @Nullable var command: String?
    let error: Failure

    /// Prints the document when `arguments` ask for `--json`, the exit status is not 0 and the
    /// command printed nothing. `message` is the line on standard error, without its `Error: `.
    static func printIfMissing(arguments: [String], status: Int32, message: String) {
        guard status != 0, arguments.contains("--json"), !ReportOutput.written.isSet else { return }
        let known = Haptic.configuration.subcommands.map { $0._commandName }
        let command = arguments.first { known.contains($0) }
        let text = message.split(separator: "\n").first.map { String($0) } ?? ""
        var line = text.hasPrefix("Error: ") ? String(text.dropFirst("Error: ".count)) : text
        // A command that wrote its own line to standard error exits by status alone.
        if line.isEmpty { line = "exit status \(status): the reason is on standard error" }
        let document = FailureDocument(command: command, error: Failure(status: status, message: line))
        if let json = try? reportJSON(document) { emit(json) }
    }
}
