import Foundation
import TestSupport
import Testing

@testable import HapticProtocol

/// Protocol 3.0's codec against the Python reference's sessions (firmware-protocol/vectors/v3):
/// every frame both ways decodes as a `Message3` and encodes back to the same bytes.
struct Message3VectorTests {
    /// One `in` or `out` line of a session file: a whole stuffed frame with its delimiter.
    struct WireLine: CustomStringConvertible {
        var file: String
        var line: Int
        var bytes: [UInt8]
        var description: String { "\(file):\(line)" }
    }

    /// The session files' frames, read with a test-local reader (README.md: `in <tick> <hex>`,
    /// `out <tick> <hex>`; every other line is configuration, samples or a comment).
    static func wireLines() throws -> [WireLine] {
        let folder = Repository.url("firmware-protocol/vectors/v3/sessions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }.sorted()
        var lines: [WireLine] = []
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "in" || words[0] == "out" else { continue }
                let bytes = try #require(Hex.decode(words[2]), "\(name):\(index + 1): not hex")
                lines.append(WireLine(file: name, line: index + 1, bytes: bytes))
            }
        }
        return lines
    }

    /// The frames the sessions send short on purpose: a v2 host's PLAY, STOP and SET_PARAM to a
    /// v3 device (3.14), and the refusals' short PLAY and CONTROL (3.11's BAD_LENGTH).
    static let deliberatelyShort: [String: Set<MessageType>] = [
        "hello_and_describe.txt": [.play, .stop, .setParam],
        "refusals.txt": [.play, .control],
    ]

    @Test func everySessionFrameRoundTrips() throws {
        let lines = try Self.wireLines()
        #expect(lines.count > 400)
        var seen = Set<MessageType>()
        var short: [String: Set<MessageType>] = [:]
        for wire in lines {
            var decoder = FrameDecoder()
            let results = decoder.push(wire.bytes)
            try #require(results.count == 1, "\(wire): \(results.count) frames")
            let frame = try #require(try? results[0].get(), "\(wire): not a frame")
            switch Result(catching: { () throws(MessageDecodeError) in try Message3(frame: frame) }) {
            case .success(let message):
                seen.insert(message.type)
                #expect(frame.flags == 0, "\(wire)")
                #expect(try message.encoded(sequence: frame.sequence) == wire.bytes, "\(wire): \(message)")
            case .failure(.tooShort(let type, let count, let fixedCount)):
                #expect(count < fixedCount, "\(wire)")
                short[wire.file, default: []].insert(type)
            case .failure(let error):
                Issue.record("\(wire): \(error)")
            }
        }
        #expect(short == Self.deliberatelyShort)
        // The sessions exercise every 3.0 message but DIAG / DIAG_REPORT (the reference does not
        // model them, vectors/v3/README.md), PREPARE and a whole SET_PARAM: Message3Tests has those.
        #expect(Set(MessageType.allCases).subtracting(seen) == [.diag, .diagReport, .prepare, .setParam])
    }
}
