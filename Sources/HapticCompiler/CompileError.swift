import HapticProtocol

/// Why a compilation failed.
public enum CompileError: Error, Sendable, CustomStringConvertible {
    /// A tolerance outside 0...255 or a tick rate of 0.
    case invalidOptions(String)
    /// The pattern lasts longer than the longest delay a program can express.
    case tooLong(ticks: Int)
    /// The program played through the interpreter model strays from the reference codes by more
    /// than the tolerance (or does not validate, or faults). The program and its report are
    /// attached; this is a compiler defect, never an input problem.
    case toleranceExceeded(CompiledProgram)
    /// The target device cannot play the program (`CompileOptions.device`): larger than its slots
    /// and it cannot stream, or a stream its link cannot feed in time. The reason says which.
    case doesNotFit(String)

    public var description: String {
        switch self {
        case .invalidOptions(let message):
            return "invalid compile options: \(message)"
        case .tooLong(let ticks):
            return "pattern too long: \(ticks) ticks (a program expresses at most \(Instruction.maxDelay))"
        case .doesNotFit(let reason):
            return "the device cannot play this pattern: \(reason)"
        case .toleranceExceeded(let compiled):
            let f = compiled.report.fidelity
            if let problem = f.problem { return "compiled program failed its check: \(problem)" }
            var text = "compiled program exceeds the tolerance: amplitude max error \(f.amplitudeMaxError) LSB"
            if let s = f.sharpnessMaxError { text += ", sharpness max error \(s) LSB" }
            return text + " (tolerance \(f.tolerance) / \(f.sharpnessTolerance) LSB)"
        }
    }
}
