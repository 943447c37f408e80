import ArgumentParser
import Foundation
import HapticPattern
import SerialBridge

/// `haptic profile [--port PATH] [-n N] [--json] [-o OUT.svg] [--baud N]`: the latency profiler
/// (docs/cli.md, docs/performance.md "Serial bridge latency"); `--mcu` hands over to the board's
/// cycle budget in simavr (`ProfiledMCU`).
struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Measure play latency, prepared and upload-then-play, over the corpus patterns.",
        discussion: """
            Latency is the time from the host's play call to the device's first tick with non-zero output, from the \
            device's FIRST_OUTPUT telemetry placed on the host clock by PING/PONG (smallest round trip of four, before \
            every play), with each pattern's own lead-in subtracted. Without --port the virtual device on a \
            pseudo-terminal is measured. Beside it, the felt onset: to the simulated acceleration first reaching 50 % and \
            90 % of the pattern's first peak on the device's actuator profile (docs/performance.md, "Felt onset"). Patterns: --corpus DIR, else $HAPTIC_CORPUS, else Examples/corpus of the checkout.

            Gates for CI: --max-p99 MS fails the run when the prepared plays' p99 is above MS; --max-felt-lag-over-floor MS \
            when their felt lag p99 is more than MS above its floor's p99 (docs/performance.md, "Felt lag and its floor"); --min-speedup X when prepared \
            plays are less than X times faster at the corpus median than unprepared plays from a cold output stage (with \
            --cold) or than upload-then-play (without --cold). A missed gate is one line on standard error after the output.

            Exit status: 0 when it measured and every gate given is met (the built-in targets are reported, not enforced); 1 when a gate is missed, or the device, the corpus or a play failed; 64 for a bad command line.
            """
    )

    @Option(help: "Serial port of a board (default: the virtual device); with --sync, one for each board of the group.")
    var port: [String] = []

    @Flag(
        help:
            "Measure the start and end skew across the boards of --port (two or more) instead: -n felt-aligned plays and one long play (docs/performance.md, \"Start skew across boards\")."
    )
    var sync = false

    @Option(
        name: .customLong("long-play"), parsing: .unconditional,
        help: ArgumentHelp("With --sync: seconds of the long play, 0...600 (default 30; 0: none).", valueName: "seconds"))
    var longPlay: Double = 30

    @Flag(
        name: .customLong("no-stretch"),
        help: "With --sync: play every board the same ticks instead of stretching each board's pattern by its measured rate (shows the raw drift).")
    var noStretch = false

    @Option(name: [.customShort("n"), .customLong("repeat")], parsing: .unconditional, help: "Plays of each kind, 1 or more.")
    var n: Int = 100

    @Flag(help: "Write one JSON document (schema haptic-profile/2, docs/cli.md) instead of text; progress stays off.")
    var json = false

    @Option(
        name: [.short, .long, .customLong("svg")],
        help: ArgumentHelp("Also write the latency distributions as a cumulative SVG plot to this .svg file.", valueName: "file.svg"))
    var output: String?

    @OptionGroup var line: LineOptions

    @Option(help: "Directory of .ahap files to play.")
    var corpus: String?

    @Flag(help: "Also time one unprepared play per pattern from a cold output stage (waits out the device's idle time, ~2 s, before each).")
    var cold = false

    @Option(
        name: .customLong("max-p99"), parsing: .unconditional,
        help: ArgumentHelp("Gate: exit 1 when the prepared plays' p99 latency is above this, in ms (more than 0).", valueName: "ms"))
    var maxP99: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Gate: exit 1 when prepared plays are less than X times faster at the corpus median: than unprepared plays from a cold stage with --cold, else than upload-then-play (more than 0).",
            valueName: "x"))
    var minSpeedup: Double?

    @Option(
        name: .customLong("max-felt-lag-over-floor"), parsing: .unconditional,
        help: ArgumentHelp(
            "Gate: exit 1 when the prepared plays' felt lag p99 is more than this above its floor's p99, in ms (0 or more).", valueName: "ms"))
    var maxFeltLagOverFloor: Double?

    @Option(
        help: "Measure the firmware on this emulated microcontroller instead: atmega328p (cycles, simavr), cortex-m or microbit (instructions, QEMU)."
    )
    var mcu: String?

    @Option(
        help:
            "With --mcu: the AVR firmware ELF to measure (default: built with avr-gcc from the HapticBridge checkout you run in, into ~/.cache/hapticbridge/firmware)."
    )
    var firmware: String?

    func validate() throws {
        guard n > 0 else { throw ValidationError("-n/--repeat must be 1 or more, not \(n)") }
        if sync {
            guard port.count >= 2 else { throw ValidationError("--sync needs two or more --port, one for each board (got \(port.count))") }
            guard Set(port).count == port.count else { throw ValidationError("--sync: a --port is given twice") }
            guard (0...600).contains(longPlay) else { throw ValidationError("--long-play must be 0...600 seconds, not \(longPlay)") }
            for option in [(mcu, "--mcu"), (maxP99.map { "\($0)" }, "--max-p99"), (minSpeedup.map { "\($0)" }, "--min-speedup"), (output, "-o")]
            where option.0 != nil {
                throw ValidationError("\(option.1) does not go with --sync (it belongs to the latency profiler)")
            }
        } else if port.count > 1 {
            throw ValidationError("more than one --port needs --sync (the latency profiler measures one board)")
        }
        if let corpus {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--corpus \(corpus): no such folder (a folder of .ahap files)")
            }
        }
        if let output { try OutputPath.validate(output, option: "-o", extensions: ["svg"]) }
        for (option, value) in [("--max-p99", maxP99), ("--min-speedup", minSpeedup)] {
            guard let value else { continue }
            guard value > 0, value.isFinite else { throw ValidationError("\(option) must be a number more than 0, not \(value)") }
            if mcu != nil { throw ValidationError("\(option) gates the latency profiler; --mcu measures cycle budgets instead") }
        }
        if let maxFeltLagOverFloor {
            guard maxFeltLagOverFloor >= 0, maxFeltLagOverFloor.isFinite else {
                throw ValidationError("--max-felt-lag-over-floor must be a number 0 or more, not \(maxFeltLagOverFloor)")
            }
            if mcu != nil { throw ValidationError("--max-felt-lag-over-floor gates the latency profiler; --mcu measures cycle budgets instead") }
        }
    }

    /// The gates given on the command line, judged on the report.
    func gates(_ report: Report) -> [Gate] {
        var gates: [Gate] = []
        if let maxP99 {
            gates.append(.atMost("max-p99", "prepared p99", value: report.prepared.p99Ms, limit: maxP99) { String(format: "%.3f ms", $0) })
        }
        if let maxFeltLagOverFloor {
            gates.append(
                .atMost(
                    "max-felt-lag-over-floor", "felt lag p99 over its floor's p99", value: report.feltLag.p99Ms - report.feltFloor.p99Ms,
                    limit: maxFeltLagOverFloor
                ) {
                    String(format: "%.3f ms", $0)
                })
        }
        if let minSpeedup {
            let (figure, value) =
                cold
                ? ("prepared vs unprepared (cold) at the corpus median", report.coldSpeedupAtCorpusMedian ?? 0)
                : ("prepared vs upload-then-play at the corpus median", report.speedupAtCorpusMedian)
            gates.append(.atLeast("min-speedup", figure, value: value, limit: minSpeedup) { String(format: "%.1fx", $0) })
        }
        return gates
    }

    func run() async throws {
        if sync {
            try await runSync()
            return
        }
        if let mcu {
            do {
                emit(try ProfiledMCU.report(mcu: mcu, firmware: firmware, json: json))
            } catch {
                throw CommandFailure("\(error)")
            }
            return
        }
        guard let directory = corpus ?? DefaultCorpus.directory() else { throw CommandFailure(DefaultCorpus.missing) }
        let subjects = LatencyProfiler.subjects(inDirectory: directory)
        guard !subjects.isEmpty else { throw CommandFailure("no .ahap files decode in \(directory)") }
        var virtual: VirtualDevice?
        let path: String
        if let port = port.first {
            path = port
        } else {
            let device = try VirtualDevice(options: VirtualDevice.Options(baudRate: line.baud))
            device.start()
            virtual = device
            path = device.path
        }
        defer { virtual?.stop() }
        let device = try await CommandFailure.reporting { try await HapticDevice.open(path: path, baudRate: line.baud) }
        let report: LatencyReport
        do {
            // The virtual device's felt onset runs through what it output; a board's through the model.
            let recorded = virtual.map { virtual in { @Sendable (from: UInt32, count: Int) in virtual.samples(from: from, count: count) } }
            let profiler = LatencyProfiler(
                device: device, subjects: subjects,
                options: .init(iterations: n, baudRate: line.baud, coldPlays: cold, recordedOutput: recorded))
            // Two plays per iteration, and with --cold one more per pattern after the idle wait.
            let plays = Double(2 * n + (cold ? subjects.count : 0))
            let progress = ProgressDisplay("profiling", total: plays, quiet: json)
            report = try await profiler.run { _ in progress.advance() }
            progress.finish()
        } catch {
            await device.close()
            throw CommandFailure("\(error)")
        }
        await device.close()
        let target = virtual == nil ? path : "virtual device on \(path)"
        var document = Report(report, target: target, corpus: directory, patterns: subjects.count)
        document.gates = gates(document)
        if json {
            emit(try reportJSON(document))
        } else {
            emit(Self.text(document))
        }
        if let output {
            try writeOutput(Array(Self.svg(report).utf8), to: output)
        }
        try Gate.enforce(document.gates)
    }

    static func text(_ report: Report) -> String {
        var rows = [("prepared", report.prepared), ("upload-then-play", report.uploadThenPlay)]
        if let cold = report.unpreparedCold { rows.append(("unprepared, cold", cold)) }
        var lines = [
            "latency of \(report.prepared.count) plays of each kind on \(report.target) at \(report.baud) baud, \(report.patterns) patterns from \(report.corpus)",
            "",
        ]
        lines.append("                        p50       p90       p99       max      mean  (ms)")
        for (name, s) in rows {
            lines.append(
                name.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + [s.p50Ms, s.p90Ms, s.p99Ms, s.maxMs, s.meanMs].map { String(format: "%10.3f", $0) }.joined())
        }
        lines.append("")
        lines.append("felt onset on \(report.actuatorProfile) (\(report.feltSource)): play call -> 50 % / 90 % of the first peak")
        lines.append("                            p50       p90       p99       max      mean  (ms)")
        var felt = [("prepared", report.feltOnset.prepared), ("upload-then-play", report.feltOnset.uploadThenPlay)]
        if let cold = report.feltOnset.unpreparedCold { felt.append(("unprepared, cold", cold)) }
        for (name, f) in felt {
            for (level, s) in [("50 %", f.felt50), ("90 %", f.felt90)] {
                lines.append(
                    "\(name) \(level)".padding(toLength: 22, withPad: " ", startingAt: 0)
                        + [s.p50Ms, s.p90Ms, s.p99Ms, s.maxMs, s.meanMs].map { String(format: "%10.3f", $0) }.joined())
            }
        }
        lines.append("where the time goes (medians, ms): host + line + tick wait + wake-up = first output; + rise = felt")
        for (name, f) in felt {
            let b = f.breakdown
            lines.append(
                name.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + String(
                        format: "%.3f + %.3f + %.3f + %.3f = %.3f; + %.3f = %.3f (50 %%); + %.3f = %.3f (90 %%)",
                        b.hostMs, b.lineMs, b.tickWaitMs, b.wakeUpMs, b.firstOutputMs, b.rise50Ms, b.felt50Ms, b.rise90Ms, b.felt90Ms))
        }
        lines.append(String(format: "prepared felt onset (50 %%) p99 / first output p99: %.1fx", report.feltToFirstOutputRatio))
        lines.append(
            String(
                format: "felt lag (felt later than intended), prepared: p50 %.3f p99 %.3f ms; floor p50 %.3f p99 %.3f ms",
                report.feltLag.p50Ms, report.feltLag.p99Ms, report.feltFloor.p50Ms, report.feltFloor.p99Ms))
        if !report.silentPatterns.isEmpty {
            lines.append("left out (never sound): " + report.silentPatterns.joined(separator: ", "))
        }
        lines.append("")
        lines.append(
            String(
                format: "lower bound: PLAY frame %d bytes = %.3f ms on the line, up to %.3f ms with the wait for the next tick",
                report.playFrameBytes, report.linkTimeMs, report.lowerBoundMs))
        lines.append(
            String(
                format: "target: prepared p99 <= %.3f ms (lower bound + 1 ms): %@", report.preparedTargetMs,
                report.meetsLatencyTarget ? "met" : "missed"))
        lines.append(String(format: "prepared vs upload-then-play at the corpus median: %.1fx faster", report.speedupAtCorpusMedian))
        if let cold = report.coldSpeedupAtCorpusMedian, let met = report.meetsSpeedupTarget {
            lines.append(
                String(
                    format: "prepared vs unprepared (cold output stage) at the corpus median: %.1fx faster (target >= 10x): %@",
                    cold, met ? "met" : "missed"))
        } else {
            lines.append("(the 10x target compares prepared plays with unprepared ones from a cold output stage: add --cold)")
        }
        return lines.joined(separator: "\n")
    }

    /// Cumulative distributions of both ways to the first output, and of prepared plays to the felt
    /// onset (50 %, 90 %), on a logarithmic millisecond axis, with the lower bound.
    static func svg(_ report: LatencyReport) -> String {
        let width = 720.0, height = 360.0, left = 60.0, right = 20.0, top = 30.0, bottom = 50.0
        let curves: [([Double], String, String)] = [
            (report.prepared.map(\.latency), "#1f77b4", "prepared"), (report.uploadThenPlay.map(\.latency), "#d62728", "upload-then-play"),
            (report.prepared.compactMap(\.felt50), "#2ca02c", "prepared, felt 50 %"), (report.prepared.compactMap(\.felt90), "#9467bd", "felt 90 %"),
        ]
        let all = curves.flatMap(\.0).map { max($0 * 1000, 0.1) }
        let low = log10(max(0.1, min(all.min() ?? 1, report.linkTime * 1000) * 0.8))
        let high = log10(max(all.max() ?? 10, 1) * 1.2)
        func x(_ ms: Double) -> Double { left + (log10(max(ms, 0.1)) - low) / (high - low) * (width - left - right) }
        func y(_ fraction: Double) -> Double { top + (1 - fraction) * (height - top - bottom) }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(left)\" y=\"18\">Play latency and felt onset (\(report.actuatorProfile)), cumulative (\(report.prepared.count) plays each, \(report.baudRate) baud)</text>",
        ]
        var decade = floor(low)
        while decade <= high {
            for m in [1.0, 2, 5] {
                let ms = pow(10, decade) * m
                guard log10(ms) >= low, log10(ms) <= high else { continue }
                let px = String(format: "%.1f", x(ms))
                parts.append("<line x1=\"\(px)\" y1=\"\(y(1))\" x2=\"\(px)\" y2=\"\(y(0))\" stroke=\"#ddd\"/>")
                parts.append("<text x=\"\(px)\" y=\"\(y(0) + 16)\" text-anchor=\"middle\">\(ms >= 1 ? String(Int(ms)) : String(ms))</text>")
            }
            decade += 1
        }
        parts.append(
            "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 10)\" text-anchor=\"middle\">ms from the play call to the first output tick, or to the felt onset</text>"
        )
        for fraction in [0.0, 0.5, 0.9, 1.0] {
            parts.append("<text x=\"\(left - 6)\" y=\"\(y(fraction) + 4)\" text-anchor=\"end\">\(Int(fraction * 100))%</text>")
        }
        // The PLAY frame's line time, and that plus one tick: the lower bound's two ends.
        for (seconds, label) in [(report.linkTime, "PLAY frame line time"), (report.lowerBound, "+ 1 tick")] {
            let px = String(format: "%.1f", x(seconds * 1000))
            let tx = String(format: "%.1f", x(seconds * 1000) - 5), ty = String(format: "%.1f", y(0.5))
            parts.append("<line x1=\"\(px)\" y1=\"\(y(1))\" x2=\"\(px)\" y2=\"\(y(0))\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>")
            parts.append("<text x=\"\(tx)\" y=\"\(ty)\" transform=\"rotate(-90 \(tx) \(ty))\" text-anchor=\"middle\" fill=\"#666\">\(label)</text>")
        }
        for (index, (seconds, colour, name)) in curves.enumerated() {
            let sorted = seconds.map { $0 * 1000 }.sorted()
            guard !sorted.isEmpty else { continue }
            var points: [String] = []
            for (index, ms) in sorted.enumerated() {
                points.append(String(format: "%.1f,%.1f", x(ms), y(Double(index) / Double(sorted.count))))
                points.append(String(format: "%.1f,%.1f", x(ms), y(Double(index + 1) / Double(sorted.count))))
            }
            parts.append("<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>")
            let label = String(format: "%.1f", x(sorted[sorted.count / 2]) + 6)
            parts.append("<text x=\"\(label)\" y=\"\(y(0.5) - 6 - 14 * Double(index % 2))\" fill=\"\(colour)\">\(name)</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }
}
