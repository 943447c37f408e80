import HapticCompiler
import HapticPattern

extension InspectReport.File {
    init(_ outcome: Inspect.Outcome) {
        self.init(
            error: outcome.error.map(InspectReport.LoadError.init), file: outcome.file, ok: outcome.document != nil,
            summary: outcome.document.map { InspectReport.Summary(AHAPSummary($0.pattern)) },
            timing: outcome.timing.map {
                InspectReport.Timing(
                    bytes: $0.bytes, decodeCPUSecondsBest: $0.bestCPU, decodeSecondsBest: $0.best,
                    decodeSecondsMedian: Percentile.median($0.decodeSeconds), readSeconds: $0.readSeconds, runs: $0.decodeSeconds.count)
            },
            warnings: (outcome.document?.warnings ?? []).map(InspectReport.Warning.init))
    }
}
