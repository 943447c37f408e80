/// When a play is felt: how long after its first non-zero output tick the actuator's
/// acceleration envelope first reaches 50 % and 90 % of the play's first peak
/// (docs/performance.md, "Felt onset").
///
/// - The drive starts at the first output tick, from rest (a prepared play starts from a quiet actuator).
/// - The **first peak** is the largest envelope at the end of a tick over the first driven stretch
///   (ticks with amplitude > 0 and no BRAKE flag, from the first output tick to the first tick that
///   is not driven), cut at `peakWindow` seconds: the level the first event reaches, or what a slow
///   attack reaches in its first 100 ms.
/// - Rise times run from the start of the first output tick to the first crossing of the level, with
///   the envelope interpolated linearly between tick edges (as `ResponseAnalysis`).
public struct FeltRise: Sendable, Hashable {
    /// The first peak (normalized acceleration, 1 = rated drive at the reference frequency).
    public var peak: Double
    /// Seconds from the start of the first output tick to 50 % and 90 % of `peak`.
    public var rise50: Double
    public var rise90: Double

    /// The window the first peak is looked for in.
    public static let peakWindow = 0.1

    /// The rise of `drive` (its first sample the first output tick; at least the window's ticks, or
    /// the whole play) on `model`; nil when nothing in it is driven or the actuator does not move.
    public static func of(drive: [OutputSample], model: ActuatorSimulator.Model) -> FeltRise? {
        var simulator = ActuatorSimulator(model: model)
        let windowTicks = max(1, Int((peakWindow * simulator.tickRate).rounded()))
        var end = 0
        while end < min(drive.count, windowTicks), drive[end].amplitude > 0, !drive[end].isBraking { end += 1 }
        guard end > 0 else { return nil }
        let envelope = simulator.run(Array(drive[0..<end])).map(\.envelope)
        guard let peak = envelope.max(), peak > 0 else { return nil }
        func edge(_ k: Int) -> Double { k == 0 ? 0 : envelope[k - 1] }
        func rise(_ level: Double) -> Double {
            let ticks = ResponseAnalysis.firstCrossing(envelope: edge, from: 0, to: end, threshold: level * peak, rising: true)
            return (ticks ?? Double(end)) / simulator.tickRate
        }
        return FeltRise(peak: peak, rise50: rise(0.5), rise90: rise(0.9))
    }

    /// Seconds from the start of the first tick of `envelope` (an envelope at the end of each tick,
    /// from rest: 0 at the start) to its first crossing of `level`, interpolated linearly between
    /// tick edges as above; nil if it stays under `level`.
    public static func timeToReach(_ level: Double, envelope: [Double], tickRate: Double) -> Double? {
        func edge(_ k: Int) -> Double { k == 0 ? 0 : envelope[k - 1] }
        let ticks = ResponseAnalysis.firstCrossing(envelope: edge, from: 0, to: envelope.count, threshold: level, rising: true)
        return ticks.map { $0 / tickRate }
    }
}
