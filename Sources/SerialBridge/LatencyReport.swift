import Foundation
import Histogram

/// What the latency profiler measured: distributions (HdrHistogram, microsecond resolution)
/// of both ways of playing, and the physical lower bound of the link.
public struct LatencyReport: Sendable {
    public struct Sample: Sendable, Hashable {
        public var pattern: String
        /// Seconds from the `play` call to the first non-zero output tick, lead-in subtracted.
        public var latency: Double
        public var programBytes: Int
        /// The clock estimate's error bound for this sample, seconds.
        public var uncertainty: Double
    }

    /// The figures of one distribution, in milliseconds.
    public struct Summary: Sendable, Hashable, Codable {
        public var count: Int
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var max: Double
        public var mean: Double
    }

    public var baudRate: Int
    public var rate: UInt16
    /// A PLAY frame on the wire (stuffed, with its delimiter).
    public var playFrameBytes: Int
    public var prepared: [Sample]
    public var uploadThenPlay: [Sample]
    /// Upload-then-play from a cold output stage, one per pattern (`LatencyProfiler.Options.coldPlays`).
    public var unpreparedCold: [Sample] = []
    /// Patterns left out because they never sound (audio only, or intensity 0).
    public var silentPatterns: [String] = []

    /// The PLAY frame's line time: nothing can be faster.
    public var linkTime: Double { Double(playFrameBytes) * 10 / Double(max(1, baudRate)) }
    /// The lower bound with the wait for the next tick (a frame takes effect at the tick after
    /// its last byte, 2.3): between `linkTime` and this.
    public var lowerBound: Double { linkTime + 1 / Double(max(1, rate)) }
    /// The target for prepared plays: p99 within the lower bound plus 1 ms.
    public var preparedTarget: Double { lowerBound + 0.001 }

    public var preparedSummary: Summary { Self.summary(prepared) }
    public var uploadThenPlaySummary: Summary { Self.summary(uploadThenPlay) }
    public var unpreparedColdSummary: Summary? { unpreparedCold.isEmpty ? nil : Self.summary(unpreparedCold) }

    /// Upload-then-play over prepared at the corpus median: the median over patterns of each
    /// pattern's median latency, one way over the other.
    public var speedupAtCorpusMedian: Double {
        let a = Self.corpusMedian(uploadThenPlay), b = Self.corpusMedian(prepared)
        return b > 0 ? a / b : .infinity
    }

    /// Unprepared (cold stage) over prepared at the corpus median; nil when not measured.
    public var coldSpeedupAtCorpusMedian: Double? {
        guard !unpreparedCold.isEmpty else { return nil }
        let a = Self.corpusMedian(unpreparedCold), b = Self.corpusMedian(prepared)
        return b > 0 ? a / b : .infinity
    }

    public var meetsLatencyTarget: Bool { preparedSummary.p99 <= preparedTarget * 1000 }
    /// Prepared at least 10 times faster than unprepared from a cold stage (Core Haptics'
    /// prepare() case) at the corpus median; nil when no cold plays were measured, since the
    /// target is about them, not about a warm upload-then-play.
    public var meetsSpeedupTarget: Bool? { coldSpeedupAtCorpusMedian.map { $0 >= 10 } }

    /// Median over patterns of the per-pattern median, seconds.
    static func corpusMedian(_ samples: [Sample]) -> Double {
        let byPattern = Dictionary(grouping: samples, by: \.pattern).values.map { median($0.map(\.latency)) }
        return median(byPattern)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Percentiles through an HdrHistogram of microseconds (3 significant digits). Negative
    /// latencies (possible only within the clock estimate's error) count as 0.
    static func summary(_ samples: [Sample]) -> Summary {
        var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        for sample in samples {
            _ = histogram.record(UInt64(max(0, (sample.latency * 1e6).rounded())))
        }
        func ms(_ value: UInt64) -> Double { Double(value) / 1000 }
        return Summary(
            count: samples.count, p50: ms(histogram.valueAtPercentile(50)),
            p90: ms(histogram.valueAtPercentile(90)), p99: ms(histogram.valueAtPercentile(99)),
            max: ms(histogram.max), mean: histogram.mean / 1000)
    }
}
