/// The four event types of AHAP.
public enum HapticEventType: String, CaseIterable, Sendable, Hashable, Codable {
    case hapticTransient = "HapticTransient"
    case hapticContinuous = "HapticContinuous"
    case audioContinuous = "AudioContinuous"
    case audioCustom = "AudioCustom"

    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
    public var isAudio: Bool { !isHaptic }
    /// Transients have no duration; every other type does.
    public var hasDuration: Bool { self != .hapticTransient }
}

/// One event of a pattern, as AHAP describes it. Times are in seconds from the pattern's start.
///
/// Parameters are stored as given (after lenient repairs); `intensity`, `sharpness` and friends
/// read them with the documented defaults (docs/semantics.md) when absent.
public struct HapticEvent: Sendable, Hashable, Codable {
    public var type: HapticEventType
    public var time: Double
    /// Seconds; 0 for transients.
    public var duration: Double
    public var parameters: [EventParameterID: Double]
    /// `EventWaveformPath` of an `AudioCustom` event (kept for round trips, never played on an actuator).
    public var waveformPath: String?
    public var waveformUseVolumeEnvelope: Bool?
    public var waveformLoopEnabled: Bool?

    public init(
        type: HapticEventType,
        time: Double,
        duration: Double = 0,
        parameters: [EventParameterID: Double] = [:],
        waveformPath: String? = nil,
        waveformUseVolumeEnvelope: Bool? = nil,
        waveformLoopEnabled: Bool? = nil
    ) {
        self.type = type
        self.time = time
        self.duration = duration
        self.parameters = parameters
        self.waveformPath = waveformPath
        self.waveformUseVolumeEnvelope = waveformUseVolumeEnvelope
        self.waveformLoopEnabled = waveformLoopEnabled
    }

    /// End time in seconds (start for transients).
    public var endTime: Double { time + duration }

    public subscript(_ id: EventParameterID) -> Double? {
        get { parameters[id] }
        set { parameters[id] = newValue }
    }
}

// MARK: - Builder API, in the spirit of CHHapticEvent's initialisers

extension HapticEvent {
    /// A tap: `HapticEvent.transient(at: 0.1, intensity: 0.8, sharpness: 0.4)`.
    public static func transient(at time: Double, intensity: Double = 1, sharpness: Double = 0.5) -> HapticEvent {
        HapticEvent(type: .hapticTransient, time: time, parameters: [.hapticIntensity: intensity, .hapticSharpness: sharpness])
    }

    /// A vibration of `duration` seconds. Envelope times are AHAP's 0...1 values (see docs/semantics.md);
    /// `nil` leaves the parameter out so the documented default applies.
    public static func continuous(
        at time: Double,
        duration: Double,
        intensity: Double = 1,
        sharpness: Double = 0.5,
        attack: Double? = nil,
        decay: Double? = nil,
        release: Double? = nil,
        sustained: Bool? = nil
    ) -> HapticEvent {
        var parameters: [EventParameterID: Double] = [.hapticIntensity: intensity, .hapticSharpness: sharpness]
        parameters[.attackTime] = attack
        parameters[.decayTime] = decay
        parameters[.releaseTime] = release
        parameters[.sustained] = sustained.map { $0 ? 1 : 0 }
        return HapticEvent(type: .hapticContinuous, time: time, duration: duration, parameters: parameters)
    }

    /// A synthesised audio tone (kept on the timeline, never rendered on an actuator).
    public static func audioContinuous(at time: Double, duration: Double, volume: Double? = nil, pitch: Double? = nil) -> HapticEvent {
        var parameters: [EventParameterID: Double] = [:]
        parameters[.audioVolume] = volume
        parameters[.audioPitch] = pitch
        return HapticEvent(type: .audioContinuous, time: time, duration: duration, parameters: parameters)
    }

    /// A sound file played with the pattern (kept on the timeline, never rendered on an actuator).
    public static func audioCustom(at time: Double, waveformPath: String, duration: Double = 0, volume: Double? = nil) -> HapticEvent {
        var parameters: [EventParameterID: Double] = [:]
        parameters[.audioVolume] = volume
        return HapticEvent(type: .audioCustom, time: time, duration: duration, parameters: parameters, waveformPath: waveformPath)
    }
}
