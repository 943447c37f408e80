import FirmwareModel
import HapticCompiler
import HapticPattern

extension Bench {
    /// What `haptic bench` reports: `--json` encodes it (schema haptic-bench/2, docs/cli.md), the
    /// table is printed from it.
    struct Report: Encodable {
        /// The files that decoded, in order.
        var files: [File]
        /// Per file, over the files that compiled.
        var medians: Medians
        var options: CompileOptionsReport
        var profile: String
        /// Times the set was compiled; `speed` is from the fastest run.
        var `repeat`: Int
        let schema = "haptic-bench/2"
        var speed: Speed
        var totals: Totals
        /// Files that did not decode.
        var unreadable: [Unreadable]
        /// `--max-error`, `--max-bytes`: empty when none was given.
        var gates: [Gate] = []

        struct File: Encodable {
            @Nullable var error: String?
            var file: String
            @Nullable var report: ProgramReport?
        }

        struct Medians: Encodable {
            var ahapRatio, compileSeconds, programBytes, rawRatio: Double
        }

        struct Speed: Encodable {
            /// The whole set, fastest run.
            var compileSeconds: Double
            /// `InterpreterBenchmark`'s busy program: its ticks and the model's speed on it.
            var interpreterBusyTicks: Int
            var interpreterBusyTicksPerSecond: Double
            /// During the fidelity checks.
            var interpreterTicksPerSecond, patternsPerSecond: Double
        }

        /// Sums over the files that compiled; means over all their ticks (sharpness: sounding ticks).
        struct Totals: Encodable {
            var ahapMinifiedBytes, amplitudeMaxError: Int
            var amplitudeMeanError: Double
            var bodyBytes, files: Int
            var instructions: ProgramReport.Instructions
            /// Files outside the tolerance or not compiled.
            var outsideTolerance, programBytes, pulses, rawSampleBytes: Int
            @Nullable var sharpnessMaxError: Int?
            @Nullable var sharpnessMeanError: Double?
            var ticks, transients: Int
        }

        struct Unreadable: Encodable {
            var error, file: String
        }
    }
}

extension Bench.Report {
    init(_ bench: CompilerBenchmark, busy: InterpreterBenchmark.Measurement, repeat runs: Int, unreadable: [(file: String, error: String)]) {
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
