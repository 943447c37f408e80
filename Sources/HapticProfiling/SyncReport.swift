import HapticCompiler

/// What the sync profiler measured (`SyncProfiler`, `haptic profile --sync`, schema
/// haptic-profile-sync/1, docs/performance.md "Start skew across boards"): how far apart the
/// boards of a group started and ended, electrically and felt, and where the skew comes from.
public struct SyncReport: Sendable, Encodable {
    public var schema = "haptic-profile-sync/1"

    /// Percentiles of a skew over the plays, microseconds (nearest rank).
    public struct Skew: Sendable, Encodable, Hashable {
        public var count: Int
        public var p50Us: Double
        public var p99Us: Double
        public var maxUs: Double

        public init(seconds: [Double]) {
            let sorted = seconds.map { $0 * 1_000_000 }.sorted()
            count = sorted.count
            p50Us = Percentile.nearestRank(50, ofSorted: sorted)
            p99Us = Percentile.nearestRank(99, ofSorted: sorted)
            maxUs = sorted.last ?? 0
        }
    }

    /// Electrical skew (the spread of the boards' first ticks, or last, on the host clock) with
    /// the felt one beside it (the spread of the predicted felt onsets: start plus each board's
    /// onset on its actuator; at the end, the end plus the same onset, the motors' run-down
    /// being alike on alike actuators).
    public struct Skews: Sendable, Encodable {
        public var p50Us: Double
        public var p99Us: Double
        public var maxUs: Double
        public var count: Int
        public var felt: Skew

        init(electrical: [Double], felt: [Double]) {
            let skew = Skew(seconds: electrical)
            p50Us = skew.p50Us
            p99Us = skew.p99Us
            maxUs = skew.maxUs
            count = skew.count
            self.felt = Skew(seconds: felt)
        }
    }

    /// Where the start skew comes from, each a spread across the boards per play.
    public struct Breakdown: Sendable, Encodable {
        /// The error bound of the measurement itself: the two largest estimate bounds at the start
        /// ticks (the skew measured is within this of the true one).
        public var estimateBound: Skew
        /// Ticks are whole: each board starts on the tick nearest its target (within half a tick).
        public var tickQuantisation: Skew
        /// How far the estimate that scheduled each start was from the later one that measured it
        /// (scheduling error from the clock estimate: offset error and rate error over the lead).
        public var estimateError: Skew
        /// The spread of the actuators' felt onsets (seconds from tick 0 to 50 % of the first
        /// peak): how far apart the boards must start electrically for their onsets to coincide.
        public var actuatorOnset: Skew
    }

    /// One board as estimated at the end of the run.
    public struct Board: Sendable, Encodable {
        public var port: String
        public var actuatorProfile: String
        public var ratePpm: Double
        public var ratePpmBound: Double
        public var offsetBoundUs: Double
        public var feltOnsetMs: Double?
    }

    /// The long play's own figures (its end is where rate errors show).
    public struct LongPlay: Sendable, Encodable {
        public var seconds: Double
        public var startSkewUs: Double
        public var endSkewUs: Double
        public var feltEndSkewUs: Double
    }

    public var boards: [Board]
    public var plays: Int
    public var alignment: String
    /// Each board's pattern was stretched by its estimated rate (`HapticDeviceGroup.play(compensatingRates:)`).
    public var rateCompensation: Bool
    public var startSkew: Skews
    public var endSkew: Skews
    public var breakdown: Breakdown
    public var longPlay: LongPlay?
    /// Plays where a board's acknowledged start tick was not the one asked for (the PLAY came
    /// late, or the output stage was cold).
    public var lateStarts: Int
    public var notes: [String]
}
