/// A named, ready-made pattern with the design source and row it comes from (docs/presets.md lists them all).
///
/// Names are `family.name[.variant]`, lowercase, words joined by `-`:
/// - `impact.*`, `notification.*`, `selection`: the UIKit feedback generators;
/// - `app.*`: the app vocabulary (the app design note); `game.*`: the game event catalog (the game design guide);
/// - `custom.*`: the game guide's Core Haptics example patterns; `tutorial.*`: the Core Haptics tutorial's Snip The Vine patterns.
///
/// Impact presets take an intensity argument like `impactOccurred(intensity:)`: `impact.heavy@0.5`.
public struct Preset: Sendable, Hashable {
    public var name: String
    /// What it feels like / when to use it, in a few words.
    public var summary: String
    /// The design source and the table row or section the values come from.
    public var source: String
    public var pattern: HapticPattern

    /// The family: the name up to its first dot (`impact`, `app`, ...).
    public var family: String { String(name.prefix { $0 != "." }) }

    /// Every preset, in catalogue order (UIKit, app, game, custom, tutorial).
    public static let all: [Preset] =
        ImpactStyle.allCases.map { impact($0) }
        + NotificationType.allCases.map { notification($0) }
        + [selection] + appVocabulary + gameCatalog + customPatterns + tutorialPatterns

    /// A preset by name; impact presets and `game.collision` also accept `@VALUE` (intensity, resp. force, 0...1).
    public static func named(_ name: String) -> Preset? {
        if let at = name.firstIndex(of: "@") {
            let base = String(name[..<at])
            guard let value = Double(name[name.index(after: at)...]), value.isFinite, (0...1).contains(value) else { return nil }
            if base == "game.collision" { return collision(force: value) }
            guard base.hasPrefix("impact."), let style = ImpactStyle(rawValue: String(base.dropFirst("impact.".count))) else { return nil }
            return impact(style, intensity: value)
        }
        return byName[name]
    }

    private static let byName: [String: Preset] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// One transient: the shape of every UIKit feedback generator call.
    static func tap(_ intensity: Double, _ sharpness: Double, at time: Double = 0) -> HapticEvent {
        .transient(at: time, intensity: intensity, sharpness: sharpness)
    }
}

// MARK: - UIKit feedback generators

/// The design sources' values for the feedback generators. The game design guide gives each impact style an
/// intensity and a sharpness range ("Intensity/Sharpness Technical Values"); the presets use the midpoints.
extension Preset {
    // The four design sources the presets were written from (docs/presets.md describes each).
    static let seed000 = "iOS game haptics design guide"
    static let seed001 = "app system-event haptics design note"
    static let seed002 = "Getting Started With Core Haptics tutorial"
    static let seed003 = "Core Haptics reference guide"
    /// All four, for tests and docs.
    public static let sources = [seed000, seed001, seed002, seed003]

    public enum ImpactStyle: String, CaseIterable, Sendable {
        case light, medium, heavy, soft, rigid

        /// (intensity, sharpness): midpoints of the game design guide's "Intensity/Sharpness Technical Values" rows.
        public var values: (intensity: Double, sharpness: Double) {
            switch self {
            case .light: return (0.4, 0.5)  // 0.3 - 0.5, 0.4 - 0.6
            case .medium: return (0.6, 0.5)  // 0.5 - 0.7, 0.4 - 0.6
            case .heavy: return (0.9, 0.5)  // 0.8 - 1.0, 0.4 - 0.6
            case .soft: return (0.6, 0.2)  // 0.5 - 0.7, 0.1 - 0.3
            case .rigid: return (0.6, 0.9)  // 0.5 - 0.7, 0.8 - 1.0
            }
        }

        var range: String {
            switch self {
            case .light: return "intensity 0.3 - 0.5, sharpness 0.4 - 0.6"
            case .medium: return "intensity 0.5 - 0.7, sharpness 0.4 - 0.6"
            case .heavy: return "intensity 0.8 - 1.0, sharpness 0.4 - 0.6"
            case .soft: return "intensity 0.5 - 0.7, sharpness 0.1 - 0.3"
            case .rigid: return "intensity 0.5 - 0.7, sharpness 0.8 - 1.0"
            }
        }

        var feel: String {
            switch self {
            case .light: return "subtle tap"
            case .medium: return "definite thump"
            case .heavy: return "strong impact"
            case .soft: return "dull, rounded"
            case .rigid: return "sharp, clicking"
            }
        }
    }

    /// `UIImpactFeedbackGenerator(style:).impactOccurred(intensity:)`: one transient at the style's midpoint
    /// values, its intensity scaled by `intensity` (0...1; 1 is the plain `impactOccurred()`).
    public static func impact(_ style: ImpactStyle, intensity: Double = 1) -> Preset {
        let scale = min(max(intensity, 0), 1)
        let (i, s) = style.values
        let name = scale == 1 ? "impact.\(style.rawValue)" : "impact.\(style.rawValue)@\(scale)"
        return Preset(
            name: name,
            summary: "UIImpactFeedbackGenerator(.\(style.rawValue)): \(style.feel)" + (scale == 1 ? "" : ", intensity x\(scale)"),
            source: "\(seed000), Intensity/Sharpness Technical Values, row .\(style.rawValue) (\(style.range)): midpoints",
            pattern: HapticPattern(events: [tap(i * scale, s)]))
    }

    public enum NotificationType: String, CaseIterable, Sendable {
        case success, warning, error
    }

    /// `UINotificationFeedbackGenerator().notificationOccurred(_:)`, after the game design guide's table of
    /// notification types. The app design note's vocabulary describes them differently (triple-pulse success,
    /// double-pulse warning, double-buzz error); the game guide is followed because its table is the one with values.
    public static func notification(_ type: NotificationType) -> Preset {
        switch type {
        case .success:
            // "Two quick taps (ascending feel)": the game guide's playDoubleTap(), 80 ms apart.
            return Preset(
                name: "notification.success", summary: "two quick taps, ascending",
                source: "\(seed000), UINotificationFeedbackGenerator Types, row .success; values from Core Haptics Custom Patterns, playDoubleTap()",
                pattern: HapticPattern(events: [tap(0.6, 0.5), tap(0.8, 0.6, at: 0.08)]))
        case .warning:
            // "Single firm tap": a rigid tap ("firm, precise" in the Core Haptics reference guide) at the top of
            // rigid's intensity range.
            return Preset(
                name: "notification.warning", summary: "single firm tap",
                source:
                    "\(seed000), UINotificationFeedbackGenerator Types, row .warning; rigid = \"firm, precise tap\" (\(seed003), UIImpactFeedbackGenerator styles), intensity 0.7 = top of rigid's 0.5 - 0.7, sharpness 0.9 = rigid midpoint",
                pattern: HapticPattern(events: [tap(0.7, 0.9)]))
        case .error:
            // "Three rapid taps (descending feel)": the game guide's playTripleBurst() values, reversed, 100 ms apart.
            return Preset(
                name: "notification.error", summary: "three rapid taps, descending",
                source:
                    "\(seed000), UINotificationFeedbackGenerator Types, row .error; values from Core Haptics Custom Patterns, playTripleBurst(), reversed",
                pattern: HapticPattern(events: [tap(0.9, 0.7), tap(0.75, 0.6, at: 0.1), tap(0.6, 0.5, at: 0.2)]))
        }
    }

    /// `UISelectionFeedbackGenerator().selectionChanged()`: "very light tick". The game guide lists "list scroll tick"
    /// under `.light` (sharpness 0.4 - 0.6 -> 0.5); "very light" takes the bottom of light's intensity range, 0.3.
    public static let selection = Preset(
        name: "selection", summary: "very light tick",
        source:
            "\(seed000), UISelectionFeedbackGenerator table, selectionChanged(); UIImpactFeedbackGenerator Styles, row .light (examples: list scroll tick): intensity 0.3 = bottom of 0.3 - 0.5, sharpness 0.5",
        pattern: HapticPattern(events: [tap(0.3, 0.5)]))

    /// The game guide's playCollisionHaptic(impactForce:maxForce:) with the force already normalised to 0...1:
    /// below 0.3 a light impact at 0.3 + f, below 0.7 a medium one at f, else a heavy one at 0.7 + 0.3 f.
    public static func collision(force: Double) -> Preset {
        let f = min(max(force, 0), 1)
        let (style, intensity): (ImpactStyle, Double) =
            f < 0.3 ? (.light, 0.3 + f) : f < 0.7 ? (.medium, f) : (.heavy, 0.7 + f * 0.3)
        return Preset(
            name: f == 0.5 ? "game.collision" : "game.collision@\(f)",
            summary: "physics collision, force \(f): .\(style.rawValue) at \(intensity)",
            source:
                "\(seed000), Haptic Event Catalog, row Collision (Impact varies, by force); Physics-Based Impact Intensity, playCollisionHaptic()",
            pattern: HapticPattern(events: [tap(intensity, style.values.sharpness)]))
    }
}
