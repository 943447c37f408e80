import HapticPattern

extension TimePlot {
    /// The plot `haptic render` draws of a pattern: lanes for its events, then intensity and
    /// sharpness panels of the reference renderer's `samples` at `rate` Hz; `note` (a preset's
    /// summary) opens the subtitle.
    public static func pattern(
        _ pattern: HapticPattern, title: String, note: String? = nil, renderer: ReferenceRenderer, samples: [RenderedSample],
        rate: Double, width: Double = 960
    ) -> TimePlot {
        // One silent point after the last tick, so a pattern's final drop to zero shows.
        let times = (0...samples.count).map { Double($0) / rate }
        let intensity = samples.map(\.intensity) + [0], sharpness = samples.map(\.sharpness) + [0]
        // Stairs show the tick grid when a tick is at least 3 px wide; finer, they only look jagged.
        let stairs = width / max(renderer.duration * rate, 1) >= 3
        var continuous = Lane(name: "continuous", color: .green, marks: [])
        var transients = Lane(name: "transients", color: .vermillion, marks: [])
        var audio = Lane(name: "audio (ignored)", color: .gray, marks: [])
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
        var subtitle = "reference renderer at \(Self.seconds(rate)) Hz, \(Self.seconds(renderer.duration)) s"
        if !counts.isEmpty { subtitle += "; events: \(counts)" }
        if let note { subtitle = "\(note) | " + subtitle }
        var plot = TimePlot(
            title: title,
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

    /// Seconds with at most three decimals and no trailing zeros ("0.5", "2").
    public static func seconds(_ value: Double) -> String {
        let r = (value * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
