import FirmwareModel

/// Output amplitude over time in the terminal, drawn with braille characters (2 × 4 dots per
/// character) as a filled area: 72 columns of plot plus a 6-column axis fit 80 columns.
public enum TerminalPlot: Sendable {
    public static let width = 72
    public static let height = 8

    /// Dot bits of a braille cell (U+2800 + bits), by column (0, 1) and row from the top (0...3).
    private static let dots: [[UInt32]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// Rows of braille for `values` in 0...1: each of the `2 * width` dot columns shows the largest
    /// value of its share of the samples (so short pulses stay visible).
    public static func braille(_ values: [Double], width: Int = width, height: Int = height) -> [String] {
        let columns = 2 * width
        let levels = 4 * height
        var filled = [Int](repeating: 0, count: columns)
        if !values.isEmpty {
            for column in 0..<columns {
                let start = column * values.count / columns
                let end = max(start + 1, (column + 1) * values.count / columns)
                let peak = values[start..<min(end, values.count)].max() ?? 0
                // Any sound shows at least one dot.
                filled[column] = peak > 0 ? max(1, Int((peak * Double(levels)).rounded())) : 0
            }
        }
        return (0..<height).map { row in
            var line = ""
            for cell in 0..<width {
                var bits: UInt32 = 0
                for side in 0..<2 {
                    let level = filled[2 * cell + side]
                    for dot in 0..<4 {
                        let fromBottom = (height - 1 - row) * 4 + (3 - dot)
                        if fromBottom < level { bits |= dots[side][dot] }
                    }
                }
                line.unicodeScalars.append(Unicode.Scalar(0x2800 + bits)!)
            }
            return line
        }
    }

    /// The amplitude code (0...255) of `samples` with a y axis in codes and an x axis in ms;
    /// brake samples are marked under the axis.
    public static func render(_ samples: [OutputSample], rate: Double) -> String {
        let rows = braille(samples.map { Double($0.amplitude) / 255 })
        var lines: [String] = []
        for (index, row) in rows.enumerated() {
            let label = index == 0 ? "255 ┤" : index == rows.count - 1 ? "  0 ┤" : "    │"
            lines.append(label + row)
        }
        lines.append("    └" + String(repeating: "─", count: width))
        let milliseconds = Int((Double(samples.count) * 1000 / rate).rounded())
        let left = "     0 ms", right = "\(milliseconds) ms"
        lines.append(left + String(repeating: " ", count: max(1, 5 + width - left.count - right.count)) + right)
        if samples.contains(where: \.isBraking) {
            var marks = ""
            for cell in 0..<width {
                let start = cell * samples.count / width
                let end = max(start + 1, (cell + 1) * samples.count / width)
                marks += samples[start..<min(end, samples.count)].contains(where: \.isBraking) ? "b" : " "
            }
            lines.append("brake" + marks)
        }
        return lines.joined(separator: "\n")
    }
}
