import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import HapticCLI
import HapticPattern

// MARK: - PNG writer, checked with an independent fixed-Huffman inflater

/// Just enough inflate (RFC 1951, fixed Huffman blocks only) to read back what PNGWriter writes.
private func inflateFixed(_ data: ArraySlice<UInt8>) -> [UInt8]? {
    let bytes = Array(data)
    var position = 0
    func bit() -> Int? {
        guard position / 8 < bytes.count else { return nil }
        defer { position += 1 }
        return Int(bytes[position / 8] >> UInt8(position % 8)) & 1
    }
    func bits(_ n: Int) -> Int? {
        var v = 0
        for k in 0..<n { guard let b = bit() else { return nil }; v |= b << k }
        return v
    }
    let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    guard bits(1) == 1, bits(2) == 1 else { return nil }  // one final fixed block
    var out: [UInt8] = []
    while true {
        var code = 0, symbol = -1
        for length in 1...9 {
            guard let b = bit() else { return nil }
            code = code << 1 | b
            if length == 7, code <= 23 { symbol = 256 + code; break }
            if length == 8, (0x30...0xBF).contains(code) { symbol = code - 0x30; break }
            if length == 8, (0xC0...0xC7).contains(code) { symbol = 280 + code - 0xC0; break }
            if length == 9, (0x190...0x1FF).contains(code) { symbol = 144 + code - 0x190; break }
        }
        guard symbol >= 0 else { return nil }
        if symbol < 256 { out.append(UInt8(symbol)); continue }
        if symbol == 256 { return out }
        let l = symbol - 257
        guard let extra = bits(lengthExtra[l]) else { return nil }
        let length = lengthBase[l] + extra
        var d = 0
        for _ in 0..<5 { guard let b = bit() else { return nil }; d = d << 1 | b }
        guard d < 30, let dExtra = bits(distanceExtra[d]) else { return nil }
        let distance = distanceBase[d] + dExtra
        guard distance <= out.count else { return nil }
        for _ in 0..<length { out.append(out[out.count - distance]) }
    }
}

private func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
}

@Test func checksumsMatchTheirCheckValues() {
    #expect(PNGWriter.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(PNGWriter.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    #expect(PNGWriter.adler32([]) == 1)
}

@Test func zlibStreamInflatesBackToItsInput() {
    var g = SystemRandomNumberGenerator()
    var inputs: [[UInt8]] = [[], [7], Array(repeating: 0, count: 100_000), Array("abcabcabcabcabc".utf8)]
    inputs.append((0..<5000).map { _ in UInt8.random(in: 0...255, using: &g) })
    inputs.append((0..<20000).map { UInt8(($0 / 7) % 3) })
    for input in inputs {
        let stream = PNGWriter.zlib(input, distances: [1, 3, 301])
        #expect(stream[0] == 0x78 && (UInt16(stream[0]) << 8 | UInt16(stream[1])) % 31 == 0)
        #expect(inflateFixed(stream[2..<(stream.count - 4)]) == input)
        #expect(be32(Array(stream), stream.count - 4) == PNGWriter.adler32(input))
    }
}

@Test func pngHasValidChunksAndThePixels() throws {
    var pixels = [UInt8](repeating: 255, count: 5 * 3 * 3)
    pixels[(1 * 5 + 2) * 3] = 0  // pixel (2, 1) cyan
    let png = PNGWriter.encode(width: 5, height: 3, rgb: pixels)
    #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var i = 8
    var types: [String] = []
    var idat: [UInt8] = []
    while i < png.count {
        let length = Int(be32(png, i))
        let typed = Array(png[(i + 4)..<(i + 8 + length)])
        #expect(be32(png, i + 8 + length) == PNGWriter.crc32(typed))
        let type = String(decoding: typed[0..<4], as: UTF8.self)
        types.append(type)
        if type == "IHDR" { #expect(Array(typed[4...]) == [0, 0, 0, 5, 0, 0, 0, 3, 8, 2, 0, 0, 0]) }
        if type == "IDAT" { idat += typed[4...] }
        i += 12 + length
    }
    #expect(types == ["IHDR", "IDAT", "IEND"])
    let raw = try #require(inflateFixed(idat[2..<(idat.count - 4)]))
    #expect(raw.count == 3 * (1 + 5 * 3))
    let rows = (0..<3).map { Array(raw[($0 * 16)..<($0 * 16 + 16)]) }
    #expect(rows.allSatisfy { $0[0] == 0 })
    #expect(Array(rows[1][1...]) == Array(pixels[15..<30]))
}

// MARK: - Plot layout

@Test func ticksAreNiceAndLabelsHaveJustEnoughDecimals() {
    #expect(Ticks.nice(0...1, count: 4) == [0, 0.2, 0.4, 0.6, 0.8, 1])
    #expect(Ticks.nice(-1...1, count: 4) == [-1, -0.5, 0, 0.5, 1])
    #expect(Ticks.label(0.6, step: 0.2) == "0.6" && Ticks.label(0.5, step: 0.25) == "0.50")
    let short = TimeAxis(start: 0, end: 0.7, pixels: 800)
    #expect(short.unit == "ms")
    #expect(short.ticks.map(short.label) == ["0", "100", "200", "300", "400", "500", "600", "700"])
    let long = TimeAxis(start: 0, end: 9.8, pixels: 800)
    #expect(long.unit == "s")
    #expect(long.ticks.map(long.label) == ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
}

@Test func decimationKeepsASingleSampleSpike() {
    var values = [Double](repeating: 0.2, count: 100_000)
    values[54_321] = 1
    let series = TimePlot.Series(name: "x", color: .blue, times: values.indices.map { Double($0) }, values: values)
    let points = TimePlot.decimate(series, x: { $0 / 100_000 * 800 }, pixels: 800)
    #expect(points.count < 4 * 800)
    #expect(points.map(\.1).max() == 1)
    #expect(points.map(\.0) == points.map(\.0).sorted())
}

@Test func csvWritesShortestNumbers() {
    let text = CSVTable(columns: ["time_s", "intensity", "sharpness"], rows: [[0, 1, 0.5], [0.001, 0.25, 0]]).text()
    #expect(text == "time_s,intensity,sharpness\n0,1,0.5\n0.001,0.25,0\n")
}

#if canImport(FoundationXML) || os(macOS)
@Test func renderPlotIsWellFormedSVGWithLanesAndLegend() throws {
    let preset = try #require(Preset.named("tutorial.splash"))
    let input = PatternInput(pattern: preset.pattern, label: preset.name, preset: preset, warnings: [])
    let renderer = ReferenceRenderer(pattern: preset.pattern)
    let plot = Render.plot(input, renderer, renderer.render(rate: 1000), rate: 1000, width: 960)
    #expect(plot.lanes.map(\.name) == ["continuous", "transients", "audio (ignored)"])
    let svg = plot.svg()
    let parser = XMLParser(data: Data(svg.utf8))
    #expect(parser.parse(), "SVG is not well-formed XML")
    for text in [">Intensity<", ">Sharpness<", ">intensity<", ">sharpness<", ">time (ms)<", ">tutorial.splash<", ">#2<"] {
        #expect(svg.contains(text), "missing \(text)")
    }
    let png = plot.png()
    #expect(be32(png, 16) == 960 && be32(png, 20) == UInt32(plot.height.rounded()))
}
#endif
