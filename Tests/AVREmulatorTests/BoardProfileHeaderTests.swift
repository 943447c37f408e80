// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
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

        /// The DRV2605L register file the board writes for a header (output_drv2605l.c): RTP mode, the
        /// kind, the header's RATED_VOLTAGE, OD_CLAMP, CONTROL1 and CONTROL2, unsigned closed loop.
        static func registers(_ d: [String: Int], lra: Bool) throws -> [UInt8] {
            var r = [UInt8](repeating: 0, count: 256)
            r[0x01] = 0x05
            r[0x16] = UInt8(try #require(d["DRV_RATED_VOLTAGE"]))
            r[0x17] = UInt8(try #require(d["DRV_OD_CLAMP"]))
            r[0x1A] = lra ? 0xB6 : 0x36
            r[0x1B] = UInt8(try #require(d["DRV_CONTROL1"]))
            r[0x1C] = UInt8(try #require(d["DRV_CONTROL2"]))
            r[0x1D] = 0x88
            return r
        }

        /// The largest value of register `index` whose output by the datasheet's equation (as the
        /// simulated chip computes it) does not exceed `volts`: the generator's "rounded down".
        static func largest(_ index: Int, in registers: [UInt8], notOver volts: Double, _ output: ([UInt8]) -> Double) -> Int {
            var r = registers
            var best = -1
            for n in 0...255 {
                r[index] = UInt8(n)
                if output(r) <= volts + 1e-9 { best = n }
            }
            return best
        }

        /// Each header's DRV2605L registers are exactly what the datasheet's equations give for its
        /// profile (TI SLOS854C; hardware/README.md, "DRV2605L registers"): RATED_VOLTAGE the largest
        /// whose full scale (Equation 4 for an ERM, 5 for an LRA) is at most the profile's rated voltage,
        /// OD_CLAMP the largest whose clamp (Equation 8; Equation 9's peak on the gapped LRA drive) is
        /// at most its overdrive voltage, both with the timings the header's CONTROL1 and CONTROL2 set;
        /// DRIVE_TIME half the resonance period (LRA) or the reset value's 4.8 ms (ERM). The equations
        /// here are the simulated chip's (drv2605l_model.c), not tools/gen-board-profiles' own: a header
        /// that drifts from them, by a step or by a timing, fails.
        @Test(arguments: profiles.map(\.name))
        func drvRegistersAreTheEquationsValues(name: String) throws {
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == name })
            let d = try Self.defines(name)
            let lra = profile.kind == .lra
            let r = try Self.registers(d, lra: lra)
            var f0 = 0.0
            if case .lra(let l) = profile.mechanics { f0 = l.resonanceHz }
            let rated = DRV2605LEquations.fullScaleVolts(registers: r, lraHz: f0)
            let clamp = DRV2605LEquations.clampVolts(registers: r, lraHz: f0)
            #expect(
                d["DRV_RATED_VOLTAGE"]
                    == Self.largest(0x16, in: r, notOver: profile.drive.ratedVolts) {
                        DRV2605LEquations.fullScaleVolts(registers: $0, lraHz: f0)
                    }, "\(name): RATED_VOLTAGE \(rated) V for \(profile.drive.ratedVolts) V: run tools/gen-board-profiles")
            #expect(
                d["DRV_OD_CLAMP"]
                    == Self.largest(0x17, in: r, notOver: profile.drive.overdriveVolts) {
                        DRV2605LEquations.clampVolts(registers: $0, lraHz: f0)
                    }, "\(name): OD_CLAMP \(clamp) V for \(profile.drive.overdriveVolts) V: run tools/gen-board-profiles")
            let driveTime = try #require(d["DRV_DRIVE_TIME"])
            #expect(d["DRV_CONTROL1"] == 0x80 | driveTime)  // STARTUP_BOOST
            #expect(d["DRV_CONTROL2"] == 0x75)  // unidirectional, brake stabilizer, SAMPLE_TIME 300 us, IDISS/BLANKING 1
            if lra {
                let halfPeriodMs = 1_000 / (2 * f0)
                #expect(driveTime == Int(((halfPeriodMs - 0.5) / 0.1).rounded()), "\(name): DRIVE_TIME")
            } else {
                #expect(driveTime == 19)  // 19 x 0.2 ms + 1 ms = 4.8 ms, the reset value
            }
            #expect(DRV2605LEquations.outputVolts(registers: r, code: 255, lraHz: f0) == rated)
            #expect(DRV2605LEquations.outputVolts(registers: r, code: 0, lraHz: f0) == 0, "zero is no drive")
            print(
                "REPORT DRV2605L registers for \(name): RATED_VOLTAGE 0x\(String(r[0x16], radix: 16)) = \(String(format: "%.3f", rated)) V, OD_CLAMP 0x\(String(r[0x17], radix: 16)) = \(String(format: "%.3f", clamp)) V, DRIVE_TIME \(driveTime)"
            )
        }

        /// The Arduino library's built-in profiles (HapticOutput.h) write the DRV2605L registers of the
        /// board's header for the same profile, and cap their PWM stages at its voltages: the library has
        /// no generator, so this holds it to one.
        @Test func arduinoProfilesHoldTheHeadersRegisters() throws {
            let text = try String(
                contentsOfFile: Repository.path("hardware/arduino/HapticBridge/src/HapticOutput.h"), encoding: .utf8)
            var seen = 0
            for chunk in text.components(separatedBy: "constexpr HapticProfile ").dropFirst() {
                let body = try #require(chunk.split(separator: "{", maxSplits: 1).last?.split(separator: "}").first)
                let fields = body.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                try #require(fields.count == 7, "\(body)")
                let name = fields[0].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                let number = { (f: String) in f.hasPrefix("0x") ? Int(f.dropFirst(2), radix: 16) : Int(f) }
                let d = try Self.defines(name)
                #expect(number(fields[2]) == d["DRV_RATED_VOLTAGE"], "\(name) RATED_VOLTAGE")
                #expect(number(fields[3]) == d["DRV_OD_CLAMP"], "\(name) OD_CLAMP")
                #expect(number(fields[4]) == d["DRV_DRIVE_TIME"], "\(name) DRIVE_TIME")
                #expect(number(fields[5]) == d["RATED_MV"], "\(name) rated mV")
                #expect(number(fields[6]) == d["OVERDRIVE_MV"], "\(name) overdrive mV")
                seen += 1
            }
            #expect(seen == 3)
        }

        /// TI's DRV260x reference header tables register values per voltage. Its ERM closed-loop rated
        /// voltages are the DRV2605L's Equation 4 (3.0 V 0x8D, 3.3 V 0x9B). Its ERM closed-loop
        /// overdrive clamps (3.3 V 0xAA) are OD_CLAMP values, and they are the older DRV2605's: its
        /// clamp is 5.44 V / 255 a step times the same drive-time factor (SLOS825), with
        /// t_DRIVE 4.8 ms and IDISS and BLANKING 75 us, rounded to nearest, which gives every entry of
        /// the table. The DRV2605L's Equation 8 has 21.64 mV a step: 3.3 V is 0xA7, and 0xAA would
        /// drive 3.34 V (hardware/README.md, "DRV2605L registers").
        @Test func tiReferenceHeaderValuesFollowFromTheirChip() throws {
            var r = [UInt8](repeating: 0, count: 256)
            r[0x01] = 0x05
            r[0x1A] = 0x36  // ERM
            r[0x1B] = 0x93  // DRIVE_TIME 19: 4.8 ms
            r[0x1C] = 0x75  // IDISS and BLANKING 1: 75 us
            r[0x1D] = 0x88
            let rated = { (v: Double) in
                Self.largest(0x16, in: r, notOver: v) { DRV2605LEquations.fullScaleVolts(registers: $0, lraHz: 0) }
            }
            let clamp = { (v: Double) in
                Self.largest(0x17, in: r, notOver: v) { DRV2605LEquations.clampVolts(registers: $0, lraHz: 0) }
            }
            #expect(rated(3.0) == 0x8D && rated(3.3) == 0x9B)  // TI: Voltage_ERM_RV_CL_3p0, _3p3
            #expect(clamp(3.3) == 0xA7 && clamp(3.6) == 0xB6)  // TI's DRV2605 values: 0xAA, 0xBA
            r[0x17] = 0xAA
            #expect(abs(DRV2605LEquations.clampVolts(registers: r, lraHz: 0) - 3.344) < 0.001)
            let drv2605Step = 5.44 / 255 * (4.8 - 0.3) / (4.8 + 0.075 + 0.075)
            let tiClamps: [(Double, Int)] = [
                (1.3, 0x43), (1.5, 0x4D), (1.8, 0x5D), (2.0, 0x67), (2.5, 0x81), (2.7, 0x8B), (3.0, 0x9B), (3.3, 0xAA),
                (3.6, 0xBA),
            ]
            for (volts, code) in tiClamps {
                #expect(Int((volts / drv2605Step).rounded()) == code, "TI's Voltage_ERM_OD_CL for \(volts) V")
            }
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
            r[0x1C] = UInt8(d["DRV_CONTROL2"] ?? 0)
            r[0x1D] = 0x88
            let k =
                DRV2605LEquations.clampVolts(registers: r, lraHz: lra.resonanceHz)
                / DRV2605LEquations.fullScaleVolts(registers: r, lraHz: lra.resonanceHz)
            let kickMs = lra.timeConstant * 1_000 * log(k / (k - 1))
            #expect(Int(kickMs.rounded()) == profile.edges.kickMs, "the chip overdrives at k = \(k): \(kickMs) ms")
            #expect(profile.edges.brakeRatio <= k + 0.01)
        }
    }
#endif
