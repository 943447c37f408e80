import Testing

@testable import HapticPattern

private func taps(_ name: String) -> [(Double, Double, Double)] {
    Preset.named(name)!.pattern.events.filter { $0.type == .hapticTransient }.map { ($0.time, $0.intensity, $0.sharpness) }
}

private func same(_ a: [(Double, Double, Double)], _ b: [(Double, Double, Double)]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0.0 - $1.0) < 1e-12 && abs($0.1 - $1.1) < 1e-12 && abs($0.2 - $1.2) < 1e-12 }
}

@Test func presetNamesAreUniqueAndFollowTheScheme() {
    let names = Preset.all.map(\.name)
    #expect(Set(names).count == names.count)
    let families: Set<String> = ["impact", "notification", "selection", "app", "game", "custom", "tutorial"]
    for name in names {
        #expect(families.contains(Preset.named(name)!.family), "\(name)")
        #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "." || $0 == "-" }, "\(name)")
        #expect(Preset.named(name)?.name == name)
    }
    #expect(Preset.named("no.such.preset") == nil)
}

@Test func presetsCoverTheVocabulariesOfTheSeeds() {
    let required = [
        "impact.light", "impact.medium", "impact.heavy", "impact.soft", "impact.rigid",
        "notification.success", "notification.warning", "notification.error", "selection",
        "app.tap", "app.selection", "app.success", "app.warning", "app.error",
        "app.refresh-complete.new-content", "app.refresh-complete.no-new-content",
        "game.button-press", "game.significant-button", "game.item-collection", "game.valuable-collection",
        "game.player-hit.light", "game.player-hit.heavy", "game.player-death", "game.enemy-kill",
        "game.jump-land", "game.heavy-land", "game.collision", "game.explosion", "game.level-complete",
        "game.achievement-unlock", "game.error", "game.warning", "game.list-scroll-tick",
        "game.slider-value-change", "game.toggle-switch",
        "tutorial.slice", "tutorial.nom-nom", "tutorial.splash", "custom.heartbeat",
    ]
    for name in required { #expect(Preset.named(name) != nil, "\(name)") }
}

@Test func everyPresetNamesASeedAndPlaysSomethingWithinRange() {
    for preset in Preset.all {
        #expect(Preset.sources.contains { preset.source.hasPrefix($0) }, "\(preset.name)")
        #expect(!preset.summary.isEmpty)
        for event in preset.pattern.events where event.type.isHaptic {
            #expect((0...1).contains(event.intensity) && (0...1).contains(event.sharpness), "\(preset.name)")
        }
        let r = ReferenceRenderer(pattern: preset.pattern)
        #expect(r.render(rate: 1000).contains { $0.intensity > 0 }, "\(preset.name)")
    }
}

@Test func impactPresetsUseTheSeedRangeMidpointsAndScaleByIntensity() {
    #expect(same(taps("impact.light"), [(0, 0.4, 0.5)]))
    #expect(same(taps("impact.medium"), [(0, 0.6, 0.5)]))
    #expect(same(taps("impact.heavy"), [(0, 0.9, 0.5)]))
    #expect(same(taps("impact.soft"), [(0, 0.6, 0.2)]))
    #expect(same(taps("impact.rigid"), [(0, 0.6, 0.9)]))
    #expect(same(taps("impact.heavy@0.5"), [(0, 0.45, 0.5)]))
    #expect(Preset.named("impact.heavy@0.5")?.name == "impact.heavy@0.5")
    #expect(Preset.impact(.soft, intensity: 0).pattern.events[0].intensity == 0)
    #expect(Preset.named("impact.heavy@1.5") == nil)
    #expect(Preset.named("impact.huge@0.5") == nil)
}

@Test func notificationAndSelectionPresetsFollowTheGameDesignGuide() {
    #expect(same(taps("notification.success"), [(0, 0.6, 0.5), (0.08, 0.8, 0.6)]))
    #expect(same(taps("notification.warning"), [(0, 0.7, 0.9)]))
    #expect(same(taps("notification.error"), [(0, 0.9, 0.7), (0.1, 0.75, 0.6), (0.2, 0.6, 0.5)]))
    #expect(same(taps("selection"), [(0, 0.3, 0.5)]))
}

@Test func appVocabularyMapsOntoTheUIKitPresetsAsTheAppDesignNoteDoes() {
    #expect(Preset.named("app.tap")!.pattern == Preset.named("impact.light")!.pattern)
    #expect(Preset.named("app.refresh-complete.new-content")!.pattern == Preset.named("notification.success")!.pattern)
    #expect(Preset.named("app.refresh-complete.no-new-content")!.pattern == Preset.named("impact.light")!.pattern)
    #expect(Preset.named("app.warning")!.pattern == Preset.named("notification.warning")!.pattern)
    #expect(Preset.named("app.account-switched")!.pattern == Preset.named("selection")!.pattern)
}

@Test func gameCatalogUsesTheRowIntensityAndTheStyleSharpness() {
    #expect(same(taps("game.button-press"), [(0, 0.4, 0.5)]))
    #expect(same(taps("game.item-collection"), [(0, 0.5, 0.5)]))
    #expect(same(taps("game.valuable-collection"), [(0, 0.7, 0.5)]))
    #expect(same(taps("game.player-hit.heavy"), [(0, 1.0, 0.5)]))
    #expect(same(taps("game.enemy-kill"), [(0, 0.7, 0.9)]))
    #expect(same(taps("game.heavy-land"), [(0, 0.8, 0.5)]))
    #expect(same(taps("game.explosion"), [(0, 1.0, 0.5)]))
    #expect(same(taps("game.toggle-switch"), [(0, 0.6, 0.9)]))
    #expect(Preset.named("game.player-death")!.pattern == Preset.named("notification.error")!.pattern)
    // Collision by normalised force (the game guide's playCollisionHaptic): light below 0.3, medium below 0.7, else heavy.
    #expect(same(taps("game.collision@0.1"), [(0, 0.4, 0.5)]))
    #expect(same(taps("game.collision"), [(0, 0.5, 0.5)]))
    #expect(same(taps("game.collision@1.0"), [(0, 1.0, 0.5)]))
}

@Test func tutorialSplashHasItsEnvelopeAndRendersAsDocumented() {
    let splash = Preset.named("tutorial.splash")!.pattern
    let wave = splash.events.first { $0.type == .hapticContinuous }!
    #expect(wave.time == 0.1 && wave.duration == 0.6)
    #expect(wave.attackTime == 0.1 && wave.decayTime == 0.3 && wave.releaseTime == 0.2 && wave.isSustained)
    // attack 0.1 -> (32^0.1 - 1) / 31 s = 13.4 ms, release 0.2 -> 1/31 s = 32.3 ms.
    let r = ReferenceRenderer(pattern: splash)
    let attack = EnvelopeTime.seconds(0.1)
    #expect(abs(attack - 0.013361) < 1e-6)
    #expect(abs(r.sample(at: 0.1 + attack / 2).intensity - 0.25) < 1e-9)
    #expect(abs(r.sample(at: 0.4).intensity - 0.5) < 1e-9)
    #expect(abs(r.sample(at: 0.7 - 0.5 / 31).intensity - 0.25) < 1e-9)
    #expect(abs(r.duration - 0.7) < 1e-12)
}

@Test func uiKitPresetsRespectTheRateGuidelines() {
    for preset in Preset.all where preset.family != "tutorial" {
        #expect(Lint.check(preset.pattern).isEmpty, "\(preset.name): \(Lint.check(preset.pattern))")
    }
}

/// `haptic export preset:NAME` writes what Core Haptics would load: every preset, encoded, passes
/// the strict decoder (a 60 s continuous event, for one, would not).
@Test(arguments: Preset.all.map(\.name))
func everyPresetExportsToAFileStrictModeAccepts(name: String) throws {
    let preset = try #require(Preset.named(name))
    let bytes = AHAPEncoder().encode(preset.pattern)
    #expect(throws: Never.self) { try AHAPDecoder(mode: .strict).decode(bytes, file: "\(name).ahap") }
}
