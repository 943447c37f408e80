import HapticProtocol

/// A compiled pattern: the program and what it took.
public struct CompiledProgram: Sendable, Hashable {
    public var program: Program
    public var report: CompileReport

    /// The program file: header and body.
    public var bytes: [UInt8] { program.bytes }
}

/// Instructions of a program body by kind (END included).
public struct InstructionCounts: Sendable, Hashable {
    public var setA = 0, rampA = 0, setS = 0, rampS = 0, pulse = 0, loop = 0, endLoop = 0, end = 0

    public init() {}

    public init(_ instructions: [Instruction]) {
        for instruction in instructions {
            switch instruction.opcode {
            case .setA: setA += 1
            case .rampA: rampA += 1
            case .setS: setS += 1
            case .rampS: rampS += 1
            case .pulse: pulse += 1
            case .loop: loop += 1
            case .endLoop: endLoop += 1
            case .end: end += 1
            }
        }
    }

    public var total: Int { setA + rampA + setS + rampS + pulse + loop + endLoop + end }

    /// Envelope segments: SET and RAMP on either channel.
    public var segments: Int { setA + rampA + setS + rampS }

    /// (PROTOCOL.md name, count) in opcode order.
    public var byName: [(name: String, count: Int)] {
        [
            ("SET_A", setA), ("RAMP_A", rampA), ("SET_S", setS), ("RAMP_S", rampS),
            ("PULSE", pulse), ("LOOP", loop), ("ENDLOOP", endLoop), ("END", end),
        ]
    }

    public static func + (a: InstructionCounts, b: InstructionCounts) -> InstructionCounts {
        var sum = a
        sum.setA += b.setA
        sum.rampA += b.rampA
        sum.setS += b.setS
        sum.rampS += b.rampS
        sum.pulse += b.pulse
        sum.loop += b.loop
        sum.endLoop += b.endLoop
        sum.end += b.end
        return sum
    }
}

/// What one compilation produced and how faithful it is (docs/compiler.md, "Report").
public struct CompileReport: Sendable, Hashable {
    /// Profile name.
    public var profile: String
    public var tickRate: Int
    /// Program duration in ticks (its END time).
    public var totalTicks: Int
    public var instructions: InstructionCounts
    /// Transients the renderer plays (effective intensity above 0), and how many of them are
    /// PULSE instructions (the others show through the amplitude channel, or not at all when
    /// their code is 0).
    public var transients: Int
    public var pulses: Int
    /// SHARP flag set: the program has a sharpness channel.
    public var sharpnessChannel: Bool
    /// The profile's output stage uses sharpness (else it is neither encoded nor compared).
    public var sharpnessRendered: Bool
    /// Header + body.
    public var programBytes: Int
    public var bodyBytes: Int
    /// The same duration as raw samples at the program's tick rate: 2 bytes per tick
    /// (amplitude + frequency), no header.
    public var rawSampleBytes: Int
    /// The pattern as minified AHAP (`AHAPEncoder(minified: true)`).
    public var ahapMinifiedBytes: Int
    public var fidelity: FidelityReport
    /// Wall time of the whole compilation: render, transfer, fit, encode, fidelity check.
    public var compileSeconds: Double
    /// Things a default device (PROTOCOL.md 1.2) would object to: a body over its buffer, a
    /// full-scale stretch past its safety limit. The program itself is valid.
    public var deviceNotes: [String]
    /// Where it plays on the device it was compiled for (`CompileOptions.device`).
    public var placement: ProgramPlacement = .unplaced

    /// Raw sample bytes per program byte.
    public var rawRatio: Double { programBytes > 0 ? Double(rawSampleBytes) / Double(programBytes) : 0 }
    /// Minified AHAP bytes per program byte.
    public var ahapRatio: Double { programBytes > 0 ? Double(ahapMinifiedBytes) / Double(programBytes) : 0 }
}
