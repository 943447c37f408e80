import CZlib
import Foundation

// PNG output for `TimePlot`: a small anti-aliased rasteriser for the plot's shapes, a 5x7 bitmap font for its
// labels, and the PNG chunks around zlib's compression and CRC-32.

extension TimePlot {
    public func png() -> [UInt8] {
        let image = raster()
        return PNGWriter.encode(width: image.width, height: image.height, rgb: image.pixels)
    }

    /// The plot drawn into pixels.
    public func raster() -> Raster {
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
public struct Raster: Sendable {
    public let width: Int, height: Int
    public var pixels: [UInt8]
    /// Per-shape coverage, so a polyline's joints are not blended twice.
    private var coverage: [Float]
    private var touched: [Int] = []

    public init(width: Int, height: Int) {
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
    public mutating func fill(x: Double, y: Double, w: Double, h: Double, color: PlotColor, alpha: Double) {
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
    public mutating func stroke(_ points: [(Double, Double)], color: PlotColor, width lineWidth: Double, dashed: Bool) {
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
    public mutating func text(
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
public enum BitmapFont: Sendable {
    public static func columns(_ scalar: Unicode.Scalar) -> ArraySlice<UInt8> {
        let code = Int(scalar.value)
        let index = (32...126).contains(code) ? code - 32 : Int(UInt8(ascii: "?")) - 32
        return table[(index * 5)..<(index * 5 + 5)]
    }

    /// The table's bytes, five a glyph from space (32) to ~ (126), read once from `glyphs`.
    public static let table: [UInt8] = glyphs.split(separator: "\n").flatMap { line in
        line.split(separator: " ").prefix(5).map { UInt8($0, radix: 16)! }
    }

    /// One glyph a line: its five columns in hex, then the character it draws.
    private static let glyphs = #"""
        00 00 00 00 00  space
        00 00 5F 00 00  !
        00 07 00 07 00  "
        14 7F 14 7F 14  #
        24 2A 7F 2A 12  $
        23 13 08 64 62  %
        36 49 56 20 50  &
        00 08 07 03 00  '
        00 1C 22 41 00  (
        00 41 22 1C 00  )
        2A 1C 7F 1C 2A  *
        08 08 3E 08 08  +
        00 80 70 30 00  ,
        08 08 08 08 08  -
        00 00 60 60 00  .
        20 10 08 04 02  /
        3E 51 49 45 3E  0
        00 42 7F 40 00  1
        72 49 49 49 46  2
        21 41 49 4D 33  3
        18 14 12 7F 10  4
        27 45 45 45 39  5
        3C 4A 49 49 31  6
        41 21 11 09 07  7
        36 49 49 49 36  8
        46 49 49 29 1E  9
        00 00 14 00 00  :
        00 40 34 00 00  ;
        00 08 14 22 41  <
        14 14 14 14 14  =
        00 41 22 14 08  >
        02 01 59 09 06  ?
        3E 41 5D 59 4E  @
        7C 12 11 12 7C  A
        7F 49 49 49 36  B
        3E 41 41 41 22  C
        7F 41 41 41 3E  D
        7F 49 49 49 41  E
        7F 09 09 09 01  F
        3E 41 41 51 73  G
        7F 08 08 08 7F  H
        00 41 7F 41 00  I
        20 40 41 3F 01  J
        7F 08 14 22 41  K
        7F 40 40 40 40  L
        7F 02 1C 02 7F  M
        7F 04 08 10 7F  N
        3E 41 41 41 3E  O
        7F 09 09 09 06  P
        3E 41 51 21 5E  Q
        7F 09 19 29 46  R
        26 49 49 49 32  S
        03 01 7F 01 03  T
        3F 40 40 40 3F  U
        1F 20 40 20 1F  V
        3F 40 38 40 3F  W
        63 14 08 14 63  X
        03 04 78 04 03  Y
        61 59 49 4D 43  Z
        00 7F 41 41 41  [
        02 04 08 10 20  \
        00 41 41 41 7F  ]
        04 02 01 02 04  ^
        40 40 40 40 40  _
        00 03 07 08 00  `
        20 54 54 78 40  a
        7F 28 44 44 38  b
        38 44 44 44 28  c
        38 44 44 28 7F  d
        38 54 54 54 18  e
        00 08 7E 09 02  f
        18 A4 A4 9C 78  g
        7F 08 04 04 78  h
        00 44 7D 40 00  i
        20 40 40 3D 00  j
        7F 10 28 44 00  k
        00 41 7F 40 00  l
        7C 04 78 04 78  m
        7C 08 04 04 78  n
        38 44 44 44 38  o
        FC 18 24 24 18  p
        18 24 24 18 FC  q
        7C 08 04 04 08  r
        48 54 54 54 24  s
        04 04 3F 44 24  t
        3C 40 40 20 7C  u
        1C 20 40 20 1C  v
        3C 40 30 40 3C  w
        44 28 10 28 44  x
        4C 90 90 90 7C  y
        44 64 54 4C 44  z
        00 08 36 41 00  {
        00 00 77 00 00  |
        00 41 36 08 00  }
        02 01 02 04 02  ~
        """#
}

/// PNG (RGB, 8 bits per channel, not interlaced): IHDR, one IDAT compressed by zlib, IEND.
public enum PNGWriter: Sendable {
    public static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
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
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, data, uLong(data.count), Z_BEST_COMPRESSION)
        precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
        return Array(out[..<Int(size)])
    }

    public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    /// Length, type, data, and the CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        out += be32(UInt32(data.count)) + typed + be32(UInt32(crc))
    }
}
