/// What `haptic inspect` reports of AHAP files (schema haptic-inspect/2, docs/ahap.md): each file's
/// summary (`AHAPSummary`), warnings or one-line error, and load timing, as plain data for a JSON
/// document; the command prints its text from it.
public struct InspectReport: Encodable {
    /// One per argument, in argument order.
    public var files: [File]
    /// "lenient" or "strict".
    public var mode: String
    public let schema = "haptic-inspect/2"

    public init(files: [File], mode: String) {
        self.files = files
        self.mode = mode
    }

    public struct File: Encodable {
        @Nullable public var error: LoadError?
        public var file: String
        public var ok: Bool
        @Nullable public var summary: Summary?
        @Nullable public var timing: Timing?
        /// All of them (the text output shows the first `Inspect.warningsShown`).
        public var warnings: [Warning]

        /// A file as loaded: its document (nil when it did not load) or its error, and its timing.
        public init(file: String, document: AHAPDocument?, error: AHAPError?, timing: Timing?) {
            self.file = file
            ok = document != nil
            self.error = error.map(LoadError.init)
            summary = document.map { Summary(AHAPSummary($0.pattern)) }
            self.timing = timing
            warnings = (document?.warnings ?? []).map(Warning.init)
        }
    }

    public struct LoadError: Encodable {
        @Nullable public var column: Int?
        /// The one-line error.
        public var description: String
        @Nullable public var line: Int?
        public var message: String
        @Nullable public var path: String?

    }

    public struct Summary: Encodable {
        public var curves: Curves
        public var duration: Double
        // "Ids", not "IDs": the snake_case conversion would write `dynamic_parameter_i_ds`.
        public var dynamicParameterIds, eventParameterIds: [String]
        public var events: Events
        public var parameterSteps: Counts
    }

    public struct Curves: Encodable {
        /// Curves per dynamic parameter ID that occurs.
        public var byID: [String: Int]
        public var controlPoints: Int
        public var list: [Curve]
        public var total: Int
    }

    public struct Curve: Encodable {
        public var parameterID: String
        public var points: Int
        public var time: Double
    }

    public struct Events: Encodable {
        /// All four event types, 0 when absent.
        public var byType: [String: Int]
        public var total: Int
    }

    /// Parameter steps per ID that occurs, and their total.
    public struct Counts: Encodable {
        public var byID: [String: Int]
        public var total: Int
    }

    /// Wall-clock seconds, and the decoding thread's CPU seconds.
    public struct Timing: Encodable {
        public var bytes: Int
        public var decodeCPUSecondsBest, decodeSecondsBest, decodeSecondsMedian, readSeconds: Double
        public var runs: Int
    }

    public struct Warning: Encodable {
        public var kind, message, path: String

        /// A decoder's repair or note, as reported.
        public init(_ warning: AHAPWarning) {
            kind = warning.kind.rawValue
            message = warning.message
            path = warning.path
        }
    }
}

extension InspectReport.Summary {
    /// What a pattern holds, as reported.
    public init(_ summary: AHAPSummary) {
        func byName<ID: RawRepresentable<String>>(_ counts: [ID: Int]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
        }
        curves = InspectReport.Curves(
            byID: byName(summary.curveCounts), controlPoints: summary.controlPointCount,
            list: summary.curves.map { InspectReport.Curve(parameterID: $0.id.rawValue, points: $0.points, time: $0.time) },
            total: summary.curves.count)
        duration = summary.duration
        dynamicParameterIds = summary.dynamicParameterIDs.map(\.rawValue)
        eventParameterIds = summary.eventParameterIDs.map(\.rawValue)
        events = InspectReport.Events(byType: byName(summary.eventCounts), total: summary.eventCount)
        parameterSteps = InspectReport.Counts(byID: byName(summary.stepCounts), total: summary.stepCount)
    }
}

extension InspectReport.LoadError {
    /// The error as reported.
    public init(_ error: AHAPError) {
        self.init(column: error.column, description: error.description, line: error.line, message: error.message, path: error.path)
    }
}

extension InspectReport.Timing {
    /// A load's timing: the fastest decode on each clock, the median wall-clock decode, the runs.
    public init(_ timing: AHAPLoadTiming, median: Double) {
        self.init(
            bytes: timing.bytes, decodeCPUSecondsBest: timing.bestCPU, decodeSecondsBest: timing.best, decodeSecondsMedian: median,
            readSeconds: timing.readSeconds, runs: timing.decodeSeconds.count)
    }
}
