import Foundation
import TestSupport
import Testing

@testable import HapticPattern

/// Examples/*.ahap are written by hand from the presets' design sources (Examples/README.md); each must
/// decode strictly, without warnings, to exactly its preset's pattern, and already be in the codec's
/// canonical form.
private let examples: [(file: String, preset: String)] = [
    ("slice-basic", "tutorial.slice-basic"),
    ("slice", "tutorial.slice"),
    ("nom-nom", "tutorial.nom-nom"),
    ("splash", "tutorial.splash"),
    ("heartbeat", "custom.heartbeat"),
]

private let examplesDirectory = Repository.url("Examples")

@Test(arguments: examples)
func exampleDecodesToItsPresetAndIsCanonical(file: String, preset: String) throws {
    let path = examplesDirectory.appendingPathComponent("\(file).ahap").path
    let bytes = try AHAPDecoder.readFile(path)
    let document = try AHAPDecoder(mode: .strict).decode(bytes, file: path)
    #expect(document.warnings.isEmpty, "\(document.warnings)")
    let expected = try #require(Preset.named(preset)).pattern
    #expect(document.pattern.events == expected.events)
    #expect(document.pattern.parameters == expected.parameters)
    #expect(document.pattern.curves == expected.curves)
    #expect(document.pattern.metadata["Source"] != nil)
    #expect(AHAPEncoder().encode(document.pattern) == bytes, "\(file).ahap is not in canonical form")
}

@Test func everyExampleFileIsListed() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)
        .filter { $0.hasSuffix(".ahap") }.map { String($0.dropLast(5)) }.sorted()
    #expect(files == examples.map(\.file).sorted())
}

@Test func presetsDocumentListsEveryPreset() throws {
    let doc = try String(contentsOf: examplesDirectory.deletingLastPathComponent().appendingPathComponent("docs/presets.md"), encoding: .utf8)
    for preset in Preset.all {
        #expect(doc.contains("| `\(preset.name)` |"), "docs/presets.md has no row for \(preset.name)")
    }
}
