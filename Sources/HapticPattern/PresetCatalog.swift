// The app vocabulary, game event catalog, and example patterns of the design sources, as presets.
// Each row names its source and table row (docs/presets.md has the same table).

extension Preset {
    /// The app system-event haptics design note: the `HapticEngine` enum and its
    /// "Haptic Vocabulary" table, mapped onto the UIKit presets exactly as its `trigger()` does.
    public static let appVocabulary: [Preset] = {
        func alias(_ name: String, _ base: Preset, _ summary: String, _ row: String) -> Preset {
            Preset(
                name: name, summary: summary,
                source: "\(seed001), \(row) -> \(base.name)", pattern: base.pattern)
        }
        let light = impact(.light), success = notification(.success)
        let warning = notification(.warning), error = notification(.error)
        return [
            alias(
                "app.tap", light, "standard button press: quick, subtle click",
                "Haptic Vocabulary, row Button tap (.tap = UIImpactFeedbackGenerator(.light))"),
            alias("app.selection", selection, "toggles, mode changes: softer notch", "Haptic Vocabulary, row Toggle/selection (.selection)"),
            alias("app.success", success, "action completed", "HapticEngine.success (post sent, refresh with new content)"),
            alias("app.warning", warning, "partial success", "Haptic Vocabulary, row Partial success (.warning)"),
            alias("app.error", error, "network failure", "Haptic Vocabulary, row Error (.error)"),
            alias(
                "app.refresh-complete.new-content", success, "pull-to-refresh brought new posts",
                "Haptic Vocabulary, row Refresh with new posts (.success); refreshComplete(hasNewContent: true)"),
            alias(
                "app.refresh-complete.no-new-content", light, "pull-to-refresh, nothing new: acknowledges without fanfare",
                "Haptic Vocabulary, row Refresh, no new posts (.tap); refreshComplete(hasNewContent: false)"),
            alias("app.post-sent", success, "post sent", "Haptic Vocabulary, row Post sent (.success)"),
            alias("app.follow-changed", success, "follow / unfollow confirmed", "Haptic Vocabulary, row Follow/Unfollow (.success)"),
            alias("app.account-switched", selection, "account switched: mode-change feel", "Haptic Vocabulary, row Account switched (.selection)"),
        ]
    }()

    /// The iOS game haptics design guide's "Haptic Event Catalog" ("Events That SHOULD Have Haptics"). Impact
    /// rows are one transient with the row's intensity and the style's sharpness midpoint; where the row gives a
    /// range, the value is the one the game design guide's HapticManager passes for that event (buttonTap(),
    /// itemCollect(), ...).
    public static let gameCatalog: [Preset] = {
        func hit(_ name: String, _ style: ImpactStyle, _ intensity: Double, _ summary: String, _ row: String) -> Preset {
            Preset(
                name: name, summary: summary,
                source: "\(seed000), Haptic Event Catalog, \(row)",
                pattern: HapticPattern(events: [tap(intensity, style.values.sharpness)]))
        }
        func alias(_ name: String, _ base: Preset, _ summary: String, _ row: String) -> Preset {
            Preset(name: name, summary: summary, source: "\(seed000), Haptic Event Catalog, \(row) -> \(base.name)", pattern: base.pattern)
        }
        return [
            hit("game.button-press", .light, 0.4, "on touchDown", "row Button Press: Impact (.light) 0.4; buttonTap()"),
            hit(
                "game.significant-button", .medium, 0.6, "start game, confirm purchase",
                "row Significant Button: Impact (.medium) 0.6; significantButtonTap()"),
            hit(
                "game.item-collection", .light, 0.5, "coins, pickups, small rewards",
                "row Item Collection: Impact (.light) 0.3-0.5; itemCollect() uses 0.5"),
            hit(
                "game.valuable-collection", .medium, 0.7, "rare items, power-ups",
                "row Valuable Collection: Impact (.medium) 0.6-0.8; valuableCollect() uses 0.7"),
            hit("game.player-hit.light", .medium, 0.6, "minor damage taken", "row Player Hit (light): Impact (.medium) 0.6; playerHitLight()"),
            hit(
                "game.player-hit.heavy", .heavy, 1.0, "significant damage",
                "row Player Hit (heavy): Impact (.heavy) 0.9-1.0; playerHitHeavy() uses 1.0"),
            alias("game.player-death", notification(.error), "finality of death", "row Player Death: Notification (.error)"),
            hit("game.enemy-kill", .rigid, 0.7, "satisfying defeat", "row Enemy Kill: Impact (.rigid) 0.7; enemyKill()"),
            hit("game.jump-land", .medium, 0.5, "ground contact", "row Jump Land: Impact (.medium) 0.5-0.6; jumpLand() uses 0.5"),
            hit("game.heavy-land", .heavy, 0.8, "fall from height", "row Heavy Land: Impact (.heavy) 0.8; heavyLand()"),
            collision(force: 0.5),
            hit("game.explosion", .heavy, 1.0, "major event nearby", "row Explosion Nearby: Impact (.heavy) 1.0; explosion()"),
            alias("game.level-complete", notification(.success), "achievement", "row Level Complete: Notification (.success)"),
            alias("game.achievement-unlock", notification(.success), "milestone", "row Achievement Unlock: Notification (.success)"),
            alias("game.error", notification(.error), "blocked action", "row Error/Invalid: Notification (.error)"),
            alias("game.warning", notification(.warning), "attention needed", "row Warning: Notification (.warning)"),
            alias("game.list-scroll-tick", selection, "position feedback", "row List Scroll Tick: Selection"),
            alias("game.slider-value-change", selection, "increment feedback", "row Slider Value Change: Selection"),
            hit("game.toggle-switch", .rigid, 0.6, "state change", "row Toggle Switch: Impact (.rigid) 0.6; toggleSwitch()"),
            Preset(
                name: "game.soft-pop", summary: "bubble pop, soft landing",
                source: "\(seed000), Basic Haptic Manager, softPop(): soft impact 0.5",
                pattern: HapticPattern(events: [tap(0.5, ImpactStyle.soft.values.sharpness)])),
        ]
    }()

    /// The iOS game haptics design guide's Core Haptics and AHAP examples: the example patterns, with the
    /// functions' default arguments.
    public static let customPatterns: [Preset] = [
        Preset(
            name: "custom.double-tap", summary: "collect valuable item: two taps 80 ms apart",
            source: "\(seed000), Core Haptics Custom Patterns, playDoubleTap()",
            pattern: HapticPattern(events: [tap(0.6, 0.5), tap(0.8, 0.6, at: 0.08)])),
        Preset(
            name: "custom.rumble", summary: "explosion, heavy impact: 0.3 s rumble fading out",
            source: "\(seed000), Core Haptics Custom Patterns, playRumble(duration: 0.3, intensity: 0.8)",
            pattern: HapticPattern(
                events: [.continuous(at: 0, duration: 0.3, intensity: 0.8, sharpness: 0.3)],
                curves: [ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1.0), (0.3, 0.0)])])),
        Preset(
            name: "custom.heartbeat", summary: "low health: lub-dub",
            source: "\(seed000), Core Haptics Custom Patterns, playHeartbeat(): lub and dub 150 ms apart",
            pattern: HapticPattern(events: [tap(0.8, 0.3), tap(0.5, 0.2, at: 0.15)])),
        Preset(
            name: "custom.charge", summary: "power charging: rising intensity and sharpness over 1 s",
            source: "\(seed000), Core Haptics Custom Patterns, playCharge(duration: 1.0)",
            pattern: HapticPattern(
                events: [.continuous(at: 0, duration: 1.0, intensity: 0.2, sharpness: 0.5)],
                curves: [
                    ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 0.2), (0.8, 0.9), (1.0, 1.0)]),
                    ParameterCurve(.hapticSharpnessControl, at: 0, points: [(0, 0.3), (1.0, 0.8)]),
                ])),
        Preset(
            name: "custom.triple-burst", summary: "achievement unlock, major success: three rising taps",
            source: "\(seed000), Core Haptics Custom Patterns, playTripleBurst()",
            pattern: HapticPattern(events: [tap(0.6, 0.5), tap(0.75, 0.6, at: 0.1), tap(0.9, 0.7, at: 0.2)])),
        Preset(
            name: "custom.explosion", summary: "sharp hit over a 0.4 s fading rumble",
            source: "\(seed000), AHAP File Implementation, example \"explosion.ahap\"",
            pattern: HapticPattern(
                events: [tap(1.0, 0.8), .continuous(at: 0, duration: 0.4, intensity: 0.8, sharpness: 0.2)],
                curves: [ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1.0), (0.1, 0.8), (0.4, 0.0)])])),
    ]

    /// The "Getting Started With Core Haptics" tutorial (Snip The Vine): the tutorial's final patterns, audio
    /// events included as the tutorial adds them (an actuator ignores them). Examples/*.ahap hold the same
    /// patterns; events are listed in canonical AHAP order (time, then list order) so that decoding an
    /// example gives exactly the preset's pattern.
    public static let tutorialPatterns: [Preset] = [
        Preset(
            name: "tutorial.slice-basic", summary: "first snip: soft rumble with a sharp snip at 80 ms",
            source: "\(seed002), Adding Your First Haptic Experience, slicePattern()",
            pattern: HapticPattern(events: [
                .continuous(at: 0, duration: 0.25, intensity: 0.35, sharpness: 0.25),
                tap(1.0, 1.0, at: 0.08),
            ])),
        Preset(
            name: "tutorial.slice", summary: "SsssNIP: sharper rumble shaped by an intensity curve",
            source:
                "\(seed002), Controlling Intensity With a Parameter Curve (slice 0.6/0.8, 0.5 s; curve 0.2-1.0-0.2-0.6-0) and Syncing Audio Events (Slice.caf)",
            pattern: HapticPattern(
                events: [
                    .continuous(at: 0, duration: 0.5, intensity: 0.6, sharpness: 0.8),
                    .audioCustom(at: 0, waveformPath: "Slice.caf"),
                    tap(1.0, 1.0, at: 0.08),
                ],
                curves: [
                    ParameterCurve(
                        .hapticIntensityControl, at: 0,
                        points: [(0, 0.2), (0.08, 1.0), (0.24, 0.2), (0.34, 0.6), (0.5, 0)])
                ])),
        Preset(
            name: "tutorial.nom-nom", summary: "croc eats: crunch rumble, softer munch, two jaw snaps",
            source: "\(seed002), Feeding the Crocodile, nomNomPattern() (rumble1, rumble2, crunch1, crunch2) and Syncing Audio Events (NomNom.caf)",
            pattern: HapticPattern(events: [
                .continuous(at: 0, duration: 0.15, intensity: 1.0, sharpness: 0.3),
                tap(1.0, 1.0, at: 0),
                .audioCustom(at: 0, waveformPath: "NomNom.caf"),
                .continuous(at: 0.3, duration: 0.3, intensity: 0.4, sharpness: 0.1),
                tap(1.0, 0.3, at: 0.3),
            ])),
        Preset(
            name: "tutorial.splash", summary: "splish then a cresting splash (attack, decay, release)",
            source:
                "\(seed002), Ramping Intensity Up and Down - Pineapple Splashdown, splashPattern() with attackTime 0.1, releaseTime 0.2, decayTime 0.3 (Splash.caf)",
            pattern: HapticPattern(events: [
                tap(1.0, 0.1, at: 0),
                .audioCustom(at: 0, waveformPath: "Splash.caf"),
                .continuous(at: 0.1, duration: 0.6, intensity: 0.5, sharpness: 0.1, attack: 0.1, decay: 0.3, release: 0.2),
            ])),
        Preset(
            name: "tutorial.swish", summary: "blade swish: 60 s continuous (two 30 s events) for the advanced player's live intensity",
            source: "\(seed002), Updating Pattern Parameters in Real Time, createSwishPlayer()",
            // Two 30 s events end to end: Core Haptics plays a continuous event for at most
            // 30 s, so the tutorial's single 60 s event would not load strictly; these play the same.
            pattern: HapticPattern(events: [
                .continuous(at: 0, duration: 30, intensity: 0.5, sharpness: 1.0),
                .continuous(at: 30, duration: 30, intensity: 0.5, sharpness: 1.0),
            ])),
    ]
}
