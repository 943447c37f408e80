/// Writes canonical AHAP: the same pattern always gives the same bytes, and
/// `AHAPDecoder().decode(AHAPEncoder().encode(p)).pattern == p` for every pattern the decoder produces
/// (docs/ahap.md, "Canonical form").
///
/// - `Version` 1.0, then `Metadata` (only when not empty; keys in UTF-8 byte order), then `Pattern`;
/// - items sorted by time; at equal times `Parameter` steps, then `ParameterCurve`s, then `Event`s
///   (a control that changes at an event's start applies to it), and within one kind the model's order;
/// - keys in a fixed order: Event = Time, EventType, EventDuration, EventWaveformPath,
///   EventWaveformUseVolumeEnvelope, EventWaveformLoopEnabled, EventParameters;
///   Parameter = ParameterID, Time, ParameterValue; ParameterCurve = ParameterID, Time, ParameterCurveControlPoints;
/// - event parameters in `EventParameterID` order; `EventDuration` written for continuous and audio
///   events (for AudioCustom only when not 0), never for transients;
/// - strict JSON, doubles in shortest round-trip form.
public struct AHAPEncoder: Sendable {
    public var minified: Bool

    public init(minified: Bool = false) {
        self.minified = minified
    }

    public func encode(_ pattern: HapticPattern) -> [UInt8] {
        var writer = JSONWriter(pretty: !minified)
        Self.write(pattern, to: &writer)
        writer.endDocument()
        return writer.bytes
    }

    /// The pattern as one JSON object at the writer's position (a haptic set writes inline patterns so).
    static func write(_ pattern: HapticPattern, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(AHAPKey.version.name)
        writer.number(1.0)
        if !pattern.metadata.isEmpty {
            writer.key(AHAPKey.metadata.name)
            writer.value(.object(pattern.metadata))
        }
        writer.key(AHAPKey.pattern.name)
        writer.beginArray()
        for item in Self.itemOrder(pattern) {
            writer.beginObject()
            switch item.kind {
            case .parameter: write(pattern.parameters[item.index], to: &writer)
            case .curve: write(pattern.curves[item.index], to: &writer)
            case .event: write(pattern.events[item.index], to: &writer)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    // MARK: Order

    enum ItemKind: Int, Comparable {
        case parameter, curve, event
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    struct Item {
        var time: Double
        var kind: ItemKind
        var index: Int
    }

    /// Items by (time, kind, index in the model). NaN times (never produced by the decoder) sort as 0
    /// so the comparison stays a strict weak order.
    static func itemOrder(_ pattern: HapticPattern) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(pattern.events.count + pattern.parameters.count + pattern.curves.count)
        func key(_ time: Double) -> Double { time.isNaN ? 0 : time }
        for (index, step) in pattern.parameters.enumerated() { items.append(Item(time: key(step.time), kind: .parameter, index: index)) }
        for (index, curve) in pattern.curves.enumerated() { items.append(Item(time: key(curve.time), kind: .curve, index: index)) }
        for (index, event) in pattern.events.enumerated() { items.append(Item(time: key(event.time), kind: .event, index: index)) }
        items.sort { ($0.time, $0.kind, $0.index) < ($1.time, $1.kind, $1.index) }
        return items
    }

    // MARK: Items

    private static func write(_ event: HapticEvent, to writer: inout JSONWriter) {
        writer.key(AHAPKey.event.name)
        writer.beginObject()
        writer.member(.time, event.time)
        writer.member(.eventType, event.type.rawValue)
        let writesDuration: Bool
        switch event.type {
        case .hapticTransient: writesDuration = false
        case .hapticContinuous, .audioContinuous: writesDuration = true
        case .audioCustom: writesDuration = event.duration != 0
        }
        if writesDuration { writer.member(.eventDuration, event.duration) }
        if let path = event.waveformPath { writer.member(.eventWaveformPath, path) }
        if let flag = event.waveformUseVolumeEnvelope { writer.member(.eventWaveformUseVolumeEnvelope, flag) }
        if let flag = event.waveformLoopEnabled { writer.member(.eventWaveformLoopEnabled, flag) }
        if !event.parameters.isEmpty {
            writer.key(AHAPKey.eventParameters.name)
            writer.beginArray()
            for id in EventParameterID.allCases {
                guard let value = event.parameters[id] else { continue }
                writer.beginObject(inline: true)
                writer.member(.parameterID, id.rawValue)
                writer.member(.parameterValue, value)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
    }

    private static func write(_ step: DynamicParameter, to writer: inout JSONWriter) {
        beginItem(.parameter, step.id, at: step.time, in: &writer)
        writer.member(.parameterValue, step.value)
        writer.endObject()
    }

    private static func write(_ curve: ParameterCurve, to writer: inout JSONWriter) {
        beginItem(.parameterCurve, curve.id, at: curve.time, in: &writer)
        writer.key(AHAPKey.parameterCurveControlPoints.name)
        writer.beginArray()
        for point in curve.controlPoints {
            writer.beginObject(inline: true)
            writer.member(.time, point.time)
            writer.member(.parameterValue, point.value)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    /// Opens a Parameter or ParameterCurve item with the keys they share: ParameterID and Time.
    private static func beginItem(_ key: AHAPKey, _ id: DynamicParameterID, at time: Double, in writer: inout JSONWriter) {
        writer.key(key.name)
        writer.beginObject()
        writer.member(.parameterID, id.rawValue)
        writer.member(.time, time)
    }
}

/// One AHAP key and its value.
extension JSONWriter {
    fileprivate mutating func member(_ key: AHAPKey, _ value: String) {
        self.key(key.name)
        string(value)
    }

    fileprivate mutating func member(_ key: AHAPKey, _ value: Double) {
        self.key(key.name)
        number(value)
    }

    fileprivate mutating func member(_ key: AHAPKey, _ value: Bool) {
        self.key(key.name)
        bool(value)
    }
}
