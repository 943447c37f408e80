// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import HapticTransport
    import FirmwareModel
    import Foundation
    import HapticCompiler
    import HapticPattern
    import TestSupport
    import Testing

    /// PWMLimitTests' sweep on the Arduino library's PWM stages (HapticERM, HapticHBridge): every
    /// corpus pattern compiled for every LRA and ERM profile, at every supply of the bare-metal sweep,
    /// through the library's own HapticMotor.cpp (compiled for this host against the stand-in Arduino
    /// API, stand-in/pwm_stage_probe.cpp). At the highest the declared supply may be
    /// (hb_drive_cap.h), no tick drives an ERM past its rated voltage (the library's stages do not
    /// kick) nor brakes it past its overdrive voltage, the two inputs of the bridge are never driven at
    /// once, and an LRA gets nothing at all: begin() fails with 76 UNSUPPORTED and every duty stays 0,
    /// so its coil never carries DC. The caps are the bare-metal stage's, one definition
    /// (PWMStageSettings mirrors it).
    @Suite struct ArduinoLibraryPWMLimitTests {
        static let probe: Result<String, Error> = Result {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hb-pwm-probe-\(getpid())")
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            func run(_ executable: String, _ arguments: [String]) throws {
                let output = try runProcess(executable: executable, arguments: arguments)
                guard output.status == 0 else {
                    throw ProbeBuildFailure(log: String(decoding: output.stdout + output.stderr, as: UTF8.self))
                }
            }
            let zip = directory.appendingPathComponent("HapticBridge.zip").path
            try run(Repository.url("tools/arduino-library").path, ["--zip", zip])
            try run("/usr/bin/unzip", ["-q", "-o", zip, "-d", directory.path])
            let standIn = Repository.url("hardware/arduino/stand-in").path
            let library = directory.appendingPathComponent("HapticBridge/src").path
            let binary = directory.appendingPathComponent("pwm_stage_probe").path
            try run(
                "/usr/bin/c++",
                [
                    "-std=gnu++11", "-O1", "-Wall", "-Wextra", "-Werror", "-I\(standIn)", "-I\(library)", "-o", binary,
                    "\(standIn)/pwm_stage_probe.cpp", "\(library)/HapticMotor.cpp",
                ])
            return binary
        }

        struct ProbeBuildFailure: Error, CustomStringConvertible {
            var log: String
            var description: String { "building stand-in/pwm_stage_probe.cpp failed:\n\(log)" }
        }

        /// Runs the probe over `plays` (each begun afresh); returns each play's begin line and duties.
        static func drive(stage: String, profile: PWMStageSettings, plays: [[OutputSample]]) throws -> [(begin: [Int], duties: [(Int, Int)])] {
            var input = ""
            for samples in plays {
                input += "begin\n"
                for s in samples { input += "\(s.amplitude) \(s.sharpness) \(s.flags)\n" }
            }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("hb-pwm-probe-input-\(getpid())").path
            try input.write(toFile: path, atomically: true, encoding: .utf8)
            let output = try runProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c",
                    "'\(try probe.get())' \(stage) \(profile.kind == .lra ? "lra" : "erm") \(profile.ratedMillivolts) \(profile.overdriveMillivolts) \(profile.supplyMillivolts) < '\(path)'",
                ])
            #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
            var result: [(begin: [Int], duties: [(Int, Int)])] = []
            for line in String(decoding: output.stdout, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.first == "begin" {
                    result.append((fields.dropFirst().compactMap { Int($0) }, []))
                } else if fields.count == 2, let f = Int(fields[0]), let r = Int(fields[1]), !result.isEmpty {
                    result[result.count - 1].duties.append((f, r))
                }
            }
            return result
        }

        @Test(arguments: PWMLimitTests.profiles.map(\.name))
        func corpusNeverExceedsTheProfileLimitsOnTheLibrarysStages(profileName: String) throws {
            let profile = try #require(ActuatorProfile.builtIns.first { $0.name == profileName })
            var plays: [[OutputSample]] = []
            for file in Corpus.names() {
                let pattern = try AHAPDecoder().decode(contentsOfFile: Corpus.directory.appendingPathComponent(file).path).pattern
                let program = try PatternCompiler.compile(pattern, profile: profile).bytes
                let total = (10..<14).reversed().reduce(0) { $0 << 8 | Int(program[$1]) }
                plays.append(try #require(ReferenceInterpreter.swiftModel(program, ticks: total + 30)))
            }
            var ticks = 0, worst = 0.0
            for supply in PWMLimitTests.supplies {
                let settings = try PWMStageSettings(profile: profile, supplyMillivolts: supply)
                let highest = Double(settings.supplyMaximumMillivolts) / 1_000
                for stage in ["erm", "hbridge"] {
                    let runs = try Self.drive(stage: stage, profile: settings, plays: plays)
                    #expect(runs.count == plays.count, "\(profileName) \(stage) at \(supply) mV")
                    var violations = 0
                    func report(_ text: String) {
                        violations += 1
                        if violations <= 3 { Issue.record("\(profileName), \(stage) at \(supply) mV: \(text)") }
                    }
                    for (run, samples) in zip(runs, plays) {
                        if settings.kind == .lra {
                            // refused: begin() false, 76 UNSUPPORTED, nothing driven
                            if run.begin != [0, 76, 0, 0] { report("an LRA was accepted: \(run.begin)") }
                            if run.duties.contains(where: { $0 != (0, 0) }) { report("an LRA was driven") }
                            ticks += run.duties.count
                            continue
                        }
                        // the bare-metal caps, one definition
                        if run.begin != [1, 0, Int(settings.ratedDuty), Int(settings.overdriveDuty)] {
                            report("begin \(run.begin), bare-metal caps \(settings.ratedDuty) / \(settings.overdriveDuty)")
                        }
                        for (tick, (forward, reverse)) in run.duties.enumerated() {
                            ticks += 1
                            if forward != 0 && reverse != 0 { report("tick \(tick): both inputs driven") }
                            let braking = samples[tick].isBraking
                            let volts = Double(max(forward, reverse)) / 255 * highest
                            let allowed = Double(braking ? settings.overdriveMillivolts : settings.ratedMillivolts) / 1_000
                            worst = max(worst, volts / allowed)
                            if volts > allowed + 1e-9 { report("tick \(tick): \(volts) V, allowed \(allowed) V") }
                            if reverse != 0 && (stage == "erm" || !braking) { report("tick \(tick): reverse drive \(reverse) outside a brake") }
                        }
                    }
                    #expect(violations == 0, "\(profileName), \(stage) at \(supply) mV")
                }
            }
            print(
                "REPORT Arduino PWM stages, \(profileName): \(plays.count) corpus files x \(PWMLimitTests.supplies.count) supplies x 2 stages, \(ticks) ticks checked; worst tick at \(String(format: "%.1f", 100 * worst)) % of its limit at the highest supply\(profile.kind == .lra ? " (an LRA: refused, nothing driven)" : "")"
            )
        }
    }
#endif
