import Foundation

// Time plots, for apps and the CLI alike: stacked panels sharing one time axis (each with its own value range and any number
// of series), event lanes above them, written as SVG, CSV or PNG (PlotPNG.swift). `haptic render` plots
// intensity and sharpness; the compiler's commands add firmware output or simulated acceleration as more
// series or panels on the same axis.

/// An sRGB colour.
public struct PlotColor: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8

    public var hex: String { String(format: "#%02x%02x%02x", r, g, b) }

    public static let black = PlotColor(r: 0x22, g: 0x22, b: 0x22)
    public static let axis = PlotColor(r: 0x55, g: 0x55, b: 0x55)
    public static let grid = PlotColor(r: 0xe3, g: 0xe3, b: 0xe3)
    public static let white = PlotColor(r: 0xff, g: 0xff, b: 0xff)
    public static let gray = PlotColor(r: 0x99, g: 0x99, b: 0x99)
    // A colour-blind-safe palette (Okabe-Ito).
    public static let blue = PlotColor(r: 0x00, g: 0x72, b: 0xb2)
    public static let orange = PlotColor(r: 0xe6, g: 0x9f, b: 0x00)
    public static let green = PlotColor(r: 0x00, g: 0x9e, b: 0x73)
    public static let vermillion = PlotColor(r: 0xd5, g: 0x5e, b: 0x00)
    public static let purple = PlotColor(r: 0xcc, g: 0x79, b: 0xa7)
    public static let sky = PlotColor(r: 0x56, g: 0xb4, b: 0xe9)
}

public struct TimePlot: Sendable {
    public struct Series: Sendable {
        public var name: String
        public var color: PlotColor
        public var times: [Double]
        public var values: [Double]
        /// Hold each value until the next time (tick samples), instead of joining points with straight lines.
        public var step = false
        public var width = 1.5
        public var dashed = false

        public init(
            name: String, color: PlotColor, times: [Double], values: [Double], step: Bool = false, width: Double = 1.5, dashed: Bool = false
        ) {
            self.name = name
            self.color = color
            self.times = times
            self.values = values
            self.step = step
            self.width = width
            self.dashed = dashed
        }
    }

    public struct Panel: Sendable {
        public var title: String
        public var range: ClosedRange<Double>
        public var series: [Series]
        public var height = 170.0

        public init(title: String, range: ClosedRange<Double>, series: [Series], height: Double = 170.0) {
            self.title = title
            self.range = range
            self.series = series
            self.height = height
        }
    }

    /// A row of marks above the panels: spans (`end` set) drawn as bars, instants as ticks.
    public struct Lane: Sendable {
        public struct Mark: Sendable {
            public var start: Double
            public var end: Double?
            public var label: String?

            public init(start: Double, end: Double?, label: String?) {
                self.start = start
                self.end = end
                self.label = label
            }
        }
        public var name: String
        public var color: PlotColor
        public var marks: [Mark]

        public init(name: String, color: PlotColor, marks: [Mark]) {
            self.name = name
            self.color = color
            self.marks = marks
        }
    }

    public var title: String
    public var subtitle: String?
    /// Time axis range, seconds.
    public var start = 0.0
    public var end: Double
    public var panels: [Panel]
    public var lanes: [Lane] = []

    public init(title: String, subtitle: String? = nil, start: Double = 0, end: Double, panels: [Panel], lanes: [Lane] = []) {
        self.title = title
        self.subtitle = subtitle
        self.start = start
        self.end = end
        self.panels = panels
        self.lanes = lanes
    }

    // MARK: Layout (pixels)

    public static let right = 36.0, laneHeight = 16.0, panelGap = 30.0

    /// Room for the y labels, or for the longest lane name.
    public var left: Double { max(64, Double(lanes.map(\.name.count).max() ?? 0) * 6 + 20) }

    public var width = 960.0
    public var top: Double { subtitle == nil ? 40 : 56 }
    public var lanesHeight: Double { Double(lanes.count) * Self.laneHeight + (lanes.isEmpty ? 0 : 10) }
    public var height: Double {
        top + lanesHeight + panels.reduce(0) { $0 + $1.height + Self.panelGap } + 34
    }
    public var plotWidth: Double { width - left - Self.right }

    public func x(_ t: Double) -> Double {
        let span = end > start ? end - start : 1
        return left + (t - start) / span * plotWidth
    }

    // MARK: Drawing list, shared by SVG and PNG

    public enum Anchor: Sendable { case start, middle, end }

    public enum Shape: Sendable {
        case rect(x: Double, y: Double, w: Double, h: Double, fill: PlotColor, opacity: Double, stroke: PlotColor?)
        case line(x1: Double, y1: Double, x2: Double, y2: Double, color: PlotColor, width: Double, dashed: Bool)
        case polyline([(Double, Double)], color: PlotColor, width: Double, dashed: Bool)
        case text(x: Double, y: Double, String, size: Double, anchor: Anchor, color: PlotColor, bold: Bool)
    }

    public func shapes() -> [Shape] {
        var out: [Shape] = [.rect(x: 0, y: 0, w: width, h: height, fill: .white, opacity: 1, stroke: nil)]
        out.append(.text(x: left, y: 22, title, size: 15, anchor: .start, color: .black, bold: true))
        if let subtitle { out.append(.text(x: left, y: 40, subtitle, size: 11, anchor: .start, color: .axis, bold: false)) }

        let axis = TimeAxis(start: start, end: end, pixels: plotWidth)
        let x0 = left, x1 = width - Self.right

        // Lanes.
        var y = top
        for lane in lanes {
            out.append(.text(x: x0 - 8, y: y + 11.5, lane.name, size: 10, anchor: .end, color: .axis, bold: false))
            out.append(.line(x1: x0, y1: y + Self.laneHeight - 0.5, x2: x1, y2: y + Self.laneHeight - 0.5, color: .grid, width: 1, dashed: false))
            for mark in lane.marks {
                let a = x(mark.start)
                if let e = mark.end {
                    let w = max(x(e) - a, 1.5)
                    out.append(.rect(x: a, y: y + 3, w: w, h: Self.laneHeight - 6, fill: lane.color, opacity: 0.35, stroke: lane.color))
                    if let label = mark.label, w > Double(label.count) * 6 + 6 {
                        out.append(.text(x: a + 3, y: y + 11.5, label, size: 9, anchor: .start, color: .black, bold: false))
                    }
                } else {
                    out.append(.rect(x: a - 1, y: y + 2, w: 2, h: Self.laneHeight - 4, fill: lane.color, opacity: 1, stroke: nil))
                }
            }
            y += Self.laneHeight
        }
        if !lanes.isEmpty { y += 10 }

        // Panels.
        for (index, panel) in panels.enumerated() {
            let py0 = y + 16, py1 = y + panel.height
            func py(_ v: Double) -> Double {
                let span = panel.range.upperBound - panel.range.lowerBound
                let f = span > 0 ? (v - panel.range.lowerBound) / span : 0
                return py1 - min(max(f, 0), 1) * (py1 - py0)
            }
            out.append(.text(x: x0, y: y + 11, panel.title, size: 12, anchor: .start, color: .black, bold: true))
            // Grid and ticks.
            for t in axis.ticks {
                out.append(.line(x1: x(t), y1: py0, x2: x(t), y2: py1, color: .grid, width: 1, dashed: false))
            }
            for v in Ticks.nice(panel.range, count: 4) {
                out.append(.line(x1: x0, y1: py(v), x2: x1, y2: py(v), color: .grid, width: 1, dashed: false))
                out.append(.line(x1: x0 - 4, y1: py(v), x2: x0, y2: py(v), color: .axis, width: 1, dashed: false))
                out.append(
                    .text(
                        x: x0 - 7, y: py(v) + 3.5, Ticks.label(v, step: Ticks.step(panel.range, count: 4)),
                        size: 10, anchor: .end, color: .axis, bold: false))
            }
            // Series.
            for series in panel.series {
                let points = Self.decimate(series, x: x, pixels: plotWidth).map { ($0.0, py($0.1)) }
                if points.count > 1 {
                    out.append(.polyline(points, color: series.color, width: series.width, dashed: series.dashed))
                }
            }
            // Frame.
            out.append(.line(x1: x0, y1: py0, x2: x0, y2: py1, color: .axis, width: 1, dashed: false))
            out.append(.line(x1: x0, y1: py1, x2: x1, y2: py1, color: .axis, width: 1, dashed: false))
            // Legend, right-aligned above the panel.
            var lx = x1
            for series in panel.series.reversed() {
                let w = Double(series.name.count) * 6.2 + 26
                lx -= w
                out.append(.line(x1: lx, y1: y + 7, x2: lx + 16, y2: y + 7, color: series.color, width: 2.5, dashed: series.dashed))
                out.append(.text(x: lx + 20, y: y + 11, series.name, size: 11, anchor: .start, color: .black, bold: false))
                lx -= 10
            }
            // Time labels under the last panel.
            if index == panels.count - 1 {
                for t in axis.ticks {
                    out.append(.line(x1: x(t), y1: py1, x2: x(t), y2: py1 + 4, color: .axis, width: 1, dashed: false))
                    out.append(.text(x: x(t), y: py1 + 16, axis.label(t), size: 10, anchor: .middle, color: .axis, bold: false))
                }
                out.append(.text(x: (x0 + x1) / 2, y: py1 + 30, "time (\(axis.unit))", size: 11, anchor: .middle, color: .axis, bold: false))
            }
            y += panel.height + Self.panelGap
        }
        return out
    }

    /// At most a few points per pixel column: each column keeps its first, lowest, highest and last values
    /// (in time order), so spikes survive. Step series become explicit stairs first.
    public static func decimate(_ series: Series, x: (Double) -> Double, pixels: Double) -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        let n = min(series.times.count, series.values.count)
        guard n > 0 else { return [] }
        points.reserveCapacity(series.step ? 2 * n : n)
        for i in 0..<n {
            let px = x(series.times[i])
            if series.step, i > 0 { points.append((px, series.values[i - 1])) }
            points.append((px, series.values[i]))
        }
        if series.step, n > 1 {
            // The last sample holds for one more sample period.
            let period = series.times[n - 1] - series.times[n - 2]
            points.append((x(series.times[n - 1] + period), series.values[n - 1]))
        }
        guard Double(points.count) > 4 * pixels else { return points }
        var out: [(Double, Double)] = []
        var i = 0
        while i < points.count {
            let column = points[i].0.rounded(.down)
            var j = i
            var lo = i, hi = i
            while j < points.count, points[j].0.rounded(.down) == column {
                if points[j].1 < points[lo].1 { lo = j }
                if points[j].1 > points[hi].1 { hi = j }
                j += 1
            }
            for k in Set([i, lo, hi, j - 1]).sorted() { out.append(points[k]) }
            i = j
        }
        return out
    }

    // MARK: SVG

    public func svg() -> String {
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif">

            """
        for shape in shapes() {
            switch shape {
            case let .rect(x, y, w, h, fill, opacity, stroke):
                s += "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(h))\" fill=\"\(fill.hex)\""
                if opacity < 1 { s += " fill-opacity=\"\(f(opacity))\"" }
                if let stroke { s += " stroke=\"\(stroke.hex)\" stroke-width=\"1\"" }
                s += "/>\n"
            case let .line(x1, y1, x2, y2, color, width, dashed):
                s += "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(color.hex)\" stroke-width=\"\(f(width))\""
                s += dashed ? " stroke-dasharray=\"5 3\"/>\n" : "/>\n"
            case let .polyline(points, color, width, dashed):
                s += "<polyline fill=\"none\" stroke=\"\(color.hex)\" stroke-width=\"\(f(width))\" stroke-linejoin=\"round\""
                if dashed { s += " stroke-dasharray=\"5 3\"" }
                s += " points=\""
                s += points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
                s += "\"/>\n"
            case let .text(x, y, text, size, anchor, color, bold):
                let anchorName = anchor == .start ? "start" : anchor == .middle ? "middle" : "end"
                s += "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\" fill=\"\(color.hex)\" text-anchor=\"\(anchorName)\""
                if bold { s += " font-weight=\"bold\"" }
                s += ">\(Self.escape(text))</text>\n"
            }
        }
        return s + "</svg>\n"
    }

    private func f(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Time axis ticks: "nice" steps (1, 2, 5 x 10^k), in ms below 2 s and in s above.
public struct TimeAxis: Sendable {
    public var start: Double, end: Double, pixels: Double

    public init(start: Double, end: Double, pixels: Double) {
        self.start = start
        self.end = end
        self.pixels = pixels
    }

    public var inMilliseconds: Bool { end - start <= 2 }
    public var unit: String { inMilliseconds ? "ms" : "s" }
    public var step: Double { Ticks.step(start...max(end, start + 1e-3), count: max(2, Int(pixels / 90))) }
    public var ticks: [Double] { Ticks.nice(start...max(end, start + 1e-3), count: max(2, Int(pixels / 90))) }

    public func label(_ t: Double) -> String {
        inMilliseconds ? Ticks.label(t * 1000, step: step * 1000) : Ticks.label(t, step: step)
    }
}

public enum Ticks: Sendable {
    /// A 1-2-5 step giving about `count` intervals over `range`, as (1, 2, 5 or 10) x 10^exponent.
    public static func stepParts(_ range: ClosedRange<Double>, count: Int) -> (nice: Double, exponent: Int) {
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else { return (1, 0) }
        let raw = span / Double(max(count, 1))
        let exponent = Int(log10(raw).rounded(.down))
        let normalised = raw / pow(10, Double(exponent))
        return (normalised < 1.5 ? 1 : normalised < 3 ? 2 : normalised < 7 ? 5 : 10, exponent)
    }

    public static func step(_ range: ClosedRange<Double>, count: Int) -> Double {
        let (nice, exponent) = stepParts(range, count: count)
        return scaled(nice, exponent)
    }

    /// m x 10^e, dividing by an exact power of ten for negative e (3 x 0.2 would be 0.6000000000000001).
    public static func scaled(_ m: Double, _ e: Int) -> Double {
        e >= 0 ? m * pow(10, Double(e)) : m / pow(10, Double(-e))
    }

    public static func nice(_ range: ClosedRange<Double>, count: Int) -> [Double] {
        let (nice, exponent) = stepParts(range, count: count)
        let s = scaled(nice, exponent)
        var k = (range.lowerBound / s - 1e-9).rounded(.up)
        var out: [Double] = []
        while scaled(k * nice, exponent) <= range.upperBound + s * 1e-9, out.count < 1000 {
            out.append(k == 0 ? 0 : scaled(k * nice, exponent))
            k += 1
        }
        return out
    }

    /// Just enough decimals for the step (0.25 -> "0.25", 50 -> "50").
    public static func label(_ v: Double, step: Double) -> String {
        var decimals = 0
        while decimals < 6, abs((step * pow(10, Double(decimals))).rounded() - step * pow(10, Double(decimals))) > 1e-6 {
            decimals += 1
        }
        return String(format: "%.\(decimals)f", v)
    }
}

/// Comma-separated values: a header row, then one row per sample; numbers in shortest round-trip form.
public struct CSVTable: Sendable {
    public var columns: [String]
    public var rows: [[Double]]

    public init(columns: [String], rows: [[Double]]) {
        self.columns = columns
        self.rows = rows
    }

    public func text() -> String {
        var s = columns.joined(separator: ",") + "\n"
        s.reserveCapacity(rows.count * 32)
        for row in rows {
            s += row.map { Self.number($0) }.joined(separator: ",")
            s += "\n"
        }
        return s
    }

    public static func number(_ v: Double) -> String {
        if v == 0 { return "0" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }
}
