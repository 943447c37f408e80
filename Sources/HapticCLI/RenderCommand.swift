import ArgumentParser
import Foundation
import HapticPattern

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

    @Argument(help: "An AHAP file, or preset:NAME (see `haptic presets`).")
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
        let loaded = try PatternInput.load(input, strict: strict)
        let renderer = ReferenceRenderer(pattern: loaded.pattern)
        let samples = renderer.render(rate: rate)
        let played = try actuator.map { try RenderActuator(pattern: loaded.pattern, actuator: $0) }
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
            print("wrote \(output): \(Self.seconds(renderer.duration)) s, \(samples.count) samples at \(Self.seconds(rate)) Hz\(repairs)")
            if let played { print(played.summary) }
        }
    }

    /// The standard render plot: lanes for the events, then intensity and sharpness panels.
    static func plot(
        _ loaded: PatternInput, _ renderer: ReferenceRenderer, _ samples: [RenderedSample],
        rate: Double, width: Double
    ) -> TimePlot {
        let pattern = loaded.pattern
        // One silent point after the last tick, so a pattern's final drop to zero shows.
        let times = (0...samples.count).map { Double($0) / rate }
        let intensity = samples.map(\.intensity) + [0], sharpness = samples.map(\.sharpness) + [0]
        // Stairs show the tick grid when a tick is at least 3 px wide; finer, they only look jagged.
        let stairs = width / max(renderer.duration * rate, 1) >= 3
        var continuous = TimePlot.Lane(name: "continuous", color: .green, marks: [])
        var transients = TimePlot.Lane(name: "transients", color: .vermillion, marks: [])
        var audio = TimePlot.Lane(name: "audio (ignored)", color: .gray, marks: [])
        for (index, event) in pattern.events.enumerated() {
            switch event.type {
            case .hapticContinuous:
                continuous.marks.append(.init(start: event.time, end: event.endTime, label: "#\(index)"))
            case .hapticTransient:
                transients.marks.append(.init(start: event.time, end: nil, label: nil))
            case .audioContinuous, .audioCustom:
                audio.marks.append(.init(start: event.time, end: event.duration > 0 ? event.endTime : nil, label: "#\(index)"))
            }
        }
        let lanes = [continuous, transients, audio].filter { !$0.marks.isEmpty }
        let counts = [(continuous.marks.count, "continuous"), (transients.marks.count, "transient"), (audio.marks.count, "audio")]
            .filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)\($0.0 > 1 && $0.1 == "transient" ? "s" : "")" }
            .joined(separator: ", ")
        var subtitle = "reference renderer at \(seconds(rate)) Hz, \(seconds(renderer.duration)) s"
        if !counts.isEmpty { subtitle += "; events: \(counts)" }
        if let preset = loaded.preset { subtitle = "\(preset.summary) | " + subtitle }
        var plot = TimePlot(
            title: loaded.label,
            subtitle: subtitle,
            end: max(renderer.duration * 1.04, Double(samples.count + 2) / rate, 1e-3),
            panels: [
                .init(
                    title: "Intensity", range: 0...1,
                    series: [
                        .init(name: "intensity", color: .blue, times: times, values: intensity, step: stairs)
                    ]),
                .init(
                    title: "Sharpness", range: 0...1,
                    series: [
                        .init(name: "sharpness", color: .orange, times: times, values: sharpness, step: stairs)
                    ]),
            ],
            lanes: lanes)
        plot.width = width
        return plot
    }

    static func seconds(_ value: Double) -> String {
        let r = (value * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
