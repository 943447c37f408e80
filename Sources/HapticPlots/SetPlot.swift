import HapticPattern

extension TimePlot {
    /// The plot `haptic render SET.json` draws: one lane per entry (its span from its start tick),
    /// then one panel per (board, channel) with the channel's mixed intensity and sharpness
    /// (`HapticSetRenderer`, docs/channels.md).
    public static func set(_ set: HapticSet, rendering: HapticSetRendering, title: String, width: Double = 960) -> TimePlot {
        let rate = rendering.rate
        let stairs = width / max(Double(rendering.tickCount), 1) >= 3
        var lanes: [Lane] = []
        for channel in rendering.channels {
            for index in channel.entries {
                let entry = set.entries[index]
                let start = Double(entry.startTick(rate: rate)) / rate
                let length = Double(ReferenceRenderer(pattern: entry.pattern).tickCount(rate: rate)) / rate
                let name = "#\(index) b\(entry.board)c\(entry.channel)"
                let label = entry.name ?? entry.patternLabel
                lanes.append(
                    Lane(name: name, color: entry.mix == .sum ? .green : .purple, marks: [.init(start: start, end: start + length, label: label)]))
            }
        }
        let panels = rendering.channels.map { channel -> Panel in
            let times = (0...channel.samples.count).map { Double($0) / rate }
            let entries = channel.entries.map { set.entries[$0] }
            let actuators = set.actuator(for: channel.address) ?? "default profile"
            let locations = Array(Set(entries.compactMap(\.location))).sorted().joined(separator: ", ")
            var title = "\(channel.address): \(entries.count) entr\(entries.count == 1 ? "y" : "ies"), \(actuators)"
            if !locations.isEmpty { title += ", at \(locations)" }
            return Panel(
                title: title, range: 0...1,
                series: [
                    .init(name: "intensity", color: .blue, times: times, values: channel.samples.map(\.intensity) + [0], step: stairs),
                    .init(name: "sharpness", color: .orange, times: times, values: channel.samples.map(\.sharpness) + [0], step: stairs),
                ])
        }
        let subtitle =
            "reference renderer at \(seconds(rate)) Hz, \(seconds(rendering.duration)) s; \(set.entries.count) entries on \(rendering.channels.count) channel(s), mixed as PROTOCOL-3.md 3.6"
        var plot = TimePlot(
            title: title, subtitle: subtitle, end: max(rendering.duration * 1.04, Double(rendering.tickCount + 2) / rate, 1e-3),
            panels: panels, lanes: lanes)
        plot.width = width
        return plot
    }
}

extension CSVTable {
    /// time_s, then `b<board>c<channel>_intensity` and `_sharpness` for each channel; one row per
    /// tick up to the longest channel (a shorter channel is silent after its end).
    public static func set(_ rendering: HapticSetRendering) -> CSVTable {
        var columns = ["time_s"]
        for channel in rendering.channels {
            let name = "b\(channel.address.board)c\(channel.address.channel)"
            columns += ["\(name)_intensity", "\(name)_sharpness"]
        }
        let rows = (0..<rendering.tickCount).map { k -> [Double] in
            var row = [Double(k) / rendering.rate]
            for channel in rendering.channels {
                let sample = k < channel.samples.count ? channel.samples[k] : .silence
                row += [sample.intensity, sample.sharpness]
            }
            return row
        }
        return CSVTable(columns: columns, rows: rows)
    }
}
