import HapticCompiler
import HapticPattern

/// One compiled program as `haptic compile` and `haptic bench` report it (the `report` of each
/// file in haptic-compile/2 and haptic-bench/2; docs/cli.md): `HapticCompiler.CompileReport`'s
/// figures, with the ratios worked out.
struct ProgramReport: Encodable {
    var ahapMinifiedBytes: Int
    var ahapRatio: Double
    var bodyBytes: Int
    var compileSeconds: Double
    var deviceNotes: [String]
    var fidelity: Fidelity
    var instructions: Instructions
    var profile: String
    var programBytes, pulses: Int
    var rawRatio: Double
    var rawSampleBytes: Int
    var sharpnessChannel, sharpnessRendered: Bool
    var tickRate, totalTicks, transients: Int

    struct Fidelity: Encodable {
        var amplitudeMaxError: Int
        var amplitudeMeanError, playbackSeconds: Double
        @Nullable var problem: String?
        /// Null when the profile does nothing with sharpness.
        @Nullable var sharpnessMaxError: Int?
        @Nullable var sharpnessMeanError: Double?
        var sharpnessTicks, sharpnessTolerance, ticks, tolerance: Int
        var withinTolerance: Bool
    }

    /// Instruction counts; each key is the PROTOCOL.md name in lower case (`set_a`, `endloop`),
    /// plus `total`.
    struct Instructions: Encodable {
        var counts: InstructionCounts

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            for (name, count) in counts.byName {
                try container.encode(count, forKey: ReportKey(name.lowercased()))
            }
            try container.encode(counts.total, forKey: ReportKey("total"))
        }
    }

    init(_ r: CompileReport) {
        ahapMinifiedBytes = r.ahapMinifiedBytes
        ahapRatio = r.ahapRatio
        bodyBytes = r.bodyBytes
        compileSeconds = r.compileSeconds
        deviceNotes = r.deviceNotes
        let f = r.fidelity
        fidelity = Fidelity(
            amplitudeMaxError: f.amplitudeMaxError, amplitudeMeanError: f.amplitudeMeanError,
            playbackSeconds: f.playbackSeconds, problem: f.problem, sharpnessMaxError: f.sharpnessMaxError,
            sharpnessMeanError: f.sharpnessMeanError, sharpnessTicks: f.sharpnessTicks,
            sharpnessTolerance: f.sharpnessTolerance, ticks: f.ticks, tolerance: f.tolerance,
            withinTolerance: f.withinTolerance)
        instructions = Instructions(counts: r.instructions)
        profile = r.profile
        programBytes = r.programBytes
        pulses = r.pulses
        rawRatio = r.rawRatio
        rawSampleBytes = r.rawSampleBytes
        sharpnessChannel = r.sharpnessChannel
        sharpnessRendered = r.sharpnessRendered
        tickRate = r.tickRate
        totalTicks = r.totalTicks
        transients = r.transients
    }
}

/// The compile options both commands report (`options` in haptic-compile/2 and haptic-bench/2).
struct CompileOptionsReport: Encodable {
    var loops: Bool
    var sharpnessTolerance, tickRate, tolerance: Int

    init(_ options: CompileOptions) {
        loops = options.loops
        sharpnessTolerance = options.effectiveSharpnessTolerance
        tickRate = Int(options.tickRate)
        tolerance = options.tolerance
    }
}

/// A key named at run time (instruction names).
struct ReportKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
