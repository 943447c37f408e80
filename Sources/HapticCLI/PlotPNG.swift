import CZlib
import Foundation

// PNG output for `TimePlot`: a small anti-aliased rasteriser for the plot's shapes, a 5x7 bitmap font for its
// labels, and the PNG chunks around zlib's compression and CRC-32.

extension TimePlot {
    func png() -> [UInt8] {
        let image = raster()
        return PNGWriter.encode(width: image.width, height: image.height, rgb: image.pixels)
    }

    /// The plot drawn into pixels.
    func raster() -> Raster {
        var raster = Raster(width: Int(width.rounded()), height: Int(height.rounded()))
        for shape in shapes() {
            switch shape {
            case let .rect(x, y, w, h, fill, opacity, stroke):
                raster.fill(x: x, y: y, w: w, h: h, color: fill, alpha: opacity)
                if let stroke {
                    raster.stroke([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], color: stroke, width: 1, dashed: false)
                }
            case let .line(x1, y1, x2, y2, color, width, dashed):
                raster.stroke([(x1, y1), (x2, y2)], color: color, width: width, dashed: dashed)
            case let .polyline(points, color, width, dashed):
                raster.stroke(points, color: color, width: width, dashed: dashed)
            case let .text(x, y, text, size, anchor, color, bold):
                raster.text(text, x: x, baseline: y, size: size, anchor: anchor, color: color, bold: bold)
            }
        }
        return raster
    }
}

/// An RGB image with alpha-blended drawing. Coordinates are SVG's: pixel (i, j) covers [i, i+1) x [j, j+1).
struct Raster {
    let width: Int, height: Int
    var pixels: [UInt8]
    /// Per-shape coverage, so a polyline's joints are not blended twice.
    private var coverage: [Float]
    private var touched: [Int] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 3)
        coverage = [Float](repeating: 0, count: width * height)
    }

    private mutating func blend(_ index: Int, _ color: PlotColor, _ alpha: Double) {
        let a = min(max(alpha, 0), 1)
        let p = index * 3
        pixels[p] = UInt8((Double(pixels[p]) * (1 - a) + Double(color.r) * a).rounded())
        pixels[p + 1] = UInt8((Double(pixels[p + 1]) * (1 - a) + Double(color.g) * a).rounded())
        pixels[p + 2] = UInt8((Double(pixels[p + 2]) * (1 - a) + Double(color.b) * a).rounded())
    }

    /// A rectangle with anti-aliased edges (partial pixel coverage).
    mutating func fill(x: Double, y: Double, w: Double, h: Double, color: PlotColor, alpha: Double) {
        let x0 = max(Int(x.rounded(.down)), 0), x1 = min(Int((x + w).rounded(.up)), width)
        let y0 = max(Int(y.rounded(.down)), 0), y1 = min(Int((y + h).rounded(.up)), height)
        guard x0 < x1, y0 < y1 else { return }
        for j in y0..<y1 {
            let cy = min(Double(j + 1), y + h) - max(Double(j), y)
            for i in x0..<x1 {
                let cx = min(Double(i + 1), x + w) - max(Double(i), x)
                blend(j * width + i, color, alpha * max(cx, 0) * max(cy, 0))
            }
        }
    }

    /// A polyline of the given width with round joins; coverage from the distance of each pixel centre to
    /// the nearest segment, so edges are anti-aliased. Dashes: 5 px on, 3 px off along the line.
    mutating func stroke(_ points: [(Double, Double)], color: PlotColor, width lineWidth: Double, dashed: Bool) {
        guard points.count > 1 else { return }
        let half = lineWidth / 2
        var travelled = 0.0
        for k in 1..<points.count {
            let (ax, ay) = points[k - 1], (bx, by) = points[k]
            let dx = bx - ax, dy = by - ay
            let length2 = dx * dx + dy * dy
            let length = length2.squareRoot()
            let i0 = max(Int((min(ax, bx) - half - 1).rounded(.down)), 0)
            let i1 = min(Int((max(ax, bx) + half + 1).rounded(.up)), width - 1)
            let j0 = max(Int((min(ay, by) - half - 1).rounded(.down)), 0)
            let j1 = min(Int((max(ay, by) + half + 1).rounded(.up)), height - 1)
            if i0 <= i1 && j0 <= j1 {
                for j in j0...j1 {
                    let py = Double(j) + 0.5
                    for i in i0...i1 {
                        let px = Double(i) + 0.5
                        var u = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
                        u = min(max(u, 0), 1)
                        if dashed, (travelled + u * length).truncatingRemainder(dividingBy: 8) >= 5 { continue }
                        let ex = ax + u * dx - px, ey = ay + u * dy - py
                        let d = (ex * ex + ey * ey).squareRoot()
                        let c = Float(min(max(half + 0.5 - d, 0), 1))
                        guard c > 0 else { continue }
                        let index = j * width + i
                        if coverage[index] == 0 { touched.append(index) }
                        coverage[index] = max(coverage[index], c)
                    }
                }
            }
            travelled += length
        }
        for index in touched {
            blend(index, color, Double(coverage[index]))
            coverage[index] = 0
        }
        touched.removeAll(keepingCapacity: true)
    }

    /// Text in the 5x7 font: scale 1 up to 12 px font size, 2 above; bold draws each column twice.
    mutating func text(
        _ text: String, x: Double, baseline: Double, size: Double, anchor: TimePlot.Anchor,
        color: PlotColor, bold: Bool
    ) {
        let scale = size > 13 ? 2 : 1
        let advance = (bold ? 7 : 6) * scale
        let glyphs = Array(text.unicodeScalars)
        let total = glyphs.count * advance - scale
        var left: Int
        switch anchor {
        case .start: left = Int(x.rounded())
        case .middle: left = Int((x - Double(total) / 2).rounded())
        case .end: left = Int(x.rounded()) - total
        }
        let top = Int(baseline.rounded()) - 7 * scale
        for scalar in glyphs {
            let columns = BitmapFont.columns(scalar)
            for (c, bits) in columns.enumerated() {
                for row in 0..<8 where bits & (1 << row) != 0 {
                    for dx in 0..<(bold ? 2 : 1) {
                        for sy in 0..<scale {
                            for sx in 0..<scale {
                                let px = left + (c + dx) * scale + sx, py = top + row * scale + sy
                                if px >= 0, px < width, py >= 0, py < height { blend(py * width + px, color, 1) }
                            }
                        }
                    }
                }
            }
            left += advance
        }
    }
}

/// The classic 5x7 LCD font (glcdfont layout): five columns per glyph, bit 0 = top row, bit 7 = descender.
enum BitmapFont {
    static func columns(_ scalar: Unicode.Scalar) -> ArraySlice<UInt8> {
        let code = Int(scalar.value)
        let index = (32...126).contains(code) ? code - 32 : Int(UInt8(ascii: "?")) - 32
        return table[(index * 5)..<(index * 5 + 5)]
    }

    static let table: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5F, 0x00, 0x00, 0x00, 0x07, 0x00, 0x07, 0x00,  // space ! "
        0x14, 0x7F, 0x14, 0x7F, 0x14, 0x24, 0x2A, 0x7F, 0x2A, 0x12, 0x23, 0x13, 0x08, 0x64, 0x62,  // # $ %
        0x36, 0x49, 0x56, 0x20, 0x50, 0x00, 0x08, 0x07, 0x03, 0x00, 0x00, 0x1C, 0x22, 0x41, 0x00,  // & ' (
        0x00, 0x41, 0x22, 0x1C, 0x00, 0x2A, 0x1C, 0x7F, 0x1C, 0x2A, 0x08, 0x08, 0x3E, 0x08, 0x08,  // ) * +
        0x00, 0x80, 0x70, 0x30, 0x00, 0x08, 0x08, 0x08, 0x08, 0x08, 0x00, 0x00, 0x60, 0x60, 0x00,  // , - .
        0x20, 0x10, 0x08, 0x04, 0x02, 0x3E, 0x51, 0x49, 0x45, 0x3E, 0x00, 0x42, 0x7F, 0x40, 0x00,  // / 0 1
        0x72, 0x49, 0x49, 0x49, 0x46, 0x21, 0x41, 0x49, 0x4D, 0x33, 0x18, 0x14, 0x12, 0x7F, 0x10,  // 2 3 4
        0x27, 0x45, 0x45, 0x45, 0x39, 0x3C, 0x4A, 0x49, 0x49, 0x31, 0x41, 0x21, 0x11, 0x09, 0x07,  // 5 6 7
        0x36, 0x49, 0x49, 0x49, 0x36, 0x46, 0x49, 0x49, 0x29, 0x1E, 0x00, 0x00, 0x14, 0x00, 0x00,  // 8 9 :
        0x00, 0x40, 0x34, 0x00, 0x00, 0x00, 0x08, 0x14, 0x22, 0x41, 0x14, 0x14, 0x14, 0x14, 0x14,  // ; < =
        0x00, 0x41, 0x22, 0x14, 0x08, 0x02, 0x01, 0x59, 0x09, 0x06, 0x3E, 0x41, 0x5D, 0x59, 0x4E,  // > ? @
        0x7C, 0x12, 0x11, 0x12, 0x7C, 0x7F, 0x49, 0x49, 0x49, 0x36, 0x3E, 0x41, 0x41, 0x41, 0x22,  // A B C
        0x7F, 0x41, 0x41, 0x41, 0x3E, 0x7F, 0x49, 0x49, 0x49, 0x41, 0x7F, 0x09, 0x09, 0x09, 0x01,  // D E F
        0x3E, 0x41, 0x41, 0x51, 0x73, 0x7F, 0x08, 0x08, 0x08, 0x7F, 0x00, 0x41, 0x7F, 0x41, 0x00,  // G H I
        0x20, 0x40, 0x41, 0x3F, 0x01, 0x7F, 0x08, 0x14, 0x22, 0x41, 0x7F, 0x40, 0x40, 0x40, 0x40,  // J K L
        0x7F, 0x02, 0x1C, 0x02, 0x7F, 0x7F, 0x04, 0x08, 0x10, 0x7F, 0x3E, 0x41, 0x41, 0x41, 0x3E,  // M N O
        0x7F, 0x09, 0x09, 0x09, 0x06, 0x3E, 0x41, 0x51, 0x21, 0x5E, 0x7F, 0x09, 0x19, 0x29, 0x46,  // P Q R
        0x26, 0x49, 0x49, 0x49, 0x32, 0x03, 0x01, 0x7F, 0x01, 0x03, 0x3F, 0x40, 0x40, 0x40, 0x3F,  // S T U
        0x1F, 0x20, 0x40, 0x20, 0x1F, 0x3F, 0x40, 0x38, 0x40, 0x3F, 0x63, 0x14, 0x08, 0x14, 0x63,  // V W X
        0x03, 0x04, 0x78, 0x04, 0x03, 0x61, 0x59, 0x49, 0x4D, 0x43, 0x00, 0x7F, 0x41, 0x41, 0x41,  // Y Z [
        0x02, 0x04, 0x08, 0x10, 0x20, 0x00, 0x41, 0x41, 0x41, 0x7F, 0x04, 0x02, 0x01, 0x02, 0x04,  // \ ] ^
        0x40, 0x40, 0x40, 0x40, 0x40, 0x00, 0x03, 0x07, 0x08, 0x00, 0x20, 0x54, 0x54, 0x78, 0x40,  // _ ` a
        0x7F, 0x28, 0x44, 0x44, 0x38, 0x38, 0x44, 0x44, 0x44, 0x28, 0x38, 0x44, 0x44, 0x28, 0x7F,  // b c d
        0x38, 0x54, 0x54, 0x54, 0x18, 0x00, 0x08, 0x7E, 0x09, 0x02, 0x18, 0xA4, 0xA4, 0x9C, 0x78,  // e f g
        0x7F, 0x08, 0x04, 0x04, 0x78, 0x00, 0x44, 0x7D, 0x40, 0x00, 0x20, 0x40, 0x40, 0x3D, 0x00,  // h i j
        0x7F, 0x10, 0x28, 0x44, 0x00, 0x00, 0x41, 0x7F, 0x40, 0x00, 0x7C, 0x04, 0x78, 0x04, 0x78,  // k l m
        0x7C, 0x08, 0x04, 0x04, 0x78, 0x38, 0x44, 0x44, 0x44, 0x38, 0xFC, 0x18, 0x24, 0x24, 0x18,  // n o p
        0x18, 0x24, 0x24, 0x18, 0xFC, 0x7C, 0x08, 0x04, 0x04, 0x08, 0x48, 0x54, 0x54, 0x54, 0x24,  // q r s
        0x04, 0x04, 0x3F, 0x44, 0x24, 0x3C, 0x40, 0x40, 0x20, 0x7C, 0x1C, 0x20, 0x40, 0x20, 0x1C,  // t u v
        0x3C, 0x40, 0x30, 0x40, 0x3C, 0x44, 0x28, 0x10, 0x28, 0x44, 0x4C, 0x90, 0x90, 0x90, 0x7C,  // w x y
        0x44, 0x64, 0x54, 0x4C, 0x44, 0x00, 0x08, 0x36, 0x41, 0x00, 0x00, 0x00, 0x77, 0x00, 0x00,  // z { |
        0x00, 0x41, 0x36, 0x08, 0x00, 0x02, 0x01, 0x02, 0x04, 0x02,  // } ~
    ]
}

/// PNG (RGB, 8 bits per channel, not interlaced): IHDR, one IDAT compressed by zlib, IEND.
enum PNGWriter {
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        precondition(rgb.count == width * height * 3)
        let rowBytes = width * 3
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter type 0 (none): plots are flat colour, which deflate packs well as it is
            raw += rgb[(row * rowBytes)..<((row + 1) * rowBytes)]
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0], into: &out)
        chunk("IDAT", compress(raw), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    /// `data` as a zlib stream (RFC 1950), the format of IDAT.
    static func compress(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, data, uLong(data.count), Z_BEST_COMPRESSION)
        precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
        return Array(out[..<Int(size)])
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    /// Length, type, data, and the CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        out += be32(UInt32(data.count)) + typed + be32(UInt32(crc))
    }
}
