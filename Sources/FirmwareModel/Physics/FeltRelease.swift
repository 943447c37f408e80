import HapticProtocol

/// When a play stops being felt: how long after its program's end the actuator's acceleration
/// envelope last falls below 50 % of the play's last peak (docs/performance.md, "Start skew
/// across boards"). The mirror of `FeltRise`: an ERM coasts for tens of milliseconds after its
/// drive stops while a braked LRA stops in a few, so two boards whose programs end on the same
/// tick are not felt to end together.
///
/// - The **last peak** is the largest envelope at the end of a tick over the final `FeltRise.peakWindow`
///   seconds of driven ticks (amplitude > 0, no BRAKE flag) before the program's end.
/// - The release runs from the end of the program's last tick (where the device's brake begins)
///   to the envelope's last fall below 50 % of the last peak, interpolated between tick edges;
///   negative when the pattern's own tail fades below it before the program ends.
/// - The actuator is simulated from `warmUp` seconds before that window, from rest: long enough
///   for every shipped profile's state to settle to what the earlier ticks left.
public struct FeltRelease: Sendable, Hashable {
    public var peak: Double
    public var release50: Double

    static let warmUp = 0.3
    /// The longest tail looked at after the last driven tick.
    static let tail = 0.5

    /// The release of `drive` (a play's whole output from its tick 0, brake included) whose
    /// program has `endTick` ticks; nil when nothing is driven or the actuator does not move.
    public static func of(drive: [OutputSample], endTick: Int, model: ActuatorSimulator.Model) -> FeltRelease? {
        var simulator = ActuatorSimulator(model: model)
        let rate = simulator.tickRate
        guard let last = drive.prefix(endTick).lastIndex(where: { $0.amplitude > 0 && !$0.isBraking }) else { return nil }
        let window = max(1, Int((FeltRise.peakWindow * rate).rounded()))
        let from = max(0, last + 1 - window - Int((warmUp * rate).rounded()))
        let input = Array(drive[from...]) + Array(repeating: OutputSample(amplitude: 0, sharpness: 0), count: Int((tail * rate).rounded()))
        let envelope = simulator.run(input).map(\.envelope)
        let peakRange = max(0, last + 1 - window - from)...(last - from)
        guard let peak = envelope[peakRange].max(), peak > 0 else { return nil }
        let level = 0.5 * peak
        // The last tick whose end is at or above the level; the crossing lies before the next edge.
        guard let above = envelope.lastIndex(where: { $0 >= level }) else { return nil }
        let next = above + 1 < envelope.count ? envelope[above + 1] : envelope[above]
        let fraction = next < envelope[above] ? (envelope[above] - level) / (envelope[above] - next) : 0
        // Envelope k is at edge k + 1 (the end of tick k), counted from the start of tick `from`.
        let edge = Double(above + 1) + fraction
        return FeltRelease(peak: peak, release50: (edge - Double(endTick - from)) / rate)
    }

    /// The release of `program` played alone at master scale `scale` on a device that brakes for
    /// `brakeTicks` after a program's end (INFO's `brake_ticks`).
    public static func of(program: Program, brakeTicks: UInt16, model: ActuatorSimulator.Model, scale: UInt8 = 255) -> FeltRelease? {
        let configuration = DeviceConfiguration(rate: program.header.rate, maxBody: .max, brakeTicks: brakeTicks)
        var interpreter = Interpreter(configuration: configuration)
        guard (try? interpreter.load(program.bytes)) != nil else { return nil }
        interpreter.setMasterScale(scale)
        var drive: [OutputSample] = []
        while interpreter.mode != .idle { drive.append(interpreter.step()) }
        return of(drive: drive, endTick: Int(program.header.totalTicks), model: model)
    }
}
