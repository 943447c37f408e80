/// The reference rendering of a haptic set: one intensity and sharpness envelope per (board,
/// channel) on the tick grid, each entry's `ReferenceRenderer` output placed at its start tick,
/// scaled by its gain and ducking, and combined by PROTOCOL-3.md 3.6's mixing rule in continuous
/// values (docs/channels.md, "Rendering"):
///
///     I_e(k)  = (m'_e / 256) * (G_e(k) / 256) * I(k - start_e)     m_e = round(255 * gain), m' = m + (m >> 7)
///     I(k)    = max( min(1, sum of I_e over SUM entries), largest I_e over MAX entries )
///     S(k)    = sum of I_e * S_e / sum of I_e                       over entries with I_e > 0; 0 when none
///
/// G_e is 3.7's gain: 256 at the entry's start, moving each tick toward its target by at most
/// ceil(256 / fadeTicks); the target is the smallest duck factor m'(duck code) among the entries on
/// the channel with a higher priority that are playing at that tick (256 when there is none).
public enum HapticSetRenderer {
    /// The default fade length of PROTOCOL-3.md 3.7 (SET_CONFIG key 3).
    public static let defaultFadeTicks = 8

    public static func render(_ set: HapticSet, rate: Double = 1000, fadeTicks: Int = defaultFadeTicks) -> HapticSetRendering {
        precondition(rate > 0 && rate.isFinite, "render needs a positive rate")
        let players = set.entries.enumerated().map { index, entry in
            Player(
                index: index, entry: entry, start: entry.startTick(rate: rate), samples: ReferenceRenderer(pattern: entry.pattern).render(rate: rate))
        }
        let channels = set.channels.map { address in
            let mine = players.filter { $0.entry.board == address.board && $0.entry.channel == address.channel }
            return HapticSetRendering.Channel(
                address: address, entries: mine.map(\.index), samples: mix(mine, fadeTicks: fadeTicks))
        }
        return HapticSetRendering(rate: rate, channels: channels)
    }

    /// One entry on the tick grid.
    struct Player {
        var index: Int
        var entry: HapticSet.Entry
        var start: Int
        var samples: [RenderedSample]
        var end: Int { start + samples.count }
        var gain: Double { HapticSet.factor(code: entry.scaleCode) }
        var duckFactor: Int { entry.duckCode + (entry.duckCode >> 7) }
        func playing(at k: Int) -> Bool { k >= start && k < end }
    }

    /// The channel's samples from tick 0 to its last entry's end.
    static func mix(_ players: [Player], fadeTicks: Int) -> [RenderedSample] {
        let count = players.map(\.end).max() ?? 0
        let step = fadeTicks <= 0 ? 256 : (256 + fadeTicks - 1) / fadeTicks
        var fade = [Int](repeating: 256, count: players.count)
        var out = [RenderedSample](repeating: .silence, count: count)
        for k in 0..<count {
            var sum = 0.0, largest = 0.0, weight = 0.0, weighted = 0.0
            for (i, player) in players.enumerated() where player.playing(at: k) {
                var target = 256
                for other in players where other.entry.priority > player.entry.priority && other.playing(at: k) {
                    target = min(target, other.duckFactor)
                }
                fade[i] += min(max(target - fade[i], -step), step)
                let sample = player.samples[k - player.start]
                let intensity = player.gain * Double(fade[i]) / 256 * sample.intensity
                guard intensity > 0 else { continue }
                if player.entry.mix == .sum { sum += intensity } else { largest = max(largest, intensity) }
                weight += intensity
                weighted += intensity * sample.sharpness
            }
            let intensity = max(min(sum, 1), largest)
            if intensity > 0 { out[k] = RenderedSample(intensity: intensity, sharpness: weighted / weight) }
        }
        return out
    }
}
