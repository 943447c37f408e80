import FirmwareModel
import HapticPattern

/// What `haptic bench` reports of a `CompilerBenchmark` (schema haptic-bench/2, docs/cli.md): its
/// figures as plain data for a JSON document; the command adds its gates and prints its table from it.
public struct BenchReport: Encodable {
    /// The files that decoded, in order.
    public var files: [File]
    /// Per file, over the files that compiled.
    public var medians: Medians
    public var options: CompileOptionsReport
    public var profile: String
    /// Times the set was compiled; `speed` is from the fastest run.
    public var `repeat`: Int
    public let schema = "haptic-bench/2"
    public var speed: Speed
    public var totals: Totals
    /// Files that did not decode.
    public var unreadable: [Unreadable]

    public struct File: Encodable {
        @Nullable public var error: String?
        public var file: String
        @Nullable public var report: ProgramReport?
    }

    public struct Medians: Encodable {
        public var ahapRatio, compileSeconds, programBytes, rawRatio: Double
    }

    public struct Speed: Encodable {
        /// The whole set, fastest run.
        public var compileSeconds: Double
        /// `InterpreterBenchmark`'s busy program: its ticks and the model's speed on it.
        public var interpreterBusyTicks: Int
        public var interpreterBusyTicksPerSecond: Double
        /// During the fidelity checks.
        public var interpreterTicksPerSecond, patternsPerSecond: Double
    }

    /// Sums over the files that compiled; means over all their ticks (sharpness: sounding ticks).
    public struct Totals: Encodable {
        public var ahapMinifiedBytes, amplitudeMaxError: Int
        public var amplitudeMeanError: Double
        public var bodyBytes, files: Int
        public var instructions: ProgramReport.Instructions
        /// Files outside the tolerance or not compiled.
        public var outsideTolerance, programBytes, pulses, rawSampleBytes: Int
        @Nullable public var sharpnessMaxError: Int?
        @Nullable public var sharpnessMeanError: Double?
        public var ticks, transients: Int
    }

    public struct Unreadable: Encodable {
        public var error, file: String
    }
}

extension BenchReport {
    public init(_ bench: CompilerBenchmark, busy: InterpreterBenchmark.Measurement, repeat runs: Int, unreadable: [(file: String, error: String)]) {
        files = bench.entries.map { File(error: $0.error, file: $0.label, report: $0.report.map(ProgramReport.init)) }
        medians = Medians(
            ahapRatio: bench.medianAHAPRatio, compileSeconds: bench.medianCompileSeconds,
            programBytes: bench.medianProgramBytes, rawRatio: bench.medianRawRatio)
        options = CompileOptionsReport(bench.options)
        profile = bench.profile
        `repeat` = runs
        speed = Speed(
            compileSeconds: bench.compileSeconds, interpreterBusyTicks: busy.ticks,
            interpreterBusyTicksPerSecond: busy.ticksPerSecond,
            interpreterTicksPerSecond: bench.interpreterTicksPerSecond, patternsPerSecond: bench.patternsPerSecond)
        totals = Totals(
            ahapMinifiedBytes: bench.totalAHAPMinifiedBytes, amplitudeMaxError: bench.amplitudeMaxError,
            amplitudeMeanError: bench.amplitudeMeanError, bodyBytes: bench.totalBodyBytes, files: bench.entries.count,
            instructions: ProgramReport.Instructions(counts: bench.totalInstructions),
            outsideTolerance: bench.failures, programBytes: bench.totalProgramBytes, pulses: bench.totalPulses,
            rawSampleBytes: bench.totalRawSampleBytes, sharpnessMaxError: bench.sharpnessMaxError,
            sharpnessMeanError: bench.sharpnessMeanError, ticks: bench.totalTicks, transients: bench.totalTransients)
        self.unreadable = unreadable.map { Unreadable(error: $0.error, file: $0.file) }
    }
}
