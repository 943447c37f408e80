/// Perceived timing of a drive sequence: for every stretch of driven ticks, how long the
/// envelope takes to reach 50 % and 90 % of its target, and how long it takes to fall to 10 %
/// of its value once the drive stops (docs/semantics.md, "Actuators", analysis).
public struct DriveResponse: Sendable, Hashable {
    /// First driven tick (amplitude > 0, no BRAKE flag) and the first tick after the stretch.
    public var onsetTick: Int
    public var endTick: Int
    /// Steady envelope of the onset sample: what the actuator would settle at.
    public var target: Double
    /// Milliseconds from the start of the onset tick; nil if not reached before the drive stops.
    public var rise50: Double?
    public var rise90: Double?
    /// Envelope when the drive stops (at the end of the last driven tick).
    public var envelopeAtStop: Double
    /// Milliseconds from the end of the stretch until the envelope is at or under 10 % of
    /// `envelopeAtStop`; nil if that does not happen before the next onset or the end of the data.
    public var stop10: Double?
}

public enum ResponseAnalysis {
    /// Simulates `drive` from rest and analyses every driven stretch.
    public static func analyze(drive: [OutputSample], model: ActuatorSimulator.Model) -> [DriveResponse] {
        var simulator = ActuatorSimulator(model: model)
        let response = simulator.run(drive)
        return analyze(drive: drive, response: response, simulator: simulator)
    }

    /// Envelope sample k is the value at the end of tick k, time (k + 1) ticks; before tick 0 the
    /// actuator is at rest. Crossing times are interpolated linearly between samples.
    public static func analyze(
        drive: [OutputSample], response: [PhysicsSample],
        simulator: ActuatorSimulator
    ) -> [DriveResponse] {
        precondition(drive.count == response.count, "one response sample per drive sample")
        let msPerTick = 1000 / simulator.tickRate
        func driven(_ k: Int) -> Bool { drive[k].amplitude > 0 && !drive[k].isBraking }
        func envelope(atEdge edge: Int) -> Double { edge == 0 ? 0 : response[edge - 1].envelope }

        func crossing(from: Int, to: Int, threshold: Double, rising: Bool) -> Double? {
            firstCrossing(envelope: envelope(atEdge:), from: from, to: to, threshold: threshold, rising: rising).map { $0 * msPerTick }
        }

        var results: [DriveResponse] = []
        var k = 0
        while k < drive.count {
            guard driven(k) else {
                k += 1
                continue
            }
            let onset = k
            while k < drive.count && driven(k) { k += 1 }
            let end = k
            var nextOnset = end
            while nextOnset < drive.count && !driven(nextOnset) { nextOnset += 1 }
            let target = simulator.steadyEnvelope(for: drive[onset])
            let atStop = envelope(atEdge: end)
            results.append(
                DriveResponse(
                    onsetTick: onset, endTick: end, target: target,
                    rise50: target > 0 ? crossing(from: onset, to: end, threshold: 0.5 * target, rising: true) : nil,
                    rise90: target > 0 ? crossing(from: onset, to: end, threshold: 0.9 * target, rising: true) : nil,
                    envelopeAtStop: atStop,
                    stop10: crossing(from: end, to: nextOnset, threshold: 0.1 * atStop, rising: false)))
        }
        return results
    }

    /// First time, in ticks after edge `from`, that `envelope(edge)` (its value at tick edges)
    /// crosses `threshold` in the given direction between edges `from` and `to`, interpolated
    /// linearly between edges; nil if it does not.
    static func firstCrossing(envelope: (Int) -> Double, from: Int, to: Int, threshold: Double, rising: Bool) -> Double? {
        var previous = envelope(from)
        if rising ? previous >= threshold : previous <= threshold { return 0 }
        var edge = from + 1
        while edge <= to {
            let value = envelope(edge)
            if rising ? value >= threshold : value <= threshold {
                let fraction = (threshold - previous) / (value - previous)
                return Double(edge - 1 - from) + fraction
            }
            previous = value
            edge += 1
        }
        return nil
    }
}
