import FirmwareModel
import Foundation
import HapticBridge
import HapticCompiler
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
        /// Seconds from the `play` call to the host time of the play's start tick (its tick 0).
        public var toStart: Double = 0
        /// Seconds from the start tick to the first output beyond the program's own lead-in: the
        /// output stage waking up (0 on a warm stage).
        public var wakeUp: Double = 0
        /// The actuator's rise from the first output tick (`FeltRise`); nil if it does not move.
        public var rise: FeltRise?
        /// Seconds felt later than intended (`FeltTarget`, docs/performance.md "Felt lag and its
        /// floor"); nil when the pattern has no felt target on the profile.
        public var feltLag: Double? = nil
        /// False when the drive did not reach half the level within the peak window (the lag is
        /// then counted to the window's end).
        public var feltLagReached = false
        /// The floor less its transport time (the report adds the link's lower bound).
        public var floorBeyondTransport: Double? = nil

        /// Seconds from the `play` call to 50 % and 90 % of the first peak, lead-in subtracted
        /// (docs/performance.md, "Felt onset").
        public var felt50: Double? { rise.map { latency + $0.rise50 } }
        public var felt90: Double? { rise.map { latency + $0.rise90 } }
    }

    /// Where the time of one kind of play goes, medians over its plays, seconds; the parts add up
    /// to `felt90` (medians of parts need not add up exactly to the median of the whole).
    public struct Breakdown: Sendable, Hashable {
        /// The host: the session, the OS and the driver until the PLAY frame is on the line (what
        /// remains of the time to the start tick after the line time and the wait for the tick).
        public var host: Double
        /// The PLAY frame's line time at the baud rate.
        public var line: Double
        /// The wait for the tick after the frame's last byte: half a tick, the mean over the
        /// frame's arrival phase (a host cannot see the phase of one play).
        public var tickWait: Double
        public var wakeUp: Double
        /// Milestones from the play call: the first output tick, 50 % and 90 % of the first peak.
        public var firstOutput: Double
        public var felt50: Double
        public var felt90: Double
        /// Rise from the first output tick to 50 % and to 90 %.
        public var rise50: Double
        public var rise90: Double
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
    /// The actuator profile the felt onset was computed for.
    public var actuatorProfile: String = ""
    /// True when the felt onset ran through the device's recorded output (the virtual device),
    /// false when through the model's output for the compiled program (a board on a port).
    public var feltFromRecordedOutput = false

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

    /// Felt lag and its floor over the prepared plays (docs/performance.md, "Felt lag and its
    /// floor"); the floor's only transport time is the PLAY frame's line time, `linkTime`.
    public var feltLag: FeltLagSummary { FeltLagSummary(seconds: prepared.compactMap(\.feltLag)) }
    public var feltFloor: FeltLagSummary { FeltLagSummary(seconds: prepared.compactMap { $0.floorBeyondTransport.map { $0 + linkTime } }) }
    /// Prepared plays whose drive did not reach half the level within the peak window.
    public var feltLagUnreached: [String] { prepared.filter { $0.feltLag != nil && !$0.feltLagReached }.map(\.pattern) }

    /// Felt onset (50 % and 90 % of the first peak) of each kind of play, and where its time goes.
    public func feltSummary(_ samples: [Sample], level: Int) -> Summary {
        Self.summary(seconds: samples.compactMap { level == 90 ? $0.felt90 : $0.felt50 })
    }

    public func breakdown(_ samples: [Sample]) -> Breakdown {
        let tickWait = 0.5 / Double(max(1, rate))
        func med(_ f: (Sample) -> Double?) -> Double { Self.median(samples.compactMap(f)) }
        return Breakdown(
            host: med { $0.toStart - $0.wakeUp } - linkTime - tickWait, line: linkTime, tickWait: tickWait,
            wakeUp: med(\.wakeUp), firstOutput: med(\.latency), felt50: med(\.felt50), felt90: med(\.felt90),
            rise50: med { $0.rise?.rise50 }, rise90: med { $0.rise?.rise90 })
    }

    /// Felt onset (50 %) p99 of prepared plays over their first-output p99.
    public var feltToFirstOutputRatio: Double {
        let felt = feltSummary(prepared, level: 50).p99, first = preparedSummary.p99
        return first > 0 ? felt / first : .infinity
    }

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

    static func median(_ values: [Double]) -> Double { Percentile.median(values) }

    /// Percentiles through an HdrHistogram of microseconds (3 significant digits: the nearest
    /// rank of `Percentile` on values rounded to their bucket, docs/performance.md). Negative
    /// latencies (possible only within the clock estimate's error) count as 0.
    static func summary(_ samples: [Sample]) -> Summary { summary(seconds: samples.map(\.latency)) }

    static func summary(seconds: [Double]) -> Summary {
        var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        for value in seconds {
            _ = histogram.record(UInt64(max(0, (value * 1e6).rounded())))
        }
        func ms(_ value: UInt64) -> Double { Double(value) / 1000 }
        return Summary(
            count: seconds.count, p50: ms(histogram.valueAtPercentile(50)),
            p90: ms(histogram.valueAtPercentile(90)), p99: ms(histogram.valueAtPercentile(99)),
            max: ms(histogram.max), mean: histogram.mean / 1000)
    }
}
