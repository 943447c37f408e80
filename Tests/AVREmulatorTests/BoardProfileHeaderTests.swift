import AVREmulator
import Foundation
import HapticCompiler
import TestSupport
import Testing

/// The board's profile headers (hardware/firmware/boards/atmega328p/profiles/<name>.h, written by
/// tools/gen-board-profiles) against the actuator profiles they come from: one per LRA and ERM
/// profile, with the figures `PWMStageSettings` computes from the same file. A header that
/// differs was not regenerated after its profile changed: run tools/gen-board-profiles.
@Suite struct BoardProfileHeaderTests {
    static let folder = Repository.path("hardware/firmware/boards/atmega328p/profiles")
    static let profiles = ActuatorProfile.builtIns.filter { $0.kind == .lra || $0.kind == .erm }

    /// The `#define HB_PROFILE_<KEY> <value>u` numbers of a header.
    static func defines(_ name: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: folder + "/\(name).h", encoding: .utf8)
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("#define HB_PROFILE_") {
            let parts = line.split(separator: " ")
            guard parts.count == 3 else { continue }
            let key = String(parts[1].dropFirst("HB_PROFILE_".count))
            var literal = parts[2].hasSuffix("u") ? String(parts[2].dropLast()) : String(parts[2])
            let hex = literal.hasPrefix("0x")
            if hex { literal.removeFirst(2) }
            if let value = Int(literal, radix: hex ? 16 : 10) { values[key] = value }
        }
        return values
    }

    @Test func everyBoardProfileHasAHeader() throws {
        let headers = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".h") }
        #expect(Set(headers) == Set(Self.profiles.map { "\($0.name).h" }))
    }

    @Test(arguments: profiles.map(\.name))
    func headerHoldsTheProfilesFigures(name: String) throws {
        let profile = try #require(ActuatorProfile.builtIns.first { $0.name == name })
        let s = try PWMStageSettings(profile: profile)
        let d = try Self.defines(name)
        #expect(d["KIND_LRA"] == (s.kind == .lra ? 1 : nil))
        #expect(d["KIND_ERM"] == (s.kind == .erm ? 1 : nil))
        let expected: [String: Int] = [
            "RATED_MV": s.ratedMillivolts, "OVERDRIVE_MV": s.overdriveMillivolts, "KICK_MS": s.kickMs,
            "BRAKE_MS": s.brakeMs, "BRAKE_RATIO_Q8": s.brakeRatioQ8, "MIN_EDGE_Q8": s.minimumEdgeQ8,
            "F_MIN_HZ": s.minimumHz, "F_MAX_HZ": s.maximumHz, "F0_HZ": s.resonanceHz, "TAU_US": s.tauMicroseconds,
            "COAST_TAU_US": s.coastTauMicroseconds, "BIDIRECTIONAL": s.bidirectional ? 1 : 0,
        ]
        for (key, value) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(d[key] == value, "\(name).h HB_PROFILE_\(key): run tools/gen-board-profiles")
        }
    }
}
