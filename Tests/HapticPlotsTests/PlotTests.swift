import Foundation
import HapticPattern
import HapticTransport
import Testing

@testable import HapticPlots

#if canImport(FoundationXML)
    import FoundationXML
#endif

// MARK: - PNG files, read back by an independent decoder (Python's zlib)

/// Reads a PNG (8-bit RGB) with Python's zlib and struct: checks the signature and every chunk's CRC,
/// inflates the IDAT data, undoes each row's filter, writes the pixels to argv[2] and prints the header.
private let pythonPNGDecoder = #"""
    import json, struct, sys, zlib
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG signature'
    pos, chunks, idat = 8, [], b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        assert struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])[0] == zlib.crc32(kind + body), 'CRC'
        chunks.append(kind.decode())
        if kind == b'IHDR':
            width, height, depth, colour, method, filtering, interlace = struct.unpack('>IIBBBBB', body)
        if kind == b'IDAT':
            idat += body
        pos += 12 + length
    assert (depth, colour, method, filtering, interlace) == (8, 2, 0, 0, 0), 'not 8-bit RGB'
    raw, stride = zlib.decompress(idat), width * 3
    assert len(raw) == height * (stride + 1), 'inflated size'
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        assert kind <= 4, 'filter type'
        for x in range(stride if kind else 0):
            a, b, c = line[x - 3] if x >= 3 else 0, previous[x], previous[x - 3] if x >= 3 else 0
            p = a + b - c
            paeth = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
            line[x] = (line[x] + [0, a, b, (a + b) // 2, paeth][kind]) & 255
        rows.append(bytes(line))
        previous = line
    open(sys.argv[2], 'wb').write(b''.join(rows))
    print(json.dumps({'chunks': chunks, 'width': width, 'height': height}))
    """#

private struct DecodedPNG: Decodable, Equatable {
    var chunks: [String]
    var width: Int
    var height: Int
    var pixels: [UInt8] = []

    enum CodingKeys: CodingKey { case chunks, width, height }
}

/// The PNG file at `path` as Python decodes it.
private func decodeWithPython(_ path: String) throws -> DecodedPNG {
    let pixels = path + ".rgb"
    defer { try? FileManager.default.removeItem(atPath: pixels) }
    let run = try runProcess(executable: "/usr/bin/env", arguments: ["python3", "-c", pythonPNGDecoder, path, pixels])
    #expect(run.status == 0, "python3 could not decode \(path): \(String(decoding: run.stderr, as: UTF8.self))")
    var decoded = try JSONDecoder().decode(DecodedPNG.self, from: run.stdout)
    decoded.pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pixels)))
    return decoded
}

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("haptic-plot-tests-\(getpid())-\(name)").path
}

@Test func pngDecodesToItsPixels() throws {
    var pixels = [UInt8](repeating: 255, count: 5 * 3 * 3)
    pixels[(1 * 5 + 2) * 3] = 0  // pixel (2, 1) cyan
    let path = temporaryPath("5x3.png")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(PNGWriter.encode(width: 5, height: 3, rgb: pixels)).write(to: URL(fileURLWithPath: path))
    #expect(try decodeWithPython(path) == DecodedPNG(chunks: ["IHDR", "IDAT", "IEND"], width: 5, height: 3, pixels: pixels))
}

/// A pattern's plot written as PNG decodes to the plot's raster, pixel for pixel.
@Test func thePatternPlotAsPNGDecodesToItsRaster() throws {
    let path = temporaryPath("splash.png")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let plot = try splashPlot()
    try Data(plot.png()).write(to: URL(fileURLWithPath: path))
    let decoded = try decodeWithPython(path)
    let raster = plot.raster()
    #expect(decoded.chunks == ["IHDR", "IDAT", "IEND"])
    #expect(decoded.width == 960 && decoded.height == raster.height)
    #expect(decoded.pixels == raster.pixels)
    #expect(Array(decoded.pixels[0..<3]) == [255, 255, 255], "white background in the top left corner")
    #expect(Set(stride(from: 0, to: decoded.pixels.count, by: 3).map { decoded.pixels[$0..<($0 + 3)] }).count > 10, "a plot, not a blank")
}

/// The plot `haptic render preset:tutorial.splash` draws.
func splashPlot() throws -> TimePlot {
    let preset = try #require(Preset.named("tutorial.splash"))
    let renderer = ReferenceRenderer(pattern: preset.pattern)
    return TimePlot.pattern(
        preset.pattern, title: preset.name, note: preset.summary, renderer: renderer, samples: renderer.render(rate: 1000), rate: 1000, width: 960)
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
        let plot = try splashPlot()
        #expect(plot.lanes.map(\.name) == ["continuous", "transients", "audio (ignored)"])
        let svg = plot.svg()
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "SVG is not well-formed XML")
        for text in [">Intensity<", ">Sharpness<", ">intensity<", ">sharpness<", ">time (ms)<", ">tutorial.splash<", ">#2<"] {
            #expect(svg.contains(text), "missing \(text)")
        }
    }
#endif
