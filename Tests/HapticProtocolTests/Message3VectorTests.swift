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
        /// The file's `config:` line, and each channel's settings with README.md's defaults.
        var config: [String: String]
        var channels: [[String: String]]
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
            let configLine = text.split(separator: "\n").first { $0.hasPrefix("config: ") } ?? ""
            let config = settings(configLine.dropFirst(8).split(separator: " "))
            let channels = (config["channel_config"] ?? "-").split(separator: ";").map { list in
                channelDefaults.merging(list == "-" ? [:] : settings(list.split(separator: ","))) { $1 }
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "in" || words[0] == "out" else { continue }
                let bytes = try #require(Hex.decode(words[2]), "\(name):\(index + 1): not hex")
                lines.append(WireLine(file: name, line: index + 1, bytes: bytes, config: config, channels: channels))
            }
        }
        return lines
    }

    static let channelDefaults = [
        "brake": "20", "threshold": "224", "safety": "30000", "actuator": "1", "stage": "1", "profile_id": "7",
        "profile_name": "lra-test", "caps": "3", "rated_mv": "2000", "limit_mv": "3000", "wake": "20",
    ]

    static func settings(_ pairs: [Substring]) -> [String: String] {
        Dictionary(pairs.map { pair in (String(pair.prefix { $0 != "=" }), String(pair.drop { $0 != "=" }.dropFirst())) }) { $1 }
    }

    /// The decoded fields against what the session configured: a layout that reads a field from
    /// the wrong offset round-trips, but shows here.
    static func checkAgainstConfig(_ message: Message3, _ wire: WireLine) {
        let channelCount = Int(wire.config["channels"] ?? "") ?? 0
        func number(_ text: String?) -> Int { Int(text ?? "") ?? -1 }
        switch message {
        case .info(let info):
            let c0 = wire.channels[0]
            #expect(Int(info.channelCount) == channelCount && info.reserved == 0, "\(wire)")
            #expect(Int(info.players) == number(wire.config["players"]), "\(wire)")
            #expect(Int(info.workBudget) == number(wire.config["work_budget"]), "\(wire)")
            #expect(Int(info.base.deviceID) == number(wire.config["device_id"]), "\(wire)")
            #expect(Int(info.base.brakeTicks) == number(c0["brake"]), "\(wire)")
            #expect(info.base.profileNameString == c0["profile_name"], "\(wire)")
        case .channelInfo(let ci):
            try? #require(Int(ci.channel) < channelCount, "\(wire)")
            let c = wire.channels[Int(ci.channel)]
            let got = [
                ci.actuatorCode, ci.stageCode, ci.capabilities.rawValue, ci.safetyThreshold,
            ].map(Int.init)
            #expect(got == ["actuator", "stage", "caps", "threshold"].map { number(c[$0]) }, "\(wire)")
            let wide = [ci.profileID, ci.brakeTicks, ci.ratedMillivolts, ci.limitMillivolts, ci.wakeTicks].map(Int.init)
            #expect(wide == ["profile_id", "brake", "rated_mv", "limit_mv", "wake"].map { number(c[$0]) }, "\(wire)")
            #expect(Int(ci.safetyTicks) == number(c["safety"]) && ci.reserved == 0, "\(wire)")
            #expect(ci.profileNameString == c["profile_name"], "\(wire)")
        case .telemetry(let t):
            #expect(Int(t.channel) < channelCount, "\(wire)")
        default:
            break
        }
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
                Self.checkAgainstConfig(message, wire)
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
