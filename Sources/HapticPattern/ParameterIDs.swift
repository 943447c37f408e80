/// Parameters that belong to one event (`EventParameters` in AHAP), with Core Haptics' names and ranges.
public enum EventParameterID: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPan = "AudioPan"
    case audioPitch = "AudioPitch"
    case audioBrightness = "AudioBrightness"

    /// The range Core Haptics documents for the parameter; lenient decoding clamps into it.
    public var range: ClosedRange<Double> {
        switch self {
        case .audioPan, .audioPitch: return -1...1
        default: return 0...1
        }
    }

    /// Canonical order (declaration order) used when encoding, so output is stable.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Pattern-wide parameters (`Parameter` and `ParameterCurve` items in AHAP) that modulate events while they play.
public enum DynamicParameterID: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case hapticIntensityControl = "HapticIntensityControl"
    case hapticSharpnessControl = "HapticSharpnessControl"
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    case audioVolumeControl = "AudioVolumeControl"
    case audioPanControl = "AudioPanControl"
    case audioPitchControl = "AudioPitchControl"
    case audioBrightnessControl = "AudioBrightnessControl"
    case audioAttackTimeControl = "AudioAttackTimeControl"
    case audioDecayTimeControl = "AudioDecayTimeControl"
    case audioReleaseTimeControl = "AudioReleaseTimeControl"

    /// The range Core Haptics documents: intensity and volume controls multiply (0...1),
    /// the others add (-1...1).
    public var range: ClosedRange<Double> {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: return 0...1
        default: return -1...1
        }
    }

    /// True for controls that affect what an actuator plays; audio controls are kept but never rendered.
    public var isHaptic: Bool { rawValue.hasPrefix("Haptic") }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
