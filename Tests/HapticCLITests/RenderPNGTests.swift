import Foundation
import HapticPattern
import HapticPlots
import Testing

@testable import HapticCLI

/// `haptic render … -o FILE.png` writes the library's plot of the pattern, byte for byte
/// (HapticPlotsTests decodes that PNG independently).
@Test func renderWritesTheLibrarysPlotAsPNG() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("haptic-render-\(getpid())-splash.png").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Render.parse(["preset:tutorial.splash", "-o", path]).run()
    let preset = try #require(Preset.named("tutorial.splash"))
    let renderer = ReferenceRenderer(pattern: preset.pattern)
    let plot = TimePlot.pattern(
        preset.pattern, title: preset.name, note: preset.summary, renderer: renderer, samples: renderer.render(rate: 1000), rate: 1000, width: 960)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(plot.png()))
}
