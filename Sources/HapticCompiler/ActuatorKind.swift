/// The three actuator families the compiler knows (docs/semantics.md, "Actuators").
public enum ActuatorKind: String, CaseIterable, Sendable, Hashable, Codable {
    /// Linear resonant actuator: a mass on a spring, driven near its resonance f0.
    case lra
    /// Eccentric rotating mass: a motor whose vibration frequency follows its speed.
    case erm
    /// Wideband voice coil: plays any frequency in its range.
    case voiceCoil = "voice-coil"
}
