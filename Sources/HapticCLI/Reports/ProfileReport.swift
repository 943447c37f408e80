import SerialBridge

extension Profile {
    /// What `haptic profile` reports (without `--mcu`): `--json` encodes it (schema
    /// haptic-profile/2, docs/cli.md), the text is printed from it. Times in milliseconds.
    struct Report: Encodable {
        let schema = "haptic-profile/2"
        /// The port, or "virtual device on PATH".
        var target, corpus: String
        /// Patterns that decoded.
        var patterns: Int
        /// Left out because they never sound.
        var silentPatterns: [String]
        var baud, tickRate, playFrameBytes: Int
        /// The PLAY frame's line time, and that plus one tick.
        var linkTimeMs, lowerBoundMs: Double
        /// Prepared p99 must be within this (the lower bound plus 1 ms).
        var preparedTargetMs: Double
        var prepared, uploadThenPlay: Summary
        var speedupAtCorpusMedian: Double
        /// With `--cold` only.
        @Nullable var unpreparedCold: Summary?
        @Nullable var coldSpeedupAtCorpusMedian: Double?
        var meetsLatencyTarget: Bool
        /// With `--cold` only: the 10x target is about unprepared plays from a cold stage.
        @Nullable var meetsSpeedupTarget: Bool?
        var samples: Samples
        /// `--max-p99`, `--min-speedup`: empty when none was given.
        var gates: [Gate] = []

        struct Summary: Encodable {
            var count: Int
            var p50Ms, p90Ms, p99Ms, maxMs, meanMs: Double
        }

        struct Samples: Encodable {
            var prepared, uploadThenPlay, unpreparedCold: [Sample]
        }

        struct Sample: Encodable {
            var pattern: String
            var latencyMs: Double
            var programBytes: Int
            /// The clock estimate's error bound.
            var uncertaintyMs: Double
        }
    }
}

extension Profile.Report {
    init(_ report: LatencyReport, target: String, corpus: String, patterns: Int) {
        func summary(_ s: LatencyReport.Summary) -> Summary {
            Summary(count: s.count, p50Ms: s.p50, p90Ms: s.p90, p99Ms: s.p99, maxMs: s.max, meanMs: s.mean)
        }
        func plays(_ list: [LatencyReport.Sample]) -> [Sample] {
            list.map {
                Sample(pattern: $0.pattern, latencyMs: $0.latency * 1000, programBytes: $0.programBytes, uncertaintyMs: $0.uncertainty * 1000)
            }
        }
        self.target = target
        self.corpus = corpus
        self.patterns = patterns
        silentPatterns = report.silentPatterns
        baud = report.baudRate
        tickRate = Int(report.rate)
        playFrameBytes = report.playFrameBytes
        linkTimeMs = report.linkTime * 1000
        lowerBoundMs = report.lowerBound * 1000
        preparedTargetMs = report.preparedTarget * 1000
        prepared = summary(report.preparedSummary)
        uploadThenPlay = summary(report.uploadThenPlaySummary)
        speedupAtCorpusMedian = report.speedupAtCorpusMedian
        unpreparedCold = report.unpreparedColdSummary.map(summary)
        coldSpeedupAtCorpusMedian = report.coldSpeedupAtCorpusMedian
        meetsLatencyTarget = report.meetsLatencyTarget
        meetsSpeedupTarget = report.meetsSpeedupTarget
        samples = Samples(
            prepared: plays(report.prepared), uploadThenPlay: plays(report.uploadThenPlay),
            unpreparedCold: plays(report.unpreparedCold))
    }
}
