import HapticPattern

/// Where and how one entry of a set plays, with the numbers a device gets (docs/channels.md):
/// what `haptic compile SET.json --json` writes for each entry.
public struct HapticSetPlacement: Sendable, Encodable {
    /// `channels[2]`.
    public var path: String
    @Nullable public var name: String?
    public var board: Int
    public var channel: Int
    /// The file, `preset:NAME` or `inline`.
    public var pattern: String
    /// The profile the entry compiles for (its `actuator`, or the default).
    public var actuator: String
    public var gain: Double
    /// PLAY's scale code m: round(255 * gain).
    public var scale: Int
    public var offset: Double
    /// round(offset * rate): the entry's start, in ticks after the set's start.
    public var startTick: Int
    public var mix: String
    public var priority: Int
    /// PLAY's duck code: round(255 * duck).
    public var duck: Int
    @Nullable public var location: String?

    public init(_ entry: HapticSet.Entry, index: Int, profile: String, rate: Double) {
        path = "channels[\(index)]"
        name = entry.name
        board = entry.board
        channel = entry.channel
        pattern = entry.patternLabel
        actuator = profile
        gain = entry.gain
        scale = entry.scaleCode
        offset = entry.offset
        startTick = entry.startTick(rate: rate)
        mix = entry.mix.rawValue
        priority = entry.priority
        duck = entry.duckCode
        location = entry.location
    }

    /// `channels[1] (hit right): board 0 channel 1, preset:impact.heavy for lra-235hz-8mm, gain 0.8 (scale 204), from tick 300`.
    public var summary: String {
        let label = name.map { " (\($0))" } ?? ""
        var text =
            "\(path)\(label): board \(board) channel \(channel), \(pattern) for \(actuator), gain \(gain) (scale \(scale)), from tick \(startTick)"
        if mix != HapticSet.Mix.sum.rawValue || priority != 0 { text += ", mix \(mix), priority \(priority)" }
        if let location { text += ", at \(location)" }
        return text
    }
}
