import HapticPattern

extension Inspect {
    /// What `haptic inspect` reports: `--json` encodes it (schema haptic-inspect/2, docs/ahap.md),
    /// the text output is printed from it.
    struct Report: Encodable {
        /// One per argument, in argument order.
        var files: [File]
        /// "lenient" or "strict".
        var mode: String
        let schema = "haptic-inspect/2"

        struct File: Encodable {
            @Nullable var error: LoadError?
            var file: String
            var ok: Bool
            @Nullable var summary: Summary?
            @Nullable var timing: Timing?
            /// All of them (the text output shows the first `Inspect.warningsShown`).
            var warnings: [Warning]
        }

        struct LoadError: Encodable {
            @Nullable var column: Int?
            /// The one-line error.
            var description: String
            @Nullable var line: Int?
            var message: String
            @Nullable var path: String?
        }

        struct Summary: Encodable {
            var curves: Curves
            var duration: Double
            // "Ids", not "IDs": the snake_case conversion would write `dynamic_parameter_i_ds`.
            var dynamicParameterIds, eventParameterIds: [String]
            var events: Events
            var parameterSteps: Counts
        }

        struct Curves: Encodable {
            /// Curves per dynamic parameter ID that occurs.
            var byID: [String: Int]
            var controlPoints: Int
            var list: [Curve]
            var total: Int
        }

        struct Curve: Encodable {
            var parameterID: String
            var points: Int
            var time: Double
        }

        struct Events: Encodable {
            /// All four event types, 0 when absent.
            var byType: [String: Int]
            var total: Int
        }

        /// Parameter steps per ID that occurs, and their total.
        struct Counts: Encodable {
            var byID: [String: Int]
            var total: Int
        }

        /// Wall-clock seconds, and the decoding thread's CPU seconds.
        struct Timing: Encodable {
            var bytes: Int
            var decodeCPUSecondsBest, decodeSecondsBest, decodeSecondsMedian, readSeconds: Double
            var runs: Int
        }

        struct Warning: Encodable {
            var kind, message, path: String
        }
    }
}

extension Inspect.Report.File {
    init(_ outcome: Inspect.Outcome) {
        file = outcome.file
        ok = outcome.document != nil
        error = outcome.error.map {
            Inspect.Report.LoadError(column: $0.column, description: $0.description, line: $0.line, message: $0.message, path: $0.path)
        }
        summary = outcome.document.map { Inspect.Report.Summary(AHAPSummary($0.pattern)) }
        timing = outcome.timing.map {
            Inspect.Report.Timing(
                bytes: $0.bytes, decodeCPUSecondsBest: $0.bestCPU, decodeSecondsBest: $0.best,
                decodeSecondsMedian: $0.median, readSeconds: $0.readSeconds, runs: $0.decodeSeconds.count)
        }
        warnings = (outcome.document?.warnings ?? []).map {
            Inspect.Report.Warning(kind: $0.kind.rawValue, message: $0.message, path: $0.path)
        }
    }
}

extension Inspect.Report.Summary {
    init(_ summary: AHAPSummary) {
        func byName<ID: RawRepresentable<String>>(_ counts: [ID: Int]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
        }
        curves = Inspect.Report.Curves(
            byID: byName(summary.curveCounts), controlPoints: summary.controlPointCount,
            list: summary.curves.map { Inspect.Report.Curve(parameterID: $0.id.rawValue, points: $0.points, time: $0.time) },
            total: summary.curves.count)
        duration = summary.duration
        dynamicParameterIds = summary.dynamicParameterIDs.map(\.rawValue)
        eventParameterIds = summary.eventParameterIDs.map(\.rawValue)
        events = Inspect.Report.Events(byType: byName(summary.eventCounts), total: summary.eventCount)
        parameterSteps = Inspect.Report.Counts(byID: byName(summary.stepCounts), total: summary.stepCount)
    }
}
