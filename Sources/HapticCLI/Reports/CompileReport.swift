import HapticCompiler
import HapticPattern

extension Compile {
    /// What `haptic compile` reports: `--json` encodes it (schema haptic-compile/2, docs/cli.md),
    /// the text output is printed from it.
    struct Report: Encodable {
        /// One per input, in argument order.
        var files: [File]
        var options: CompileOptionsReport
        var profile: String
        let schema = "haptic-compile/2"

        struct File: Encodable {
            /// The one-line failure.
            @Nullable var error: String?
            var input: String
            /// The program file written, if any.
            @Nullable var output: String?
            /// Null when the input did not load or compile.
            @Nullable var report: ProgramReport?
        }
    }
}

extension Compile.Report.File {
    init(_ outcome: Compile.Outcome) {
        error = outcome.error
        input = outcome.input
        output = outcome.output
        report = outcome.compiled.map { ProgramReport($0.report) }
    }
}
