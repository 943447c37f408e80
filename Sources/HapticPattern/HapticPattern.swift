/// A haptic pattern: what an AHAP file holds, as plain values.
///
/// The model holds anything Core Haptics can express (audio included, so nothing is lost on a round
/// trip); what an actuator plays is decided by the reference renderer and the compiler.
public struct HapticPattern: Sendable, Hashable, Codable {
    /// AHAP `Version`; canonical encoding always writes 1.0.
    public var version: Double
    /// AHAP `Metadata`, kept verbatim for round trips and ignored otherwise.
    public var metadata: [String: JSONValue]
    public var events: [HapticEvent]
    public var parameters: [DynamicParameter]
    public var curves: [ParameterCurve]

    public init(
        events: [HapticEvent] = [],
        parameters: [DynamicParameter] = [],
        curves: [ParameterCurve] = [],
        metadata: [String: JSONValue] = [:],
        version: Double = 1.0
    ) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.curves = curves
    }

    /// Seconds: the latest end among events (time + duration), parameter steps and curve ends
    /// (as Apple's Core Haptics documentation defines a pattern's duration).
    public var duration: Double {
        var end = 0.0
        for event in events { end = max(end, event.endTime) }
        for parameter in parameters { end = max(end, parameter.time) }
        for curve in curves { end = max(end, curve.endTime) }
        return end
    }

    /// Events an actuator plays (audio events are kept but never rendered).
    public var hapticEvents: [HapticEvent] { events.filter { $0.type.isHaptic } }
}
