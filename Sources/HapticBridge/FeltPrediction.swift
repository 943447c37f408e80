import FirmwareModel
import HapticProtocol

/// When a program is felt once it starts: its lead-in (silence before the first output tick) and
/// the rise of its first output through the actuator's physics (`FeltRise`, docs/performance.md
/// "Felt onset"). The device model's output for the program at full intensity (master scale 255,
/// no sharpness offset) from a warm output stage: what `PlayTime.felt(at:)` schedules by and what
/// the latency profiler uses for a board it cannot record.
public struct FeltPrediction: Sendable, Hashable {
    /// Ticks from the program's tick 0 to its first non-zero output tick.
    public var leadInTicks: Int
    public var rise: FeltRise
    /// The device's tick rate.
    public var rate: Double

    /// Seconds from the start of the program's tick 0 to 50 % and to 90 % of its first peak.
    public var onset50: Double { Double(leadInTicks) / rate + rise.rise50 }
    public var onset90: Double { Double(leadInTicks) / rate + rise.rise90 }

    /// `onset50` on a device whose ticks run at `deviceRate` per host second (a clock estimate's
    /// rate): the lead-in is device ticks.
    public func onset50(deviceRate: Double) -> Double { Double(leadInTicks) / deviceRate + rise.rise50 }

    /// nil when the program never sounds or the actuator does not move. `scale` is the play's
    /// master scale (1.11): a play at intensity 0, or one so soft that every sample rounds to 0,
    /// is never felt.
    public static func of(program: Program, model: ActuatorSimulator.Model, scale: UInt8 = 255) -> FeltPrediction? {
        let rate = Double(program.header.rate)
        let window = Int((FeltRise.peakWindow * rate).rounded()) + 1
        guard let (leadIn, drive) = firstOutput(of: program, count: window, scale: scale),
            let rise = FeltRise.of(drive: drive, model: model)
        else { return nil }
        return FeltPrediction(leadInTicks: leadIn, rise: rise, rate: rate)
    }

    /// The program's output from its first non-zero sample: the ticks before it and up to
    /// `count` samples (fewer when the program ends sooner); nil for a program that never sounds.
    public static func firstOutput(of program: Program, count: Int, scale: UInt8 = 255) -> (leadInTicks: Int, drive: [OutputSample])? {
        var interpreter = Interpreter(configuration: DeviceConfiguration(rate: program.header.rate, maxBody: .max))
        guard (try? interpreter.load(program.bytes)) != nil else { return nil }
        interpreter.setMasterScale(scale)
        var tick = 0
        while interpreter.mode == .playing {
            let sample = interpreter.step()
            if sample.amplitude > 0 {
                var drive = [sample]
                while drive.count < count, interpreter.mode == .playing { drive.append(interpreter.step()) }
                return (tick, drive)
            }
            tick += 1
        }
        return nil
    }
}
