import Foundation
import Testing

@testable import HapticCompiler

struct ProfileLoadingTests {
    @Test func everyShippedFileLoadsByPathAndByName() throws {
        let paths = ProfileFiles.paths
        #expect(paths.count >= 6)
        let loader = ProfileLoader(searchDirectories: [ProfileFiles.directory])
        var kinds: Set<ActuatorKind> = []
        for path in paths {
            let profile = try ProfileLoader.load(contentsOfFile: path)
            #expect(try loader.load(profile.name) == profile)
            #expect(try loader.load(path) == profile)
            kinds.insert(profile.kind)
        }
        #expect(kinds == Set(ActuatorKind.allCases))
        #expect(try loader.load(ActuatorProfile.defaultName).name == ActuatorProfile.defaultName)
    }

    @Test func unknownKeyNamesFileKeyAndSuggestion() throws {
        let error = try ProfileFiles.rejection("lra-235hz-8mm", "\"qualityFactor\": 15", "\"qualityFacor\": 15")
        #expect(error.file == "lra-235hz-8mm.json")
        #expect(error.keyPath == "lra.qualityFacor")
        #expect(error.description.hasPrefix("lra-235hz-8mm.json: lra.qualityFacor: unknown key (did you mean 'qualityFactor'?)"))
    }

    @Test func unknownTopLevelKey() throws {
        let error = try ProfileFiles.rejection("erm-coin-10mm", "\"kind\": \"erm\",", "\"kind\": \"erm\", \"colour\": \"red\",")
        #expect(error.keyPath == "colour")
        #expect(error.message.hasPrefix("unknown key; allowed here: name, kind"))
    }

    @Test func missingRequiredField() throws {
        let error = try ProfileFiles.rejection("lra-235hz-8mm", "\"resonanceHz\": 235,", "")
        #expect(error.description == "lra-235hz-8mm.json: lra.resonanceHz: missing required number")
    }

    /// A type or choice error: (file, text, replacement, key path, message).
    static let typeAndChoiceErrors: [(String, String, String, String, String)] = [
        ("lra-235hz-8mm", "\"closedLoop\": false", "\"closedLoop\": \"no\"", "lra.closedLoop", "expected true or false"),
        (
            "lra-235hz-8mm", "\"curve\": \"power\"", "\"curve\": \"pow\"", "transfer.curve",
            "expected one of power, linear, table; found 'pow' (did you mean 'power'?)"
        ),
        ("lra-235hz-8mm", "\"kickMs\": 26", "\"kickMs\": 25.5", "edges.kickMs", "expected a whole number, found 25.5"),
        ("lra-235hz-8mm", "\"bandHz\": [225, 245]", "\"bandHz\": [245, 225]", "lra.bandHz", "low (245.0) must be below high (225.0)"),
        (
            "lra-235hz-8mm", "\"kind\": \"lra\"", "\"kind\": \"LRA\"", "kind",
            "expected one of lra, erm, voice-coil; found 'LRA' (did you mean 'lra'?)"
        ),
    ]

    @Test(arguments: typeAndChoiceErrors)
    func wrongTypesAndChoices(name: String, old: String, new: String, keyPath: String, message: String) throws {
        let error = try ProfileFiles.rejection(name, old, new)
        #expect(error.keyPath == keyPath)
        #expect(error.message == message)
    }

    /// A physical rule broken: (file, text, replacement, key path of the error).
    static let physicalRules: [(String, String, String, String)] = [
        // A single-switch ERM driver cannot brake.
        ("erm-coin-10mm", "\"brakeMs\": 0,\n    \"brakeRatio\": 0", "\"brakeMs\": 20,\n    \"brakeRatio\": 1.2", "edges.brakeMs"),
        // A closed-loop LRA drives at f0: sharpness cannot be a frequency.
        (
            "lra-drv2605l-170hz-10mm", "\"render\": \"edges\",\n    \"minimumEdge\": 1",
            "\"render\": \"frequency\", \"minHz\": 160, \"maxHz\": 180, \"scale\": \"linear\"", "sharpness.render"
        ),
        // An ERM floor under the minimum running level would stall.
        ("erm-coin-10mm", "\"floor\": 0.65", "\"floor\": 0.3", "transfer.floor"),
        // Floor above running level but no kick to reach the start level.
        ("erm-coin-10mm", "\"floor\": 0.65", "\"floor\": 0.6", "transfer.floor"),
        // Kick without overdrive headroom.
        ("vc-haptuator-mark2d", "\"kickMs\": 0", "\"kickMs\": 5", "edges.kickMs"),
        // Brake stronger than the overdrive ceiling.
        ("lra-235hz-8mm", "\"brakeRatio\": 1.38", "\"brakeRatio\": 2", "edges.brakeRatio"),
        // The band must contain the resonance.
        ("lra-235hz-8mm", "\"bandHz\": [225, 245]", "\"bandHz\": [240, 260]", "lra.bandHz"),
        // Sharpness frequencies must lie in the band.
        ("lra-235hz-8mm", "\"maxHz\": 245", "\"maxHz\": 260", "sharpness.minHz"),
        // A non-monotone table.
        (
            "lra-235hz-8mm", "\"curve\": \"power\",\n    \"exponent\": 2,",
            "\"curve\": \"table\", \"points\": [[0, 0], [0.5, 0.6], [0.7, 0.4], [1, 1]],", "transfer.points"
        ),
        // A section for another kind.
        ("lra-235hz-8mm", "\"edges\": {", "\"erm\": {}, \"edges\": {", "erm"),
        // Name must be usable on a command line.
        ("lra-235hz-8mm", "\"name\": \"lra-235hz-8mm\"", "\"name\": \"LRA 235\"", "name"),
        // A source for a figure that is not there.
        ("lra-235hz-8mm", "\"lra.qualityFactor\": \"Estimated", "\"lra.qualityFacor\": \"Estimated", "sources.lra.qualityFacor"),
    ]

    @Test(arguments: physicalRules)
    func physicalRulesAreChecked(name: String, old: String, new: String, keyPath: String) throws {
        let error = try ProfileFiles.rejection(name, old, new)
        #expect(error.keyPath == keyPath, "\(error)")
    }

    @Test func invalidJSONNamesTheFile() {
        #expect(throws: ProfileError.self) { try ProfileLoader.decode(Array("{\"name\": ".utf8), file: "broken.json") }
        do {
            _ = try ProfileLoader.decode(Array("{\"name\": ".utf8), file: "broken.json")
        } catch {
            #expect(error.description.hasPrefix("broken.json: not valid JSON"))
        }
    }

    @Test func fileNameMustMatchName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("my-lra.json").path
        try ProfileFiles.text("lra-235hz-8mm").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            throws: ProfileError(
                file: path, keyPath: "name",
                message: "'lra-235hz-8mm' does not match the file name 'my-lra': rename one of them")
        ) {
            try ProfileLoader.load(contentsOfFile: path)
        }
    }

    @Test func searchDirectoryFileWinsOverBuiltIn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let edited = try ProfileFiles.text("lra-235hz-8mm").replacingOccurrences(of: "\"qualityFactor\": 15", with: "\"qualityFactor\": 18")
        try edited.write(toFile: directory.appendingPathComponent("lra-235hz-8mm.json").path, atomically: true, encoding: .utf8)
        let profile = try ProfileLoader(searchDirectories: [directory.path]).load("lra-235hz-8mm")
        guard case .lra(let lra) = profile.mechanics else {
            Issue.record("kind")
            return
        }
        #expect(lra.qualityFactor == 18)
        // Without search directories, names resolve to the built-ins.
        #expect(try ProfileLoader(searchDirectories: []).load("lra-235hz-8mm") == ActuatorProfile.builtIns.first { $0.name == "lra-235hz-8mm" })
    }

    @Test func unknownNameListsWhatExists() {
        do {
            _ = try ProfileLoader(searchDirectories: []).load("lra-235hz-8m")
            Issue.record("unknown name accepted")
        } catch {
            #expect(error.message.hasPrefix("no actuator profile named 'lra-235hz-8m' (did you mean 'lra-235hz-8mm'?); available: erm-coin-10mm, "))
        }
    }

    @Test func defaultSearchFindsTheRepositoryFromASubdirectory() {
        let subdirectory = ProfileFiles.directory + "/../../Sources/HapticCompiler"
        let directories = ProfileLoader.defaultSearchDirectories(
            environment: ["HAPTIC_ACTUATORS_PATH": "/a:/b"],
            currentDirectory: subdirectory)
        #expect(directories.count == 3)
        #expect(Array(directories.prefix(2)) == ["/a", "/b"])
        #expect(
            URL(fileURLWithPath: directories[2]).resolvingSymlinksInPath()
                == URL(fileURLWithPath: ProfileFiles.directory).resolvingSymlinksInPath())
    }
}
