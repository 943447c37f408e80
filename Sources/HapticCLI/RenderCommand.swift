import ArgumentParser
import Foundation
import HapticCompiler
import HapticPattern
import HapticPlots

/// `haptic render FILE|preset:NAME -o OUT.svg|OUT.png|OUT.csv [--rate HZ]`: the reference renderer's
/// intensity and sharpness (docs/semantics.md) as a plot or as samples.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Plot a pattern's intensity and sharpness over time (SVG or PNG), or write the samples (CSV).",
        discussion: """
            Samples come from the reference renderer on the tick grid (tick k at k / rate). CSV columns are \
            time_s,intensity,sharpness, one row per tick. The plot shows both channels on a shared time axis, \
            with lanes marking continuous events, transients and (ignored) audio events.

            Exit status: 0 on success; 1 when the input does not load or the file cannot be written; 64 for a bad command line.
            """
    )

    @Argument(help: "An AHAP file, preset:NAME (see `haptic presets`), or a haptic set (docs/channels.md): one panel per channel.")
    var input: String

    @Option(name: .shortAndLong, help: "Output file: .svg, .png or .csv (by extension); '-' writes CSV to standard output.")
    var output: String

    @Option(parsing: .unconditional, help: "Samples per second, 1...100000.")
    var rate: Double = 1000

    @Option(parsing: .unconditional, help: "Image width in pixels (SVG and PNG), 320...4000.")
    var width: Int = 960

    @Flag(help: "Decode AHAP strictly (reject what lenient decoding repairs).")
    var strict = false

    @Option(
        help:
            "Also compile for this actuator profile (name or file) and show the firmware output and the simulated acceleration, with rise (50 %, 90 %) and stop (10 %) markers."
    )
    var actuator: String?

    enum Format { case svg, png, csv }

    var format: Format? {
        if output == "-" { return .csv }
        switch (output as NSString).pathExtension.lowercased() {
        case "svg": return .svg
        case "png": return .png
        case "csv": return .csv
        default: return nil
        }
    }

    func validate() throws {
        guard rate.isFinite, rate >= 1, rate <= 100_000 else { throw ValidationError("--rate must be between 1 and 100000 Hz") }
        guard (320...4000).contains(width) else { throw ValidationError("--width must be between 320 and 4000 pixels") }
        try OutputPath.validate(output, option: "-o", extensions: ["svg", "png", "csv"])
        guard actuator == nil || rate == 1000 else { throw ValidationError("--actuator plays the program at 1000 Hz: leave --rate at 1000") }
    }

    func run() throws {
        if let document = try PatternInput.loadSet(input, strict: strict) { return try renderSet(document.set) }
        let loaded = try PatternInput.load(input, strict: strict)
        let renderer = ReferenceRenderer(pattern: loaded.pattern)
        let samples = renderer.render(rate: rate)
        let played = try actuator.map { name in
            let profile = try Compile.loadProfile(name)
            do {
                return try ActuatorPlot(pattern: loaded.pattern, profile: profile)
            } catch {
                throw ValidationError(String(describing: error))
            }
        }
        var plot: TimePlot {
            var plot = Self.plot(loaded, renderer, samples, rate: rate, width: Double(width))
            played?.extend(&plot, width: Double(width))
            return plot
        }
        let bytes: [UInt8]
        switch format! {
        case .csv:
            if let played {
                bytes = Array(played.csv(samples: samples).text().utf8)
                break
            }
            let rows = samples.enumerated().map { [Double($0.offset) / rate, $0.element.intensity, $0.element.sharpness] }
            bytes = Array(CSVTable(columns: ["time_s", "intensity", "sharpness"], rows: rows).text().utf8)
        case .svg:
            bytes = Array(plot.svg().utf8)
        case .png:
            bytes = plot.png()
        }
        try writeOutput(bytes, to: output)
        if output != "-" {
            let repairs = loaded.warnings.isEmpty ? "" : "; \(loaded.warnings.count) repair(s) while decoding, see `haptic inspect`"
            print("wrote \(output): \(TimePlot.seconds(renderer.duration)) s, \(samples.count) samples at \(TimePlot.seconds(rate)) Hz\(repairs)")
            if let played { print(played.summary) }
        }
    }

    /// A haptic set: one panel per (board, channel) of `HapticSetRenderer`'s mix (docs/channels.md).
    private func renderSet(_ set: HapticSet) throws {
        guard actuator == nil else { throw ValidationError("--actuator is for one pattern; a set's entries name their actuators") }
        let rendering = HapticSetRenderer.render(set, rate: rate)
        let plot = TimePlot.set(set, rendering: rendering, title: set.name ?? (input as NSString).lastPathComponent, width: Double(width))
        let bytes = format! == .csv ? Array(CSVTable.set(rendering).text().utf8) : format! == .svg ? Array(plot.svg().utf8) : plot.png()
        try writeOutput(bytes, to: output)
        if output != "-" {
            print("wrote \(output): \(rendering.channels.count) channel(s), \(set.entries.count) entries, \(TimePlot.seconds(rendering.duration)) s")
        }
    }

    /// The standard render plot (`TimePlot.pattern`), titled with the input's label.
    static func plot(
        _ loaded: PatternInput, _ renderer: ReferenceRenderer, _ samples: [RenderedSample],
        rate: Double, width: Double
    ) -> TimePlot {
        TimePlot.pattern(
            loaded.pattern, title: loaded.label, note: loaded.preset?.summary, renderer: renderer, samples: samples, rate: rate, width: width)
    }
}
