import TestSupport
import Testing

@testable import HapticPattern

/// The per-channel reference rendering of a set (docs/channels.md, "Rendering"), its numeric rules,
/// and properties over generated sets.
@Suite struct HapticSetRendererTests {
    static func constant(_ intensity: Double, _ sharpness: Double, duration: Double) -> HapticPattern {
        HapticPattern(events: [.continuous(at: 0, duration: duration, intensity: intensity, sharpness: sharpness)])
    }

    static func entry(_ channel: Int, _ pattern: HapticPattern, gain: Double = 1, offset: Double = 0, mix: HapticSet.Mix = .sum) -> HapticSet.Entry {
        HapticSet.Entry(channel: channel, source: .inline, pattern: pattern, gain: gain, offset: offset, mix: mix)
    }

    @Test func numericRules() {
        let codes = [1, 0, 0.8, 0.5, 2, -1, .nan].map { HapticSet.code($0) }
        #expect(codes == [255, 0, 204, 128, 255, 0, 0])
        let factors = [255, 204, 0].map { HapticSet.factor(code: $0) }
        #expect(factors == [1, 205.0 / 256, 0])
        let entry = Self.entry(0, HapticPattern(), offset: 0.3)
        #expect(entry.startTick(rate: 1000) == 300)
        #expect(Self.entry(0, HapticPattern(), offset: 0.0005).startTick(rate: 1000) == 1)
        #expect(Self.entry(0, HapticPattern(), offset: 0.0004).startTick(rate: 1000) == 0)
    }

    /// One entry alone at gain 1: exactly its pattern's reference samples, shifted by its start tick.
    @Test func aLoneEntryIsItsPatternShifted() {
        let pattern = HapticPattern(events: [
            .transient(at: 0.01, intensity: 0.9, sharpness: 0.7), .continuous(at: 0.02, duration: 0.05, intensity: 0.5, sharpness: 0.3),
        ])
        let set = HapticSet(entries: [Self.entry(2, pattern, offset: 0.1)])
        let rendering = HapticSetRenderer.render(set)
        let reference = ReferenceRenderer(pattern: pattern).render(rate: 1000)
        #expect(rendering.channels.count == 1 && rendering.channels[0].address == ChannelAddress(board: 0, channel: 2))
        #expect(rendering.channels[0].samples == [RenderedSample](repeating: .silence, count: 100) + reference)
    }

    /// SUM saturates, MAX never stacks, sharpness is the intensity-weighted mean (PROTOCOL-3.md 3.6).
    @Test func mixingRule() throws {
        let a = Self.constant(0.6, 0.2, duration: 0.01), b = Self.constant(0.3, 0.8, duration: 0.01)
        let sum = HapticSetRenderer.render(HapticSet(entries: [Self.entry(0, a), Self.entry(0, b)])).channels[0].samples[5]
        #expect(abs(sum.intensity - 0.9) < 1e-12)
        #expect(abs(sum.sharpness - (0.6 * 0.2 + 0.3 * 0.8) / 0.9) < 1e-12)
        let loud = Self.constant(0.8, 0.5, duration: 0.01)
        let saturated = HapticSetRenderer.render(HapticSet(entries: [Self.entry(0, a), Self.entry(0, loud)])).channels[0].samples[5]
        #expect(saturated.intensity == 1)
        #expect(abs(saturated.sharpness - (0.6 * 0.2 + 0.8 * 0.5) / 1.4) < 1e-12)
        let max = HapticSetRenderer.render(HapticSet(entries: [Self.entry(0, a), Self.entry(0, b, mix: .max)])).channels[0].samples[5]
        #expect(abs(max.intensity - 0.6) < 1e-12)
        let maxWins = HapticSetRenderer.render(HapticSet(entries: [Self.entry(0, b), Self.entry(0, a, mix: .max)])).channels[0].samples[5]
        #expect(abs(maxWins.intensity - 0.6) < 1e-12)
        let gained = HapticSetRenderer.render(HapticSet(entries: [Self.entry(0, a, gain: 0.8)])).channels[0].samples[5]
        #expect(abs(gained.intensity - 0.6 * 205 / 256) < 1e-12)
    }

    /// A higher-priority entry ducks a lower one with 3.7's linear fade, and hands it back.
    @Test func duckingFadesDownAndBack() {
        var rumble = Self.entry(0, Self.constant(0.5, 0.2, duration: 0.1))
        rumble.priority = 0
        var tap = Self.entry(0, Self.constant(0.4, 0.9, duration: 0.02), offset: 0.03)
        tap.priority = 1
        tap.duck = 0
        let samples = HapticSetRenderer.render(HapticSet(entries: [rumble, tap])).channels[0].samples
        #expect(samples[29].intensity == 0.5)
        // Tick 30: the tap plays, the rumble's gain falls by 32 per tick (fade 8 ticks) to 0 at tick 37.
        for i in 0..<8 {
            let expected: Double = 0.4 + 0.5 * Double(224 - 32 * i) / 256
            #expect(abs(samples[30 + i].intensity - expected) < 1e-12)
        }
        #expect(abs(samples[45].intensity - 0.4) < 1e-12 && abs(samples[45].sharpness - 0.9) < 1e-12)
        // Tick 50: the tap has ended; the rumble comes back over 8 ticks.
        #expect(abs(samples[50].intensity - 0.5 * 32 / 256) < 1e-12)
        #expect(samples[57].intensity == 0.5)
    }

    /// Generated sets: the canonical round trip, and per channel the documented rule against a
    /// direct evaluation from each entry's own reference samples (no priorities: no ducking).
    @Test func propertiesOfGeneratedSets() throws {
        var g = SeededGenerator(seed: 0x5E75)
        let presets = ["impact.heavy", "selection", "notification.success", "impact.light@0.4"]
        for round in 0..<40 {
            var entries: [HapticSet.Entry] = []
            for _ in 0..<g.within(1...5) {
                let channel = g.below(3), board = g.below(2)
                let source: HapticSet.Source
                let pattern: HapticPattern
                if g.percent(30) {
                    let name = g.pick(presets)
                    source = .preset(name)
                    pattern = Preset.named(name)!.pattern
                } else {
                    source = .inline
                    let random = RandomPatterns.haptic.pattern(&g)
                    pattern = try HapticPattern(ahap: random.ahapBytes())
                }
                entries.append(
                    HapticSet.Entry(
                        name: g.percent(50) ? "e\(entries.count)" : nil, board: board, channel: channel, source: source, pattern: pattern,
                        actuator: g.percent(30) ? "lra-235hz-8mm" : nil, gain: Double(g.below(1001)) / 1000,
                        offset: Double(g.below(500)) / 1000, mix: g.percent(30) ? .max : .sum, duck: 1,
                        location: g.percent(40) ? g.pick(["hand-left", "wrist-right", "chest", "index"]) : nil))
            }
            let set = HapticSet(name: g.percent(50) ? "set \(round)" : nil, entries: entries)
            let text = HapticSetEncoder().encode(set)
            let back = try HapticSetDecoder(mode: .strict).decode(text, file: "generated.json").set
            #expect(back == set, "round \(round)")
            #expect(HapticSetEncoder().encode(back) == text)

            let rendering = HapticSetRenderer.render(set)
            #expect(rendering.channels.map(\.address) == set.channels)
            for channel in rendering.channels {
                let mine = channel.entries.map { set.entries[$0] }
                let own: [(entry: HapticSet.Entry, start: Int, samples: [RenderedSample])] = mine.map { entry in
                    (entry, entry.startTick(rate: 1000), ReferenceRenderer(pattern: entry.pattern).render(rate: 1000))
                }
                let ends = own.map { $0.start + $0.samples.count }
                #expect(channel.samples.count == ends.max())
                for (k, sample) in channel.samples.enumerated() {
                    var sum = 0.0, largest = 0.0, weight = 0.0, weighted = 0.0
                    for player in own where k >= player.start && k < player.start + player.samples.count {
                        let s = player.samples[k - player.start]
                        let i = HapticSet.factor(code: player.entry.scaleCode) * s.intensity
                        if player.entry.mix == HapticSet.Mix.sum { sum += i } else { largest = Swift.max(largest, i) }
                        weight += i
                        weighted += i * s.sharpness
                    }
                    let intensity = Swift.max(Swift.min(sum, 1), largest)
                    #expect(abs(sample.intensity - intensity) < 1e-9)
                    #expect((0...1).contains(sample.intensity) && (0...1).contains(sample.sharpness))
                    if sample.intensity == 0 { #expect(sample.sharpness == 0) } else { #expect(abs(sample.sharpness - weighted / weight) < 1e-9) }
                }
            }
        }
    }
}
