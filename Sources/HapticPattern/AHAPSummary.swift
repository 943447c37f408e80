/// What `haptic inspect` reports about a pattern: counts, duration, curves and parameter IDs.
public struct AHAPSummary: Sendable, Hashable {
    public struct Curve: Sendable, Hashable {
        public var id: DynamicParameterID
        public var time: Double
        public var points: Int
    }

    /// Events of each type (every type present, 0 when absent).
    public var eventCounts: [HapticEventType: Int]
    public var eventCount: Int
    /// Seconds: `HapticPattern.duration` (events, steps and curves).
    public var duration: Double
    /// Parameter steps of each ID (only IDs that occur).
    public var stepCounts: [DynamicParameterID: Int]
    public var stepCount: Int
    /// Curves in pattern order.
    public var curves: [Curve]
    /// Event parameter IDs that occur in some event, in `EventParameterID` order.
    public var eventParameterIDs: [EventParameterID]
    /// Dynamic parameter IDs used by steps or curves, in `DynamicParameterID` order.
    public var dynamicParameterIDs: [DynamicParameterID]

    public init(_ pattern: HapticPattern) {
        var counts: [HapticEventType: Int] = [:]
        for type in HapticEventType.allCases { counts[type] = 0 }
        var eventIDs = Set<EventParameterID>()
        for event in pattern.events {
            counts[event.type, default: 0] += 1
            eventIDs.formUnion(event.parameters.keys)
        }
        eventCounts = counts
        eventCount = pattern.events.count
        duration = pattern.duration
        var steps: [DynamicParameterID: Int] = [:]
        for step in pattern.parameters { steps[step.id, default: 0] += 1 }
        stepCounts = steps
        stepCount = pattern.parameters.count
        curves = pattern.curves.map { Curve(id: $0.id, time: $0.time, points: $0.controlPoints.count) }
        eventParameterIDs = eventIDs.sorted()
        dynamicParameterIDs = Set(pattern.parameters.map(\.id)).union(pattern.curves.map(\.id)).sorted()
    }

    /// Curves per parameter ID.
    public var curveCounts: [DynamicParameterID: Int] {
        var counts: [DynamicParameterID: Int] = [:]
        for curve in curves { counts[curve.id, default: 0] += 1 }
        return counts
    }

    /// Control points over all curves.
    public var controlPointCount: Int { curves.reduce(0) { $0 + $1.points } }
}
