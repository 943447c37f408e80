import Foundation
import HapticConformance
import HapticTransport
import HapticVirtualDevice
import TestSupport
import Testing

/// The device vectors ship inside the kit (the HapticConformance module's resources), so a
/// conformance run never depends on the folder it runs in; and a run that replays no vector
/// does not pass.
@Suite(.serialized) struct ShippedVectorsTests {
    static let source = Repository.path("firmware-protocol/vectors/device")

    static func vectorFiles(in directory: String) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".txt") }
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent($0))) })
    }

    /// The shipped copy is firmware-protocol/vectors/device's .txt files, byte for byte (after
    /// regenerating the vectors: `cp firmware-protocol/vectors/device/*.txt Sources/HapticConformance/Vectors/`).
    @Test func theShippedVectorsAreTheProtocolsVectors() throws {
        let shipped = try #require(ShippedVectors.directory, "no vectors in the module's resources")
        let copy = try Self.vectorFiles(in: shipped)
        let original = try Self.vectorFiles(in: Self.source)
        #expect(!original.isEmpty)
        #expect(copy.keys.sorted() == original.keys.sorted())
        for (name, bytes) in original { #expect(copy[name] == bytes, "\(name) differs: copy it again") }
    }

    /// A folder without vectors fails the run (it used to conform with no vector replayed).
    @Test func anEmptyVectorFolderFailsTheRun() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let device = try VirtualDevice()
        device.start()
        defer { device.stop() }
        let port = try openTransport(path: device.path)
        defer { port.close() }
        let run = Conformance.run(on: port, options: .init(vectorsDirectory: empty.path, only: ["vectors", "hello"]))
        #expect(!run.passed)
        let vectors = run.results.first { $0.name == "vectors" }
        #expect(vectors?.status == .failed, "\(run.results)")
    }
}
