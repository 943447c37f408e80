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

    /// The DRV2605L registers of each header, read back through the datasheet's equations with the
    /// other registers as the firmware writes them (output_drv2605l.c): full scale at or just under
    /// the profile's rated voltage, the clamp at or just under its overdrive voltage (one step of
    /// the register at most), DRIVE_TIME half the resonance period.
    @Test(arguments: profiles.map(\.name))
    func drvRegistersGiveTheProfilesVoltages(name: String) throws {
        let profile = try #require(ActuatorProfile.builtIns.first { $0.name == name })
        let d = try Self.defines(name)
        var r = [UInt8](repeating: 0, count: 256)
        let lra = profile.kind == .lra
        r[0x01] = 0x05
        r[0x16] = UInt8(try #require(d["DRV_RATED_VOLTAGE"]))
        r[0x17] = UInt8(try #require(d["DRV_OD_CLAMP"]))
        r[0x1A] = lra ? 0xB6 : 0x36
        r[0x1B] = 0x80 | UInt8(try #require(d["DRV_DRIVE_TIME"]))
        r[0x1C] = 0x75
        r[0x1D] = 0x88
        var f0 = 0.0
        if case .lra(let l) = profile.mechanics { f0 = l.resonanceHz }
        let rated = DRV2605LEquations.fullScaleVolts(registers: r, lraHz: f0)
        let clamp = DRV2605LEquations.clampVolts(registers: r, lraHz: f0)
        let step = 0.0217 / (lra ? 0.8 : 0.9)  // one register step, generously
        #expect(rated <= profile.drive.ratedVolts && rated > profile.drive.ratedVolts - step, "\(name): rated \(rated) V")
        #expect(clamp <= profile.drive.overdriveVolts && clamp > profile.drive.overdriveVolts - step, "\(name): clamp \(clamp) V")
        #expect(DRV2605LEquations.outputVolts(registers: r, code: 255, lraHz: f0) == rated)
        #expect(DRV2605LEquations.outputVolts(registers: r, code: 0, lraHz: f0) == 0, "zero is no drive")
        if lra {
            let halfPeriodMs = 1_000 / (2 * f0)
            #expect(abs(Double(r[0x1B] & 0x1F) * 0.1 + 0.5 - halfPeriodMs) <= 0.05)
        }
        print(
            "REPORT DRV2605L registers for \(name): RATED_VOLTAGE 0x\(String(r[0x16], radix: 16)) = \(String(format: "%.3f", rated)) V, OD_CLAMP 0x\(String(r[0x17], radix: 16)) = \(String(format: "%.3f", clamp)) V, DRIVE_TIME \(r[0x1B] & 0x1F)"
        )
    }

    /// The closed-loop profile's kick is what the chip does: its automatic overdrive at the ratio
    /// of the clamp to the rated voltage reaches the target after tau ln(k / (k - 1)) from rest.
    @Test func closedLoopKickMatchesTheChip() throws {
        let profile = try #require(ActuatorProfile.builtIns.first { $0.name == ActuatorProfile.defaultName })
        guard case .lra(let lra) = profile.mechanics else {
            Issue.record("not an LRA")
            return
        }
        let d = try Self.defines(profile.name)
        var r = [UInt8](repeating: 0, count: 256)
        r[0x01] = 0x05
        r[0x16] = UInt8(d["DRV_RATED_VOLTAGE"] ?? 0)
        r[0x17] = UInt8(d["DRV_OD_CLAMP"] ?? 0)
        r[0x1A] = 0xB6
        r[0x1C] = 0x75
        r[0x1D] = 0x88
        let k =
            DRV2605LEquations.clampVolts(registers: r, lraHz: lra.resonanceHz)
            / DRV2605LEquations.fullScaleVolts(registers: r, lraHz: lra.resonanceHz)
        let kickMs = lra.timeConstant * 1_000 * log(k / (k - 1))
        #expect(Int(kickMs.rounded()) == profile.edges.kickMs, "the chip overdrives at k = \(k): \(kickMs) ms")
        #expect(profile.edges.brakeRatio <= k + 0.01)
    }
}
