import Foundation

// PNG output for `TimePlot` without system libraries: a small anti-aliased rasteriser for the plot's shapes,
// a 5x7 bitmap font for its labels, and a PNG writer (zlib stream with fixed-Huffman deflate, CRC-32, Adler-32).

extension TimePlot {
    func png() -> [UInt8] {
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
        return PNGWriter.encode(width: raster.width, height: raster.height, rgb: raster.pixels)
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
    mutating func text(_ text: String, x: Double, baseline: Double, size: Double, anchor: TimePlot.Anchor,
                       color: PlotColor, bold: Bool) {
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
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5F, 0x00, 0x00, 0x00, 0x07, 0x00, 0x07, 0x00, // space ! "
        0x14, 0x7F, 0x14, 0x7F, 0x14, 0x24, 0x2A, 0x7F, 0x2A, 0x12, 0x23, 0x13, 0x08, 0x64, 0x62, // # $ %
        0x36, 0x49, 0x56, 0x20, 0x50, 0x00, 0x08, 0x07, 0x03, 0x00, 0x00, 0x1C, 0x22, 0x41, 0x00, // & ' (
        0x00, 0x41, 0x22, 0x1C, 0x00, 0x2A, 0x1C, 0x7F, 0x1C, 0x2A, 0x08, 0x08, 0x3E, 0x08, 0x08, // ) * +
        0x00, 0x80, 0x70, 0x30, 0x00, 0x08, 0x08, 0x08, 0x08, 0x08, 0x00, 0x00, 0x60, 0x60, 0x00, // , - .
        0x20, 0x10, 0x08, 0x04, 0x02, 0x3E, 0x51, 0x49, 0x45, 0x3E, 0x00, 0x42, 0x7F, 0x40, 0x00, // / 0 1
        0x72, 0x49, 0x49, 0x49, 0x46, 0x21, 0x41, 0x49, 0x4D, 0x33, 0x18, 0x14, 0x12, 0x7F, 0x10, // 2 3 4
        0x27, 0x45, 0x45, 0x45, 0x39, 0x3C, 0x4A, 0x49, 0x49, 0x31, 0x41, 0x21, 0x11, 0x09, 0x07, // 5 6 7
        0x36, 0x49, 0x49, 0x49, 0x36, 0x46, 0x49, 0x49, 0x29, 0x1E, 0x00, 0x00, 0x14, 0x00, 0x00, // 8 9 :
        0x00, 0x40, 0x34, 0x00, 0x00, 0x00, 0x08, 0x14, 0x22, 0x41, 0x14, 0x14, 0x14, 0x14, 0x14, // ; < =
        0x00, 0x41, 0x22, 0x14, 0x08, 0x02, 0x01, 0x59, 0x09, 0x06, 0x3E, 0x41, 0x5D, 0x59, 0x4E, // > ? @
        0x7C, 0x12, 0x11, 0x12, 0x7C, 0x7F, 0x49, 0x49, 0x49, 0x36, 0x3E, 0x41, 0x41, 0x41, 0x22, // A B C
        0x7F, 0x41, 0x41, 0x41, 0x3E, 0x7F, 0x49, 0x49, 0x49, 0x41, 0x7F, 0x09, 0x09, 0x09, 0x01, // D E F
        0x3E, 0x41, 0x41, 0x51, 0x73, 0x7F, 0x08, 0x08, 0x08, 0x7F, 0x00, 0x41, 0x7F, 0x41, 0x00, // G H I
        0x20, 0x40, 0x41, 0x3F, 0x01, 0x7F, 0x08, 0x14, 0x22, 0x41, 0x7F, 0x40, 0x40, 0x40, 0x40, // J K L
        0x7F, 0x02, 0x1C, 0x02, 0x7F, 0x7F, 0x04, 0x08, 0x10, 0x7F, 0x3E, 0x41, 0x41, 0x41, 0x3E, // M N O
        0x7F, 0x09, 0x09, 0x09, 0x06, 0x3E, 0x41, 0x51, 0x21, 0x5E, 0x7F, 0x09, 0x19, 0x29, 0x46, // P Q R
        0x26, 0x49, 0x49, 0x49, 0x32, 0x03, 0x01, 0x7F, 0x01, 0x03, 0x3F, 0x40, 0x40, 0x40, 0x3F, // S T U
        0x1F, 0x20, 0x40, 0x20, 0x1F, 0x3F, 0x40, 0x38, 0x40, 0x3F, 0x63, 0x14, 0x08, 0x14, 0x63, // V W X
        0x03, 0x04, 0x78, 0x04, 0x03, 0x61, 0x59, 0x49, 0x4D, 0x43, 0x00, 0x7F, 0x41, 0x41, 0x41, // Y Z [
        0x02, 0x04, 0x08, 0x10, 0x20, 0x00, 0x41, 0x41, 0x41, 0x7F, 0x04, 0x02, 0x01, 0x02, 0x04, // \ ] ^
        0x40, 0x40, 0x40, 0x40, 0x40, 0x00, 0x03, 0x07, 0x08, 0x00, 0x20, 0x54, 0x54, 0x78, 0x40, // _ ` a
        0x7F, 0x28, 0x44, 0x44, 0x38, 0x38, 0x44, 0x44, 0x44, 0x28, 0x38, 0x44, 0x44, 0x28, 0x7F, // b c d
        0x38, 0x54, 0x54, 0x54, 0x18, 0x00, 0x08, 0x7E, 0x09, 0x02, 0x18, 0xA4, 0xA4, 0x9C, 0x78, // e f g
        0x7F, 0x08, 0x04, 0x04, 0x78, 0x00, 0x44, 0x7D, 0x40, 0x00, 0x20, 0x40, 0x40, 0x3D, 0x00, // h i j
        0x7F, 0x10, 0x28, 0x44, 0x00, 0x00, 0x41, 0x7F, 0x40, 0x00, 0x7C, 0x04, 0x78, 0x04, 0x78, // k l m
        0x7C, 0x08, 0x04, 0x04, 0x78, 0x38, 0x44, 0x44, 0x44, 0x38, 0xFC, 0x18, 0x24, 0x24, 0x18, // n o p
        0x18, 0x24, 0x24, 0x18, 0xFC, 0x7C, 0x08, 0x04, 0x04, 0x08, 0x48, 0x54, 0x54, 0x54, 0x24, // q r s
        0x04, 0x04, 0x3F, 0x44, 0x24, 0x3C, 0x40, 0x40, 0x20, 0x7C, 0x1C, 0x20, 0x40, 0x20, 0x1C, // t u v
        0x3C, 0x40, 0x30, 0x40, 0x3C, 0x44, 0x28, 0x10, 0x28, 0x44, 0x4C, 0x90, 0x90, 0x90, 0x7C, // w x y
        0x44, 0x64, 0x54, 0x4C, 0x44, 0x00, 0x08, 0x36, 0x41, 0x00, 0x00, 0x00, 0x77, 0x00, 0x00, // z { |
        0x00, 0x41, 0x36, 0x08, 0x00, 0x02, 0x01, 0x02, 0x04, 0x02,                               // } ~
    ]
}

/// PNG (RGB, 8 bits per channel) in a zlib stream compressed with deflate's fixed Huffman codes. Matches are
/// searched one pixel back and one row up only: plots are flat colour, so that is nearly all the redundancy.
enum PNGWriter {
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        precondition(rgb.count == width * height * 3)
        let stride = width * 3 + 1
        var raw = [UInt8]()
        raw.reserveCapacity(stride * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: rgb[(row * width * 3)..<((row + 1) * width * 3)])
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += be32(UInt32(width)) + be32(UInt32(height))
        header += [8, 2, 0, 0, 0]  // depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace
        chunk("IHDR", header, into: &out)
        chunk("IDAT", zlib(raw, distances: [3, stride]), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        out += be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 (ISO-HDLC, as PNG uses): check value 0xCBF43926 for "123456789".
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for chunk in stride(from: 0, to: bytes.count, by: 5552) {
            for byte in bytes[chunk..<min(chunk + 5552, bytes.count)] {
                a += UInt32(byte)
                b += a
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    /// zlib stream: header, one final fixed-Huffman deflate block, Adler-32.
    static func zlib(_ data: [UInt8], distances: [Int]) -> [UInt8] {
        var bits = BitWriter()
        bits.bytes = [0x78, 0x01]
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE = 01, fixed Huffman
        var i = 0
        while i < data.count {
            var bestLength = 0, bestDistance = 0
            for distance in distances where distance <= i && distance <= 32768 {
                var length = 0
                while length < 258, i + length < data.count, data[i + length] == data[i + length - distance] { length += 1 }
                if length > bestLength { bestLength = length; bestDistance = distance }
            }
            if bestLength >= 3 {
                writeLength(bestLength, &bits)
                writeDistance(bestDistance, &bits)
                i += bestLength
            } else {
                writeLiteral(Int(data[i]), &bits)
                i += 1
            }
        }
        writeLiteral(256, &bits)  // end of block
        bits.flush()
        return bits.bytes + be32(adler32(data))
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                               2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Literal/length symbol with the fixed code (RFC 1951, 3.2.6).
    static func writeLiteral(_ symbol: Int, _ bits: inout BitWriter) {
        switch symbol {
        case 0...143: bits.writeHuffman(0x30 + symbol, count: 8)
        case 144...255: bits.writeHuffman(0x190 + symbol - 144, count: 9)
        case 256...279: bits.writeHuffman(symbol - 256, count: 7)
        default: bits.writeHuffman(0xC0 + symbol - 280, count: 8)
        }
    }

    static func writeLength(_ length: Int, _ bits: inout BitWriter) {
        let code = (lengthBase.lastIndex { $0 <= length })!
        writeLiteral(257 + code, &bits)
        if lengthExtra[code] > 0 { bits.write(length - lengthBase[code], count: lengthExtra[code]) }
    }

    static func writeDistance(_ distance: Int, _ bits: inout BitWriter) {
        let code = (distanceBase.lastIndex { $0 <= distance })!
        bits.writeHuffman(code, count: 5)
        if distanceExtra[code] > 0 { bits.write(distance - distanceBase[code], count: distanceExtra[code]) }
    }

    /// Deflate's bit order: values least-significant bit first, Huffman codes most-significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var used = 0

        mutating func write(_ value: Int, count: Int) {
            buffer |= UInt32(value) << UInt32(used)
            used += count
            while used >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                used -= 8
            }
        }

        mutating func writeHuffman(_ code: Int, count: Int) {
            var reversed = 0
            for k in 0..<count where code & (1 << k) != 0 { reversed |= 1 << (count - 1 - k) }
            write(reversed, count: count)
        }

        mutating func flush() {
            if used > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            buffer = 0
            used = 0
        }
    }
}
