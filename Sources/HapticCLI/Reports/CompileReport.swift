import Foundation
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
            /// For an entry of a haptic set: where and how it plays (docs/channels.md); null otherwise.
            @Nullable var entry: HapticSetPlacement?
        }
    }
}

extension Compile.Report.File {
    init(_ outcome: Compile.Outcome) {
        error = outcome.error
        input = outcome.input
        output = outcome.output
        report = outcome.compiled.map { ProgramReport($0.report) }
        entry = outcome.entry
    }
}

extension Compile.Outcome {
    /// An entry of the set `input`; with -o (a folder), its program is written as `<set stem>.<index>.bin`.
    init(set input: String, _ entry: HapticSetCompiler.Entry, output folder: String?) throws {
        self.init(input: input, compiled: entry.compiled, error: entry.error, entry: entry.placement)
        guard let folder, let compiled = entry.compiled, error == nil else { return }
        let stem = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
        let path = (folder as NSString).appendingPathComponent("\(stem).\(entry.placement.path.dropFirst(9).dropLast()).bin")
        try writeOutput(compiled.bytes, to: path)
        output = path
    }
}
