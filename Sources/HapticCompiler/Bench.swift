import HapticPattern

/// Compiles a set of patterns in one run and sums up the figures of docs/performance.md,
/// "Compiler": bytes against raw samples and minified AHAP, error, compile throughput and the
/// interpreter model's speed during the fidelity checks.
public struct CompilerBenchmark: Sendable {
    /// One pattern: its label (file path or preset name) and the compilation's report, or why
    /// it failed.
    public struct Entry: Sendable {
        public var label: String
        public var report: CompileReport?
        public var error: String?
    }

    public var profile: String
    public var options: CompileOptions
    public var entries: [Entry]
    /// Wall time of all compilations together (patterns already decoded).
    public var compileSeconds: Double

    /// Compiles every pattern once, in order, with `profile`.
    public static func run(
        _ patterns: [(label: String, pattern: HapticPattern)], profile: ActuatorProfile,
        options: CompileOptions = CompileOptions()
    ) -> CompilerBenchmark {
        var options = options
        options.failOnToleranceExceeded = false
        var entries: [Entry] = []
        entries.reserveCapacity(patterns.count)
        let clock = ContinuousClock()
        let start = clock.now
        for (label, pattern) in patterns {
            do {
                let compiled = try PatternCompiler.compile(pattern, profile: profile, options: options)
                entries.append(Entry(label: label, report: compiled.report, error: nil))
            } catch {
                entries.append(Entry(label: label, report: nil, error: error.description))
            }
        }
        return CompilerBenchmark(
            profile: profile.name, options: options, entries: entries,
            compileSeconds: (clock.now - start).seconds)
    }

    public var reports: [CompileReport] { entries.compactMap(\.report) }

    public var totalProgramBytes: Int { reports.reduce(0) { $0 + $1.programBytes } }
    public var totalBodyBytes: Int { reports.reduce(0) { $0 + $1.bodyBytes } }
    public var totalRawSampleBytes: Int { reports.reduce(0) { $0 + $1.rawSampleBytes } }
    public var totalAHAPMinifiedBytes: Int { reports.reduce(0) { $0 + $1.ahapMinifiedBytes } }
    public var totalTicks: Int { reports.reduce(0) { $0 + $1.totalTicks } }
    public var totalInstructions: InstructionCounts { reports.reduce(InstructionCounts()) { $0 + $1.instructions } }
    public var totalTransients: Int { reports.reduce(0) { $0 + $1.transients } }
    public var totalPulses: Int { reports.reduce(0) { $0 + $1.pulses } }

    /// Largest amplitude error over all files, LSB.
    public var amplitudeMaxError: Int { reports.map(\.fidelity.amplitudeMaxError).max() ?? 0 }
    /// Mean amplitude error over all ticks of all files, LSB.
    public var amplitudeMeanError: Double {
        let ticks = reports.reduce(0) { $0 + $1.fidelity.ticks }
        let sum = reports.reduce(0.0) { $0 + $1.fidelity.amplitudeMeanError * Double($1.fidelity.ticks) }
        return ticks > 0 ? sum / Double(ticks) : 0
    }
    /// Largest sharpness error at sounding ticks, LSB; nil when the profile ignores sharpness.
    public var sharpnessMaxError: Int? { reports.compactMap(\.fidelity.sharpnessMaxError).max() }
    public var sharpnessMeanError: Double? {
        guard reports.contains(where: { $0.fidelity.sharpnessMeanError != nil }) else { return nil }
        let ticks = reports.reduce(0) { $0 + $1.fidelity.sharpnessTicks }
        let sum = reports.reduce(0.0) { $0 + ($1.fidelity.sharpnessMeanError ?? 0) * Double($1.fidelity.sharpnessTicks) }
        return ticks > 0 ? sum / Double(ticks) : 0
    }
    /// Files whose program strays beyond the tolerance (or failed to compile).
    public var failures: Int { entries.filter { $0.report.map { !$0.fidelity.withinTolerance } ?? true }.count }

    public var patternsPerSecond: Double { compileSeconds > 0 ? Double(entries.count) / compileSeconds : 0 }
    /// Ticks the interpreter model played per second during the fidelity checks.
    public var interpreterTicksPerSecond: Double {
        let seconds = reports.reduce(0.0) { $0 + $1.fidelity.playbackSeconds }
        return seconds > 0 ? Double(reports.reduce(0) { $0 + $1.fidelity.ticks }) / seconds : 0
    }

    public var medianProgramBytes: Double { Self.median(reports.map { Double($0.programBytes) }) }
    public var medianRawRatio: Double { Self.median(reports.map(\.rawRatio)) }
    public var medianAHAPRatio: Double { Self.median(reports.map(\.ahapRatio)) }
    public var medianCompileSeconds: Double { Self.median(reports.map(\.compileSeconds)) }

    /// The median as every report defines it (`Percentile.median`); 0 for none.
    public static func median(_ values: [Double]) -> Double { Percentile.median(values) }
}
