import FirmwareModel
import Foundation
import HapticConformance
import HapticProtocol
import HapticTransport
import HapticVirtualDevice
import TestSupport
import Testing

/// The kit against devices on real pseudo-terminals: the firmware model (`VirtualDevice`)
/// conforms; a model with one rule changed fails exactly the checks that exercise that rule.
/// (`haptic conformance` against the simulated ATmega328P: HapticCLITests.)
@Suite(.serialized) struct ConformanceTests {
    static let vectors = Repository.path("firmware-protocol/vectors/device")

    static func run(path: String) throws -> ConformanceRun {
        let port = try openTransport(path: path)
        defer { port.close() }
        return Conformance.run(on: port, options: .init(vectorsDirectory: vectors))
    }

    static func failures(_ run: ConformanceRun) -> [String] {
        run.results.filter { $0.status == .failed }.map { "\($0.kind.rawValue) \($0.name): \($0.detail)" }
    }

    @Test func theVirtualDeviceConforms() throws {
        let device = try VirtualDevice()
        device.start()
        defer { device.stop() }
        let run = try Self.run(path: device.path)

        #expect(run.passed, "\(Self.failures(run))")
        let vectorFiles = try FileManager.default.contentsOfDirectory(atPath: Self.vectors).filter { $0.hasSuffix(".txt") }
        let vectors = run.results.filter { $0.kind == .vector }
        #expect(vectors.count == vectorFiles.count)
        // Stage faults are the board's side of a vector: over a port that one is skipped.
        #expect(vectors.allSatisfy { ($0.status == .passed && ($0.compared ?? 0) > 0) || ($0.name == "stage_faults" && $0.status == .skipped) })
        let live = run.results.filter { $0.kind == .live }
        #expect(live.map(\.name) == Conformance.liveChecks)
        // The pty held the boot's RESET notice for the first client.
        #expect(live.allSatisfy { $0.status == .passed }, "\(live.filter { $0.status != .passed }.map(\.detail))")
    }

    /// The vectors that expect a NACK BAD_OFFSET somewhere (from their `# out` readings).
    static func vectorsExpectingBadOffset() throws -> Set<String> {
        let files = try FileManager.default.contentsOfDirectory(atPath: vectors).filter { $0.hasSuffix(".txt") }
        return Set(
            try files.filter { file in
                let text = try String(contentsOfFile: vectors + "/" + file, encoding: .utf8)
                return text.split(separator: "\n").contains { $0.hasPrefix("# out") && $0.contains("NACK") && $0.contains("BAD_OFFSET") }
            }.map { String($0.dropLast(4)) })
    }

    @Test func aDeviceThatIgnoresBadOffsetFailsTheChecksOfThatRule() throws {
        let configuration = VirtualDevice.Options().configuration
        let server = try ModelServer(OffsetIgnoringDevice(configuration: configuration))
        defer { server.stop() }
        let run = try Self.run(path: server.path)

        let failed = Set(run.results.filter { $0.status == .failed }.map(\.name))
        let expected = try Self.vectorsExpectingBadOffset().union(["upload-refusals"])
        #expect(expected.count >= 2)
        #expect(failed == expected, "\(Self.failures(run))")
        let refusals = try #require(run.results.first { $0.name == "upload-refusals" })
        #expect(refusals.detail.contains("expected NACK UPLOAD 67 BAD_OFFSET value 3, got ACK UPLOAD value 4"), "\(refusals.detail)")
        for name in expected.subtracting(["upload-refusals"]) {
            let vector = try #require(run.results.first { $0.name == name })
            #expect(vector.detail.contains("BAD_OFFSET"), "\(name): \(vector.detail)")
        }
        #expect(!run.passed)
    }

    @Test func noDeviceIsOneFailedHandshake() throws {
        let pty = try PseudoTerminal()  // nobody serves the master end
        defer { pty.close() }
        let port = try openTransport(path: pty.slavePath)
        defer { port.close() }
        let run = Conformance.run(on: port, options: .init(vectorsDirectory: Self.vectors, helloTimeout: 0.5))
        #expect(run.info == nil)
        #expect(run.results.map(\.name) == ["handshake"])
        #expect(run.results.first?.detail.hasPrefix("no INFO in answer to HELLO within 500 ms") == true)
        #expect(!run.passed)
    }
}

/// The pieces of the vector replay that need no device.
struct VectorReplayPartsTests {
    @Test func theReferenceModelReproducesEveryVector() throws {
        let vectors = try DeviceVectorFile.all(in: ConformanceTests.vectors)
        #expect(vectors.count >= 17)
        for vector in vectors {
            #expect(vector.differenceFromModel() == nil, "\(vector.name)")
            #expect(!vector.inputs.isEmpty && vector.inputs.allSatisfy { $0.note.hasPrefix("in \($0.tick):") }, "\(vector.name)")
        }
    }

    @Test func aMalformedVectorLineIsNamed() {
        #expect(throws: DeviceVectorFile.ReadError.self) { try DeviceVectorFile(name: "bad", text: "ticks: 1\nin x 00\n0: 0 0 0\n") }
    }
}
