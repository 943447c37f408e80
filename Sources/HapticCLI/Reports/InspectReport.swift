import HapticCompiler
import HapticPattern

extension InspectReport.File {
    init(_ outcome: Inspect.Outcome) {
        self.init(
            file: outcome.file, document: outcome.document, error: outcome.error,
            timing: outcome.timing.map { InspectReport.Timing($0, median: Percentile.median($0.decodeSeconds)) })
    }
}
