import Foundation
import HapticPattern
import Testing

@testable import HapticCompiler

struct ProfileBuiltinsTests {
    @Test func builtInsEqualTheShippedFiles() throws {
        let files = try ProfileFiles.paths.map { try ProfileLoader.load(contentsOfFile: $0) }
        #expect(Set(files.map(\.name)) == Set(ActuatorProfile.builtIns.map(\.name)))
        #expect(ActuatorProfile.builtIns.count == Set(ActuatorProfile.builtIns.map(\.name)).count)
        for file in files {
            let builtIn = try #require(ActuatorProfile.builtIns.first { $0.name == file.name })
            #expect(builtIn == file, "built-in \(file.name) differs from hardware/actuators/\(file.name).json")
        }
        #expect(ActuatorProfile.builtIns.contains { $0.name == ActuatorProfile.defaultName })
    }

    /// The built-ins are compiled from the files' text: ActuatorProfileBuiltins.swift must be what
    /// tools/gen-builtin-profiles writes from hardware/actuators now (with the test above, the two
    /// cannot drift: a file edited without rerunning the script fails here).
    @Test func generatedBuiltInsAreTheFilesNow() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", ProfileFiles.repository + "/tools/gen-builtin-profiles", "--stdout"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let generated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let committed = FileManager.default.contents(atPath: ProfileFiles.repository + "/Sources/HapticCompiler/ActuatorProfileBuiltins.swift")
        #expect(generated == committed, "Sources/HapticCompiler/ActuatorProfileBuiltins.swift is stale: run tools/gen-builtin-profiles")
    }

    /// Every number in a shipped file is a figure, and every figure says where it comes from.
    @Test func everyFigureHasASource() throws {
        for path in ProfileFiles.paths {
            let data = try #require(FileManager.default.contents(atPath: path))
            let document = try JSONDecoder().decode(JSONValue.self, from: data)
            let profile = try ProfileLoader.load(contentsOfFile: path)
            for figure in numericKeyPaths(document) {
                #expect(profile.sources[figure] != nil, "\(path): \(figure) has no entry in sources")
            }
        }
    }

    private func numericKeyPaths(_ value: JSONValue, prefix: String = "") -> [String] {
        guard case .object(let fields) = value else { return [] }
        return fields.flatMap { key, child -> [String] in
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            switch child {
            case .number: return [path]
            case .array(let items) where items.contains(where: { if case .number = $0 { true } else { false } }): return [path]
            case .object: return path == "sources" ? [] : numericKeyPaths(child, prefix: path)
            default: return []
            }
        }
    }

    /// The shipped kick and brake times are the closed forms rounded to whole milliseconds.
    @Test func edgeTimesAreTheDerivedOnes() throws {
        for profile in ActuatorProfile.builtIns {
            let k = profile.drive.overdriveRatio
            let b = profile.edges.brakeRatio
            let tauMs: Double
            var closedLoop = false
            switch profile.mechanics {
            case .lra(let lra):
                tauMs = lra.timeConstant * 1000
                closedLoop = lra.closedLoop
            case .erm(let erm): tauMs = erm.timeConstantMs
            case .voiceCoil:
                #expect(profile.edges == .none)
                continue
            }
            // Time for a first-order envelope (LRA at resonance, ERM speed) driven at k times its
            // target to reach the target: tau ln(k / (k - 1)).
            #expect(profile.edges.kickMs == Int((tauMs * log(k / (k - 1))).rounded()), "\(profile.name) kick")
            guard b > 0 else { continue }
            if closedLoop {
                // Sensing stops the brake at 5 %: the cap must leave room for it, by a tick or two.
                let sensed = tauMs * log((1 + b) / (0.05 + b))
                #expect(Double(profile.edges.brakeMs) >= sensed && Double(profile.edges.brakeMs) <= sensed + 2, "\(profile.name) brake")
            } else {
                // Anti-phase (or reverse) drive at B times the level stops in tau ln((1 + B) / B).
                #expect(profile.edges.brakeMs == Int((tauMs * log((1 + b) / b)).rounded()), "\(profile.name) brake")
            }
        }
    }

    @Test func defaultIsTheClosedLoopDRV2605L() throws {
        let profile = try #require(ActuatorProfile.builtIns.first { $0.name == ActuatorProfile.defaultName })
        guard case .lra(let lra) = profile.mechanics else {
            Issue.record("default is not an LRA")
            return
        }
        #expect(lra.closedLoop)
        #expect(profile.brakeTicks() == 14)
    }
}
