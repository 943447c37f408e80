import FirmwareModel
import HapticProtocol

/// How closely a program, played by the interpreter model, follows the reference codes
/// (docs/compiler.md, "Fidelity"). Errors are in LSB of the 8-bit codes.
public struct FidelityReport: Sendable, Hashable {
    public var tolerance: Int
    public var sharpnessTolerance: Int
    /// Ticks compared: the program's whole duration.
    public var ticks: Int
    public var amplitudeMaxError: Int
    public var amplitudeMeanError: Double
    /// Ticks where sharpness is compared: those whose reference amplitude is above 0.
    public var sharpnessTicks: Int
    /// nil when the profile does nothing with sharpness (then it is not compared).
    public var sharpnessMaxError: Int?
    public var sharpnessMeanError: Double?
    /// Validation error, fault, or an END at the wrong tick; nil when the playback was clean.
    public var problem: String?
    /// Time spent playing the program through the model.
    public var playbackSeconds: Double

    public var withinTolerance: Bool {
        problem == nil && amplitudeMaxError <= tolerance && (sharpnessMaxError ?? 0) <= sharpnessTolerance
    }

    /// Interpreter ticks per second during the check.
    public var ticksPerSecond: Double { playbackSeconds > 0 ? Double(ticks) / playbackSeconds : 0 }
}

enum Fidelity {
    /// The device the check plays on: the program's rate, a buffer large enough for it, and the
    /// safety limiter out of the way (it is a device policy, reported separately).
    static func checkConfiguration(for program: Program) -> DeviceConfiguration {
        DeviceConfiguration(
            rate: program.header.rate,
            maxBody: max(UInt32(program.body.count), DeviceConfiguration.default.maxBody),
            safetyTicks: .max)
    }

    /// Plays `program` from a fresh interpreter and compares every tick with the reference.
    static func check(_ program: Program, target: CompileTarget, tolerance: Int) -> (FidelityReport, [OutputSample]) {
        let n = target.tickCount
        var report = FidelityReport(
            tolerance: tolerance, sharpnessTolerance: target.sharpnessTolerance, ticks: n,
            amplitudeMaxError: 0, amplitudeMeanError: 0, sharpnessTicks: 0,
            sharpnessMaxError: target.sharpnessRendered ? 0 : nil,
            sharpnessMeanError: target.sharpnessRendered ? 0 : nil,
            problem: nil, playbackSeconds: 0)
        var interpreter = Interpreter(configuration: checkConfiguration(for: program))
        do {
            try interpreter.load(program)
        } catch {
            report.problem = "the program does not validate: \(error)"
            return (report, [])
        }
        var output = [OutputSample](repeating: .silent, count: n)
        let clock = ContinuousClock()
        let start = clock.now
        for k in 0..<n { output[k] = interpreter.step() }
        let after = interpreter.step()
        report.playbackSeconds = (clock.now - start).seconds

        if let error = interpreter.status.error {
            report.problem = "the interpreter stopped with \(error)"
        } else if !after.isBraking || output.contains(where: \.isBraking) {
            report.problem = "the program does not end at tick \(n)"
        }
        var amplitudeSum = 0, sharpnessSum = 0
        var amplitudeMax = 0, sharpnessMax = 0, sharpnessTicks = 0
        for k in 0..<n {
            let a = abs(Int(output[k].amplitude) - Int(target.amplitude[k]))
            amplitudeSum += a
            amplitudeMax = max(amplitudeMax, a)
            guard target.amplitude[k] > 0 else { continue }
            let s = abs(Int(output[k].sharpness) - Int(target.sharpness[k]))
            sharpnessSum += s
            sharpnessMax = max(sharpnessMax, s)
            sharpnessTicks += 1
        }
        report.amplitudeMaxError = amplitudeMax
        report.amplitudeMeanError = n > 0 ? Double(amplitudeSum) / Double(n) : 0
        report.sharpnessTicks = sharpnessTicks
        if target.sharpnessRendered {
            report.sharpnessMaxError = sharpnessMax
            report.sharpnessMeanError = sharpnessTicks > 0 ? Double(sharpnessSum) / Double(sharpnessTicks) : 0
        }
        return (report, output)
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
