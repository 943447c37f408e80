import ArgumentParser
import HapticCompiler

/// The compiler's options, shared by `compile` and `bench`: one spelling, one rule, one default.
struct CompileFlags: ParsableArguments {
    @Option(help: "Actuator profile: a name from hardware/actuators or a profile file path.")
    var actuator: String = ActuatorProfile.defaultName

    @Option(parsing: .unconditional, help: "Largest amplitude error allowed, in LSB of the 8-bit code, 0...255.")
    var tolerance: Int = 1

    @Option(parsing: .unconditional, help: "Largest sharpness error allowed where the output sounds, in LSB, 0...255 (default: --tolerance).")
    var sharpnessTolerance: Int?

    @Flag(help: "Do not fold repeated stretches into LOOP/ENDLOOP.")
    var noLoops = false

    func validate() throws {
        guard (0...255).contains(tolerance) else { throw ValidationError("--tolerance must be 0...255, not \(tolerance)") }
        if let s = sharpnessTolerance, !(0...255).contains(s) { throw ValidationError("--sharpness-tolerance must be 0...255, not \(s)") }
        _ = try Compile.loadProfile(actuator)
    }

    /// What the compiler gets: tolerances reported, not thrown (the commands report every input).
    var options: CompileOptions {
        CompileOptions(tolerance: tolerance, sharpnessTolerance: sharpnessTolerance, loops: !noLoops, failOnToleranceExceeded: false)
    }
}
