import HapticPattern

/// One compiled program as `haptic compile` and `haptic bench` report it (the `report` of each
/// file in haptic-compile/2 and haptic-bench/2; docs/cli.md): `CompileReport`'s figures as plain
/// data for a JSON document (snake_case keys, null for an absent value).
public struct ProgramReport: Encodable {
    public var ahapMinifiedBytes: Int
    public var ahapRatio: Double
    public var bodyBytes: Int
    public var compileSeconds: Double
    public var deviceNotes: [String]
    public var fidelity: Fidelity
    public var instructions: Instructions
    public var profile: String
    public var programBytes, pulses: Int
    public var rawRatio: Double
    public var rawSampleBytes: Int
    public var sharpnessChannel, sharpnessRendered: Bool
    public var tickRate, totalTicks, transients: Int

    public struct Fidelity: Encodable {
        public var amplitudeMaxError: Int
        public var amplitudeMeanError, playbackSeconds: Double
        @Nullable public var problem: String?
        /// Null when the profile does nothing with sharpness.
        @Nullable public var sharpnessMaxError: Int?
        @Nullable public var sharpnessMeanError: Double?
        public var sharpnessTicks, sharpnessTolerance, ticks, tolerance: Int
        public var withinTolerance: Bool
    }

    /// Instruction counts; each key is the PROTOCOL.md name in lower case (`set_a`, `endloop`),
    /// plus `total`.
    public struct Instructions: Encodable {
        public var counts: InstructionCounts

        public init(counts: InstructionCounts) { self.counts = counts }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            for (name, count) in counts.byName {
                try container.encode(count, forKey: ReportKey(name.lowercased()))
            }
            try container.encode(counts.total, forKey: ReportKey("total"))
        }
    }

    public init(_ r: CompileReport) {
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
public struct CompileOptionsReport: Encodable {
    public var loops: Bool
    public var sharpnessTolerance, tickRate, tolerance: Int

    public init(_ options: CompileOptions) {
        loops = options.loops
        sharpnessTolerance = options.effectiveSharpnessTolerance
        tickRate = Int(options.tickRate)
        tolerance = options.tolerance
    }
}

/// A key of a report named at run time (instruction names).
public struct ReportKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
