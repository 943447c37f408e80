// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import Foundation
    import HapticCompiler
    import HapticPattern
    import TestSupport
    import Testing

    /// The PWM stage never drives an actuator past its profile (hardware/README.md, "PWM drive
    /// synthesis"): every corpus pattern, compiled for every profile the stage can drive, played
    /// through the Swift model of the synthesis (which CorpusEquivalenceTests and SelfTestFirmwareTests
    /// hold equal to the board, update for update), at several bridge supplies:
    /// - over any carrier period the drive's RMS (an LRA's square wave) or mean (an ERM) stays at or
    ///   under the profile's overdrive voltage, and at or under its rated voltage unless the period
    ///   lies within a kick (kickMs after an onset) or a brake (brakeMs after a fall);
    /// - an LRA's coil is left with no net DC: every burst of drive sums to zero.
    @Suite struct PWMLimitTests {
        /// The profiles the PWM stage drives (every LRA and ERM); a voice coil needs an amplifier.
        static let profiles = ActuatorProfile.builtIns.filter { $0.kind == .lra || $0.kind == .erm }
        static let supplies = [5_000, 3_300, 9_000]

        struct Limits {
            var worstRatio = 0.0  // worst period RMS / allowed voltage
            var bursts = 0
            var periods = 0
            var largestNet = 0  // the most DC a burst carried at any update, in duty-updates
        }

        /// Checks one play; returns the number of violations (recorded as issues, the first few).
        static func check(_ samples: [OutputSample], settings: PWMStageSettings, name: String, limits: inout Limits) -> Int {
            var synthesis = PWMSynthesis(settings: settings)
            var updates: [Int] = []  // signed duty per update
            var edgeWindow: [Bool] = []  // per update: inside a kick or brake window
            var sinceOnset = Int.max, sinceFall = Int.max, previous: UInt8 = 0
            for sample in samples {
                let a = sample.isBraking ? 0 : sample.amplitude
                if a != 0 && previous == 0 { sinceOnset = 0 }
                if a == 0 && previous != 0 { sinceFall = 0 }
                previous = a
                let inEdge = sinceOnset < settings.kickMs || sinceFall < settings.brakeMs
                sinceOnset = sinceOnset == Int.max ? sinceOnset : sinceOnset + 1
                sinceFall = sinceFall == Int.max ? sinceFall : sinceFall + 1
                for u in synthesis.tick(sample) {
                    updates.append(u.signedDuty)
                    edgeWindow.append(inEdge)
                }
            }
            // at the highest the declared supply may be (hb_drive_cap.h): what the caps are for
            let supply = Double(settings.supplyMaximumMillivolts) / 1_000
            let rated = Double(settings.ratedMillivolts) / 1_000
            let overdrive = Double(settings.overdriveMillivolts) / 1_000
            // One carrier period in updates at the slowest drive frequency (an ERM: one tick).
            let period = settings.kind == .lra ? Int((8_000 / Double(min(settings.minimumHz, settings.resonanceHz))).rounded(.up)) : 1
            var violations = 0
            func report(_ text: String) {
                violations += 1
                if violations <= 3 { Issue.record("\(name): \(text)") }
            }
            if updates.count >= period {
                var sumSquares = 0.0, sum = 0.0, edges = 0
                for i in 0..<updates.count {
                    let v = Double(updates[i]) / 255 * supply
                    sumSquares += v * v
                    sum += v
                    if edgeWindow[i] { edges += 1 }
                    if i >= period {
                        let old = Double(updates[i - period]) / 255 * supply
                        sumSquares -= old * old
                        sum -= old
                        if edgeWindow[i - period] { edges -= 1 }
                    }
                    guard i >= period - 1 else { continue }
                    let level = settings.kind == .lra ? (max(0, sumSquares) / Double(period)).squareRoot() : abs(sum / Double(period))
                    let allowed = edges == 0 ? rated : overdrive
                    limits.periods += 1
                    limits.worstRatio = max(limits.worstRatio, level / allowed)
                    if level > allowed + 1e-9 {
                        report(
                            "update \(i): \(String(format: "%.3f", level)) V over a carrier period, allowed \(allowed) V (\(edges == 0 ? "rated" : "kick or brake"))"
                        )
                    }
                }
            }
            if settings.kind == .lra {
                var net = 0, start = 0
                for (i, d) in updates.enumerated() {
                    limits.largestNet = max(limits.largestNet, abs(net))
                    if abs(net) >= PWMSynthesis.dcLimit + 255 { report("update \(i): \(net) duty-updates of DC, past the stage's bound") }
                    if d == 0 {
                        if net != 0 { report("burst from update \(start) to \(i) leaves \(net) duty-updates of DC") }
                        net = 0
                        start = i + 1
                    } else {
                        if net == 0 { limits.bursts += 1 }
                        net += d
                    }
                }
                if net != 0 { report("the play ends with \(net) duty-updates of DC on the coil") }
            }
            return violations
        }

        @Test(arguments: profiles.map(\.name))
        func corpusNeverExceedsTheProfileLimits(profileName: String) throws {
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == profileName })
            var limits = Limits()
            var files = 0
            for file in Corpus.names() {
                let pattern = try AHAPDecoder().decode(contentsOfFile: Corpus.directory.appendingPathComponent(file).path).pattern
                let program = try PatternCompiler.compile(pattern, profile: profile).bytes
                let total = (10..<14).reversed().reduce(0) { $0 << 8 | Int(program[$1]) }
                // The play, its brake and a tail for the stage's own brake and balance.
                let samples = try #require(ReferenceInterpreter.swiftModel(program, ticks: total + 300))
                for supply in Self.supplies {
                    let settings = try PWMStageSettings(profile: profile, supplyMillivolts: supply)
                    #expect(Self.check(samples, settings: settings, name: "\(file) on \(profileName) at \(supply) mV", limits: &limits) == 0)
                }
                files += 1
            }
            let settings = try PWMStageSettings(profile: profile)
            print(
                "REPORT PWM limits, \(profileName): \(files) corpus files x \(Self.supplies.count) supplies, \(limits.periods) carrier periods, \(limits.bursts) bursts with no net DC (at most \(limits.largestNet) duty-updates of DC within one); worst period at \(String(format: "%.1f", 100 * limits.worstRatio)) % of its limit; caps at 5 V: rated duty \(settings.ratedDuty) (\(String(format: "%.3f", settings.volts(duty: settings.ratedDuty))) V), kick and brake duty \(settings.overdriveDuty) (\(String(format: "%.3f", settings.volts(duty: settings.overdriveDuty))) V)"
            )
            #expect(files == Corpus.names().count)
        }

        /// The stage's own edges against the profile: from rest, a full-scale onset kicks at the
        /// overdrive duty until the predicted envelope reaches the steady drive (kickMs from rest, the
        /// profile's closed form), and a fall brakes for brakeMs (edge strength 1).
        @Test(arguments: profiles.filter { $0.sharpness.isFrequency }.map(\.name))
        func kickAndBrakeFollowTheProfile(profileName: String) throws {
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == profileName })
            let settings = try PWMStageSettings(profile: profile)
            var synthesis = PWMSynthesis(settings: settings)
            let on = OutputSample(amplitude: 255, sharpness: 128, flags: 0)
            var kickTicks = 0
            for _ in 0..<300 where synthesis.tick(on).contains(where: { abs($0.signedDuty) == Int(settings.overdriveDuty) }) {
                kickTicks += 1
            }
            #expect(abs(kickTicks - profile.edges.kickMs) <= 1, "kick \(kickTicks) ticks, profile \(profile.edges.kickMs) ms")
            var brakeTicks = 0
            for _ in 0..<100 {
                let tick = synthesis.tick(.silent)
                if synthesis.net == 0 && tick.allSatisfy({ $0.signedDuty == 0 }) { break }
                brakeTicks += 1
            }
            // The brake, then the balance of what DC the last half-waves left: at most a half period
            // of drive and one of brake, paid back at the rated duty.
            let halfPeriod = 4_000 / min(settings.minimumHz, settings.resonanceHz) + 1
            let balanceTicks = (halfPeriod * (Int(settings.ratedDuty) + Int(settings.overdriveDuty))) / (8 * Int(settings.ratedDuty)) + 1
            #expect(
                brakeTicks >= profile.edges.brakeMs && brakeTicks <= profile.edges.brakeMs + balanceTicks,
                "brake and balance \(brakeTicks) ticks, profile brake \(profile.edges.brakeMs) ms")
        }
    }

    extension SharpnessRendering {
        var isFrequency: Bool { if case .frequency = self { true } else { false } }
    }
#endif
