/// Values used when an event leaves a parameter out (docs/semantics.md, "Defaults").
///
/// Apple documents the envelope defaults (0, and Sustained = 1) but not the intensity and sharpness
/// defaults, which are device-defined. This project uses intensity 1.0 (an event with no intensity is
/// meant to be felt: Apple's audio/haptic parameters default to full scale) and sharpness 0.5 (the middle
/// of the range: neither dull nor crisp), the same values as the builder API's defaults.
public enum EventDefaults {
    public static let intensity = 1.0
    public static let sharpness = 0.5
    public static let attackTime = 0.0
    public static let decayTime = 0.0
    public static let releaseTime = 0.0
    public static let sustained = true
}

extension HapticEvent {
    /// `HapticIntensity`, or the documented default.
    public var intensity: Double { parameters[.hapticIntensity] ?? EventDefaults.intensity }
    /// `HapticSharpness`, or the documented default.
    public var sharpness: Double { parameters[.hapticSharpness] ?? EventDefaults.sharpness }
    /// `AttackTime` as AHAP's 0...1 value (see `EnvelopeTime` for seconds).
    public var attackTime: Double { parameters[.attackTime] ?? EventDefaults.attackTime }
    public var decayTime: Double { parameters[.decayTime] ?? EventDefaults.decayTime }
    public var releaseTime: Double { parameters[.releaseTime] ?? EventDefaults.releaseTime }
    /// `Sustained`: AHAP writes 0 or 1; values >= 0.5 count as 1.
    public var isSustained: Bool { parameters[.sustained].map { $0 >= 0.5 } ?? EventDefaults.sustained }
}
