import HapticPattern
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
        /// The actuator profile the felt onset runs through, and where the drive came from:
        /// "recorded output" (the virtual device's samples) or "model prediction" (the compiled
        /// program through the model, for a board on a port).
        var actuatorProfile, feltSource: String
        /// Felt onset per kind of play (docs/performance.md, "Felt onset").
        var feltOnset: FeltOnsets
        /// Prepared felt onset (50 %) p99 over prepared first-output p99.
        var feltToFirstOutputRatio: Double
        /// Felt lag of the prepared plays and its floor (docs/performance.md, "Felt lag and its floor").
        var feltLag, feltFloor: FeltLagSummary
        /// Prepared plays whose drive never got to half the level within 100 ms (counted as 100 ms).
        var feltLagUnreached: [String]
        var samples: Samples
        /// `--max-p99`, `--min-speedup`: empty when none was given.
        var gates: [Gate] = []

        struct Summary: Encodable {
            var count: Int
            var p50Ms, p90Ms, p99Ms, maxMs, meanMs: Double
        }

        struct FeltOnsets: Encodable {
            var prepared, uploadThenPlay: Felt
            @Nullable var unpreparedCold: Felt?
        }

        /// From the play call to 50 % and to 90 % of the first peak, and where the time goes.
        struct Felt: Encodable {
            var felt50, felt90: Summary
            var breakdown: Breakdown
        }

        /// Medians over the plays; `tick_wait_ms` is half a tick (the mean over arrival phases),
        /// `host_ms` the rest of the time to the start tick.
        struct Breakdown: Encodable {
            var hostMs, lineMs, tickWaitMs, wakeUpMs, firstOutputMs, rise50Ms, felt50Ms, rise90Ms, felt90Ms: Double
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
            /// From the first output tick to 50 % and 90 % of the first peak; null if the actuator does not move.
            @Nullable var rise50Ms: Double?
            @Nullable var rise90Ms: Double?
            var wakeUpMs: Double
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
                Sample(
                    pattern: $0.pattern, latencyMs: $0.latency * 1000, programBytes: $0.programBytes, uncertaintyMs: $0.uncertainty * 1000,
                    rise50Ms: $0.rise.map { $0.rise50 * 1000 }, rise90Ms: $0.rise.map { $0.rise90 * 1000 }, wakeUpMs: $0.wakeUp * 1000)
            }
        }
        func felt(_ list: [LatencyReport.Sample]) -> Felt {
            let b = report.breakdown(list)
            return Felt(
                felt50: summary(report.feltSummary(list, level: 50)), felt90: summary(report.feltSummary(list, level: 90)),
                breakdown: Breakdown(
                    hostMs: b.host * 1000, lineMs: b.line * 1000, tickWaitMs: b.tickWait * 1000, wakeUpMs: b.wakeUp * 1000,
                    firstOutputMs: b.firstOutput * 1000, rise50Ms: b.rise50 * 1000, felt50Ms: b.felt50 * 1000,
                    rise90Ms: b.rise90 * 1000, felt90Ms: b.felt90 * 1000))
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
        actuatorProfile = report.actuatorProfile
        feltSource = report.feltFromRecordedOutput ? "recorded output" : "model prediction"
        feltOnset = FeltOnsets(
            prepared: felt(report.prepared), uploadThenPlay: felt(report.uploadThenPlay),
            unpreparedCold: report.unpreparedCold.isEmpty ? nil : felt(report.unpreparedCold))
        feltToFirstOutputRatio = report.feltToFirstOutputRatio
        feltLag = report.feltLag
        feltFloor = report.feltFloor
        feltLagUnreached = report.feltLagUnreached
        samples = Samples(
            prepared: plays(report.prepared), uploadThenPlay: plays(report.uploadThenPlay),
            unpreparedCold: plays(report.unpreparedCold))
    }
}
