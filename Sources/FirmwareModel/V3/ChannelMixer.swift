/// From players to a channel's sample (firmware-protocol/PROTOCOL-3.md 3.6): the mixing rule
/// (SUM saturating at 255 or MAX; amplitude-weighted sharpness), the duck gains of priority, the
/// brake rule and the channel's limiter.
public struct ChannelMixer: Sendable, Hashable {
    /// One contributing player's amp_i, sharp_i and mode.
    public struct Contribution: Sendable, Hashable {
        public var amplitude: UInt8
        public var sharpness: UInt8
        public var sum: Bool

        public init(amplitude: UInt8, sharpness: UInt8, sum: Bool) {
            self.amplitude = amplitude
            self.sharpness = sharpness
            self.sum = sum
        }
    }

    /// The limiter's threshold and N (1.12), per channel (3.2).
    public var safetyThreshold: UInt8
    public var safetyTicks: UInt32
    /// c: consecutive samples of the channel at or above the threshold.
    public private(set) var fullScaleRun: UInt32 = 0

    public init(safetyThreshold: UInt8, safetyTicks: UInt32) {
        self.safetyThreshold = safetyThreshold
        self.safetyTicks = safetyTicks
    }

    /// The mixing rule over the contributing players (amp_i > 0): amp =
    /// max(min(255, sum of the SUM players), largest MAX player); sharp = the amp-weighted mean of
    /// all of them, rounded half up; (0, 0) when none contributes.
    public static func mix(_ contributions: [Contribution]) -> (amplitude: UInt8, sharpness: UInt8) {
        guard !contributions.isEmpty else { return (0, 0) }
        var sum: UInt32 = 0
        var loudest: UInt8 = 0
        var weight: UInt32 = 0
        var weighted: UInt32 = 0
        for c in contributions {
            if c.sum { sum += UInt32(c.amplitude) } else { loudest = max(loudest, c.amplitude) }
            weight += UInt32(c.amplitude)
            weighted += UInt32(c.amplitude) * UInt32(c.sharpness)
        }
        return (max(UInt8(min(sum, 255)), loudest), UInt8((weighted + weight / 2) / weight))
    }

    /// D_i at step n for every PLAYING player on `channel` (by pool index): the least m'(duck)
    /// of the sounding players of higher priority on the channel; 256 when there is none.
    static func duckGains(_ pool: [Player], channel: Int, at n: UInt32, into gains: inout [UInt32]) {
        for (i, p) in pool.enumerated() where p.state == .playing && p.channel == channel {
            var gain: UInt32 = 256
            for (j, q) in pool.enumerated()
            where j != i && q.state == .playing && q.channel == channel && q.isSounding(at: n) && q.priority > p.priority {
                gain = min(gain, Player.scaleFactor(q.duck))
            }
            gains[i] = gain
        }
    }

    /// The limiter's count of this step's mixed amplitude; true when it trips (c > N), which
    /// resets c: every player on the channel then ends with fault 49.
    public mutating func limiterTrips(amplitude: UInt8) -> Bool {
        fullScaleRun = amplitude >= safetyThreshold ? fullScaleRun + 1 : 0
        guard fullScaleRun > safetyTicks else { return false }
        fullScaleRun = 0
        return true
    }

    /// The channel's sample: the mix when it sounds, else the brake sample if a player brakes on
    /// the channel (a transient's end does not brake what still sounds), else silence.
    public static func sample(amplitude: UInt8, sharpness: UInt8, braking: Bool) -> OutputSample {
        if amplitude > 0 { return OutputSample(amplitude: amplitude, sharpness: sharpness) }
        return braking ? OutputSample(amplitude: 0, sharpness: 0, flags: OutputSample.brakeFlag) : .silent
    }
}
