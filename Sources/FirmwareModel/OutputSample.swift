/// What the interpreter hands the output stage on one tick (firmware-protocol/PROTOCOL.md, part 1):
/// an 8-bit drive amplitude, an 8-bit sharpness code the output stage maps to frequency or kernel
/// shape for its actuator, and flags (bit 0: brake).
public struct OutputSample: Sendable, Hashable {
    public var amplitude: UInt8
    public var sharpness: UInt8
    public var flags: UInt8

    public static let brakeFlag: UInt8 = 0x01
    public static let silent = OutputSample(amplitude: 0, sharpness: 0, flags: 0)

    public init(amplitude: UInt8, sharpness: UInt8, flags: UInt8 = 0) {
        self.amplitude = amplitude
        self.sharpness = sharpness
        self.flags = flags
    }

    public var isBraking: Bool { flags & Self.brakeFlag != 0 }
}
