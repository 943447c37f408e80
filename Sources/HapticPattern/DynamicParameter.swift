/// A `Parameter` item: the control takes `value` from `time` on (a step), until a later step or curve changes it.
public struct DynamicParameter: Sendable, Hashable, Codable {
    public var id: DynamicParameterID
    public var time: Double
    public var value: Double

    public init(_ id: DynamicParameterID, value: Double, at time: Double) {
        self.id = id
        self.time = time
        self.value = value
    }
}

/// One point of a `ParameterCurve`; `time` is relative to the curve's own start time (Apple's rule).
public struct ControlPoint: Sendable, Hashable, Codable {
    public var time: Double
    public var value: Double

    public init(time: Double, value: Double) {
        self.time = time
        self.value = value
    }
}

/// A `ParameterCurve` item: the control follows straight lines between control points,
/// and holds the first and last values outside them (docs/semantics.md).
public struct ParameterCurve: Sendable, Hashable, Codable {
    public var id: DynamicParameterID
    public var time: Double
    public var controlPoints: [ControlPoint]

    public init(_ id: DynamicParameterID, at time: Double, points: [ControlPoint]) {
        self.id = id
        self.time = time
        self.controlPoints = points
    }

    /// Convenience: `ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1), (0.5, 0)])`.
    public init(_ id: DynamicParameterID, at time: Double, points: [(Double, Double)]) {
        self.init(id, at: time, points: points.map { ControlPoint(time: $0.0, value: $0.1) })
    }

    /// Absolute time of the last control point.
    public var endTime: Double { time + (controlPoints.last?.time ?? 0) }
}
