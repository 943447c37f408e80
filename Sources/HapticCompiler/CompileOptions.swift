import HapticProtocol

/// Settings of one compilation (docs/compiler.md).
public struct CompileOptions: Sendable, Hashable {
    /// Largest amplitude error allowed at any tick, in LSB of the 8-bit amplitude code.
    public var tolerance: Int
    /// Largest sharpness error at a sounding tick, in LSB; nil: the same as `tolerance`.
    public var sharpnessTolerance: Int?
    /// The program's tick rate, Hz (devices of format v1 run 1000).
    public var tickRate: UInt16
    /// Fold exactly repeating stretches into LOOP/ENDLOOP when that saves bytes.
    public var loops: Bool
    /// Throw `CompileError.toleranceExceeded` when the fidelity check fails; otherwise return
    /// the program and let the report say so.
    public var failOnToleranceExceeded: Bool
    /// The device the program will play on (docs/compiler.md, "Compiling for a device"): it fits
    /// a slot (loops allowed), or it streams loop-free and in time, or compiling throws
    /// `CompileError.doesNotFit`. nil: no device, only the program's own validity.
    public var device: DeviceCapabilities?
    /// The program's format byte: 2 for a protocol 2.0 device, 3 for a protocol 3 one
    /// (PROTOCOL-3.md 3.1). The bodies are the same: every loop the compiler folds is closed.
    public var formatVersion: UInt8

    public init(
        tolerance: Int = 1, sharpnessTolerance: Int? = nil, tickRate: UInt16 = 1000,
        loops: Bool = true, failOnToleranceExceeded: Bool = true, device: DeviceCapabilities? = nil,
        formatVersion: UInt8 = ProgramHeader.formatVersion
    ) {
        self.formatVersion = formatVersion
        self.tolerance = tolerance
        self.sharpnessTolerance = sharpnessTolerance
        self.tickRate = tickRate
        self.loops = loops
        self.failOnToleranceExceeded = failOnToleranceExceeded
        self.device = device
    }

    /// The sharpness tolerance in effect.
    public var effectiveSharpnessTolerance: Int { sharpnessTolerance ?? tolerance }
}
