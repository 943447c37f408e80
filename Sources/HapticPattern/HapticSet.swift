/// A multi-channel pattern: the `haptic-set/1` document (docs/channels.md). Each entry plays one
/// pattern on one channel of one board, with its own gain, start offset, mixing mode and priority;
/// several entries on the same (board, channel) are overlapping players (PROTOCOL-3.md 3.3, 3.6).
///
///     let set = try HapticSetDecoder().decode(contentsOfFile: "Examples/sets/two-handles.json").set
///     let rendering = HapticSetRenderer.render(set)       // one envelope per (board, channel)
public struct HapticSet: Sendable, Hashable {
    /// The value of the `format` key this version reads and writes.
    public static let format = "haptic-set/1"

    /// Optional title (`name`).
    public var name: String?
    /// The `channels` list, in file order.
    public var entries: [Entry]

    public init(name: String? = nil, entries: [Entry]) {
        self.name = name
        self.entries = entries
    }

    /// Where an entry's pattern comes from: what the encoder writes back.
    public enum Source: Sendable, Hashable {
        /// An AHAP file, as written in the set (relative to the set file's folder unless absolute).
        case file(String)
        /// `preset:NAME` (NAME as `Preset.named` takes it, `@VALUE` included).
        case preset(String)
        /// An AHAP object written inside the set.
        case inline
    }

    /// How an entry's intensity combines with the others on its channel (PROTOCOL-3.md 3.6).
    public enum Mix: String, Sendable, Hashable, CaseIterable {
        /// Added to the other SUM entries; the sum saturates at full scale.
        case sum
        /// Never stacks: the channel takes the larger of the SUM total and each MAX entry.
        case max
    }

    /// One entry of `channels`.
    public struct Entry: Sendable, Hashable {
        /// Optional label (`name`).
        public var name: String?
        /// Device index in a rig of several boards (`board`, default 0).
        public var board: Int
        /// Channel index on its board (`channel`), 0...15 (PROTOCOL-3.md 3.2).
        public var channel: Int
        public var source: Source
        /// The loaded pattern (from the file, the preset or the inline object).
        public var pattern: HapticPattern
        /// Actuator profile name; nil: the one another entry on the channel names, else the device's
        /// profile for that channel, or the tool's default. Entries on one channel never name two.
        public var actuator: String?
        /// 0...1, multiplies the entry's intensity (quantized as the device's scale: `scaleCode`).
        public var gain: Double
        /// Seconds from the set's start to the entry's start, >= 0.
        public var offset: Double
        public var mix: Mix
        /// 0...255; an entry ducks the lower-priority entries on its channel while it plays.
        public var priority: Int
        /// 0...1: the gain this entry leaves to lower-priority entries while it plays (1: no ducking).
        public var duck: Double
        /// Body location (`HapticSet.locations`), if given.
        public var location: String?

        public init(
            name: String? = nil, board: Int = 0, channel: Int, source: Source, pattern: HapticPattern,
            actuator: String? = nil, gain: Double = 1, offset: Double = 0, mix: Mix = .sum, priority: Int = 0,
            duck: Double = 1, location: String? = nil
        ) {
            self.name = name
            self.board = board
            self.channel = channel
            self.source = source
            self.pattern = pattern
            self.actuator = actuator
            self.gain = gain
            self.offset = offset
            self.mix = mix
            self.priority = priority
            self.duck = duck
            self.location = location
        }

        /// Its (board, channel).
        public var address: ChannelAddress { ChannelAddress(board: board, channel: channel) }

        /// What to call the pattern in messages: the file, `preset:NAME`, or `inline`.
        public var patternLabel: String {
            switch source {
            case .file(let path): return path
            case .preset(let name): return HapticSet.presetPrefix + name
            case .inline: return "inline"
            }
        }

        /// The play's scale code m (PROTOCOL-3.md 3.6) for `gain`: round(255 * gain), halves up.
        public var scaleCode: Int { HapticSet.code(gain) }
        /// The duck level code for `duck`, by the same rule.
        public var duckCode: Int { HapticSet.code(duck) }

        /// The tick at which the entry starts, counted from the set's start: round(offset * rate), halves up.
        public func startTick(rate: Double) -> Int { Int((offset * rate + 0.5).rounded(.down)) }
    }

    /// (board, channel) pairs in use, sorted by board, then channel.
    public var channels: [ChannelAddress] {
        Array(Set(entries.map(\.address))).sorted()
    }

    /// The actuator profile the entries on `address` name (the reader makes them agree), or nil.
    public func actuator(for address: ChannelAddress) -> String? {
        entries.first { $0.address == address && $0.actuator != nil }?.actuator
    }

    public static let presetPrefix = "preset:"

    /// Channels per board (PROTOCOL-3.md 3.2: 1 to 16) and the largest board index a set may name.
    public static let channelRange = 0...15
    public static let boardRange = 0...255
    public static let priorityRange = 0...255

    /// A 0...1 value as an 8-bit code: round(255 * value), halves up (values are clamped first).
    public static func code(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int((min(max(value, 0), 1) * 255 + 0.5).rounded(.down))
    }

    /// The factor a code applies, as the device does: m' / 256 with m' = m + (m >> 7) (PROTOCOL.md 1.11),
    /// so 255 is exactly 1 and 0 is 0.
    public static func factor(code: Int) -> Double { Double(code + (code >> 7)) / 256 }

    /// Accepted `location` values: a body part, optionally with `-left` or `-right`. The parts are
    /// MPEG-I haptics' (ISO/IEC 23090-31) semantic body-part names in lower case with `-` for spaces,
    /// plus `wrist` and `back`, which it has no name for and wearables need.
    public static let bodyParts: [String] = [
        "head", "crane", "neck", "chest", "back", "waist",
        "arm", "upper-arm", "forearm", "wrist", "hand", "palm", "finger",
        "thumb", "index", "middle", "ring", "pinky",
        "leg", "thigh", "calf", "foot", "sole", "toe",
        "hallux", "index-toe", "middle-toe", "ring-toe", "pinky-toe",
    ]

    /// True for a body part alone or with a `-left` / `-right` suffix (exact, lower case).
    public static func isLocation(_ text: String) -> Bool {
        if bodyParts.contains(text) { return true }
        for side in ["-left", "-right"] where text.hasSuffix(side) {
            if bodyParts.contains(String(text.dropLast(side.count))) { return true }
        }
        return false
    }
}
