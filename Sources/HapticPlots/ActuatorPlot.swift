import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern

/// What `haptic render --actuator NAME` adds to a pattern's plot (docs/cli.md): the pattern
/// compiled for an actuator, played through the firmware model and the actuator's physics, on the
/// render's time axis.
///
/// Adds two panels under the renderer's intensity and sharpness: the firmware's output codes
/// (amplitude and sharpness / 255) and the simulated acceleration envelope (1 = steady rated
/// drive at the reference frequency), plus lanes marking the BRAKE flag and, for every driven
/// stretch, when the envelope reaches 50 % and 90 % of its target and when it falls to 10 % after
/// the drive stops (docs/semantics.md 13.5).
public struct ActuatorPlot: Sendable {
    public let profile: ActuatorProfile
    public let compiled: CompiledProgram
    public let playback: SimulatedPlayback

    /// Compiles `pattern` for `profile` (a program beyond the compiler's tolerance is kept, and
    /// `summary` warns) and plays it through the model and the physics.
    public init(pattern: HapticPattern, profile: ActuatorProfile) throws(CompileError) {
        self.profile = profile
        compiled = try PatternCompiler.compile(pattern, profile: profile, options: CompileOptions(failOnToleranceExceeded: false))
        playback = compiled.simulate(on: profile)
    }

    public var tickRate: Double { playback.tickRate }

    /// The two panels and the marker lanes, added to the render plot.
    public func extend(_ plot: inout TimePlot, width: Double) {
        let drive = playback.drive
        let times = (0...drive.count).map { Double($0) / tickRate }
        let stairs = width / max(Double(drive.count), 1) >= 3
        let amplitude = drive.map { Double($0.amplitude) / 255 } + [0]
        let sharpness = drive.map { Double($0.sharpness) / 255 } + [0]
        let envelope = [0] + playback.response.map(\.envelope)  // sample k ends tick k
        let top = max(1, (envelope.max() ?? 0) * 1.05)
        plot.panels.append(
            .init(
                title: "Firmware output, \(profile.name) (codes / 255)", range: 0...1,
                series: [
                    .init(name: "amplitude", color: .blue, times: times, values: amplitude, step: stairs),
                    .init(name: "sharpness", color: .orange, times: times, values: sharpness, step: stairs, width: 1, dashed: true),
                ]))
        plot.panels.append(
            .init(
                title: "Simulated acceleration (1 = rated drive, steady)", range: 0...top,
                series: [
                    .init(name: "envelope", color: .green, times: times, values: envelope)
                ]))

        var brake = TimePlot.Lane(name: "BRAKE flag", color: .gray, marks: [])
        var k = 0
        while k < drive.count {
            guard drive[k].isBraking else {
                k += 1
                continue
            }
            let start = k
            while k < drive.count && drive[k].isBraking { k += 1 }
            brake.marks.append(.init(start: Double(start) / tickRate, end: Double(k) / tickRate, label: nil))
        }
        var rise50 = TimePlot.Lane(name: "rise 50 %", color: .sky, marks: [])
        var rise90 = TimePlot.Lane(name: "rise 90 %", color: .blue, marks: [])
        var stop10 = TimePlot.Lane(name: "stop 10 %", color: .purple, marks: [])
        for edge in playback.edges {
            let onset = Double(edge.onsetTick) / tickRate, end = Double(edge.endTick) / tickRate
            if let ms = edge.rise50 { rise50.marks.append(.init(start: onset + ms / 1000, end: nil, label: nil)) }
            if let ms = edge.rise90 { rise90.marks.append(.init(start: onset + ms / 1000, end: nil, label: nil)) }
            if let ms = edge.stop10 { stop10.marks.append(.init(start: end + ms / 1000, end: nil, label: nil)) }
        }
        plot.lanes += [brake, rise50, rise90, stop10].filter { !$0.marks.isEmpty }
        plot.end = max(plot.end, Double(drive.count) / tickRate)
    }

    /// The render's CSV with the firmware and the physics: one row per played tick (the renderer's
    /// columns are 0 after the pattern's end).
    public func csv(samples: [RenderedSample]) -> CSVTable {
        let drive = playback.drive, response = playback.response
        let rows = (0..<max(drive.count, samples.count)).map { k -> [Double] in
            let s = k < samples.count ? samples[k] : .silence
            let d = k < drive.count ? drive[k] : .silent
            let r = k < response.count ? response[k].envelope : 0
            return [
                Double(k) / tickRate, s.intensity, s.sharpness,
                Double(d.amplitude), Double(d.sharpness), Double(d.flags & OutputSample.brakeFlag), r,
            ]
        }
        return CSVTable(
            columns: [
                "time_s", "intensity", "sharpness", "amplitude_code", "sharpness_code", "brake",
                "acceleration_envelope",
            ], rows: rows)
    }

    /// One line for the terminal: program size and error, median rise and stop times.
    public var summary: String {
        let r = compiled.report
        func median(_ values: [Double]) -> String {
            values.isEmpty ? "-" : String(format: "%.1f ms", Percentile.median(values))
        }
        let edges = playback.edges
        var line = "\(profile.name): program \(r.programBytes) bytes, amplitude error max \(r.fidelity.amplitudeMaxError) LSB; "
        line += "\(edges.count) driven stretch(es), median rise 50 % \(median(edges.compactMap(\.rise50))), "
        line += "90 % \(median(edges.compactMap(\.rise90))), stop 10 % \(median(edges.compactMap(\.stop10)))"
        if !r.fidelity.withinTolerance { line += "; WARNING: " + CompileError.toleranceExceeded(compiled).description }
        return line
    }
}
