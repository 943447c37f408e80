/// One instruction of a program body (firmware-protocol/PROTOCOL.md 1.4), with its delay: the
/// ticks to wait after the previous instruction executed before this one executes (1.5).
///
/// Values are the device's 8-bit codes (amplitude A, sharpness S); durations and delays are
/// ticks. `delay` is at most `maxDelay`, ramp durations at most `maxDuration`: the encoder
/// traps on larger values, which the format cannot express.
public enum Instruction: Hashable, Sendable {
    /// SET_A: the amplitude channel jumps to the value.
    case setA(UInt8, delay: UInt32 = 0)
    /// RAMP_A: the amplitude channel ramps from its current value to `to`, arriving `duration` ticks later (1.9).
    case rampA(to: UInt8, duration: UInt32, delay: UInt32 = 0)
    /// SET_S: the sharpness channel jumps to the value (needs the SHARP flag).
    case setS(UInt8, delay: UInt32 = 0)
    /// RAMP_S: the sharpness channel ramps to `to` over `duration` ticks (needs the SHARP flag).
    case rampS(to: UInt8, duration: UInt32, delay: UInt32 = 0)
    /// PULSE: a rectangular pulse of `amplitude` lasting `pulseLength(sharpness:)` ticks (1.10).
    case pulse(amplitude: UInt8, sharpness: UInt8, delay: UInt32 = 0)
    /// LOOP: the body up to the matching ENDLOOP plays `count` times in total (1...255).
    case loop(count: UInt8, delay: UInt32 = 0)
    /// ENDLOOP: closes the innermost open loop, or jumps back to its body.
    case endLoop(delay: UInt32 = 0)
    /// END: the program ends at this instruction's time; always the last instruction.
    case end(delay: UInt32 = 0)

    /// The 3-bit opcodes (bits 7..5 of the first byte).
    public enum Opcode: UInt8, Sendable, CaseIterable {
        case setA = 0, rampA, setS, rampS, pulse, loop, endLoop, end

        /// The name PROTOCOL.md uses, e.g. "RAMP_A".
        public var name: String {
            switch self {
            case .setA: "SET_A"
            case .rampA: "RAMP_A"
            case .setS: "SET_S"
            case .rampS: "RAMP_S"
            case .pulse: "PULSE"
            case .loop: "LOOP"
            case .endLoop: "ENDLOOP"
            case .end: "END"
            }
        }
    }

    /// 5-bit delay field value meaning "31 + a varint follows".
    public static let extendedDelay: UInt32 = 31
    /// 31 + 2^28 - 1: the longest delay the format expresses.
    public static let maxDelay: UInt32 = extendedDelay + Varint.maxValue
    /// 2^28 - 1: the longest ramp.
    public static let maxDuration: UInt32 = Varint.maxValue
    /// PULSE or RAMP with both varints at full length (1.15).
    public static let maxEncodedCount = 10

    public var opcode: Opcode {
        switch self {
        case .setA: .setA
        case .rampA: .rampA
        case .setS: .setS
        case .rampS: .rampS
        case .pulse: .pulse
        case .loop: .loop
        case .endLoop: .endLoop
        case .end: .end
        }
    }

    /// Ticks after the previous instruction's time.
    @inlinable
    public var delay: UInt32 {
        switch self {
        case .setA(_, let delay), .setS(_, let delay), .loop(_, let delay): delay
        case .rampA(_, _, let delay), .rampS(_, _, let delay), .pulse(_, _, let delay): delay
        case .endLoop(let delay), .end(let delay): delay
        }
    }

    /// The same instruction with another delay.
    public func withDelay(_ delay: UInt32) -> Instruction {
        switch self {
        case .setA(let value, _): .setA(value, delay: delay)
        case .rampA(let value, let duration, _): .rampA(to: value, duration: duration, delay: delay)
        case .setS(let value, _): .setS(value, delay: delay)
        case .rampS(let value, let duration, _): .rampS(to: value, duration: duration, delay: delay)
        case .pulse(let amplitude, let sharpness, _): .pulse(amplitude: amplitude, sharpness: sharpness, delay: delay)
        case .loop(let count, _): .loop(count: count, delay: delay)
        case .endLoop: .endLoop(delay: delay)
        case .end: .end(delay: delay)
        }
    }

    /// Pulse length in ticks from its sharpness code (1.10): 20 for 0 down to 10 for 255, the
    /// reference renderer's transient length at 1000 Hz.
    @inlinable
    public static func pulseLength(sharpness: UInt8) -> UInt8 {
        20 - UInt8((UInt16(sharpness) * 10 + 128) >> 8)
    }
}

extension Instruction: CustomStringConvertible {
    /// The vectors' listing form: "RAMP_A +32 128 2" (name, +delay, operands).
    public var description: String {
        let operands: [UInt32] =
            switch self {
            case .setA(let value, _), .setS(let value, _): [UInt32(value)]
            case .rampA(let value, let duration, _), .rampS(let value, let duration, _): [UInt32(value), duration]
            case .pulse(let amplitude, let sharpness, _): [UInt32(amplitude), UInt32(sharpness)]
            case .loop(let count, _): [UInt32(count)]
            case .endLoop, .end: []
            }
        return ([opcode.name, "+\(delay)"] + operands.map(String.init)).joined(separator: " ")
    }
}
