import Foundation
import Testing

@testable import HapticPattern

/// `haptic-set/1` reading (docs/channels.md): the issue's example, every error with its JSON path,
/// lenient repairs, relative paths and the canonical round trip.
@Suite struct HapticSetDecoderTests {
    /// A fresh folder holding `files` (name -> text).
    static func folder(_ files: [String: String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hapticset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return url.path
    }

    static let left =
        #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.7}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.4}]}}]}"#

    /// The example of issue 25, as written there.
    static let issueExample = """
        { "format": "haptic-set/1",
          "channels": [
            { "channel": 0, "pattern": "left.ahap", "actuator": "lra-170hz-10mm" },
            { "channel": 1, "pattern": "preset:impact.heavy", "offset": 0.3, "gain": 0.8 },
            { "channel": 0, "board": 1, "pattern": { "Version": 1, "Pattern": [] }, "location": "wrist-left" } ] }
        """

    func decode(_ text: String, mode: AHAPMode = .lenient, folder: String = "/nonexistent") throws(AHAPError) -> HapticSetDocument {
        try HapticSetDecoder(mode: mode).decode(Array(text.utf8), file: "s.json", folder: folder)
    }

    func error(_ text: String, mode: AHAPMode) -> String? {
        do {
            _ = try decode(text, mode: mode)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsTheIssueExampleInBothModes() throws {
        let folder = try Self.folder(["left.ahap": Self.left, "set.json": Self.issueExample])
        for mode in AHAPMode.allCases {
            let document = try HapticSetDecoder(mode: mode).decode(contentsOfFile: folder + "/set.json")
            let set = document.set
            #expect(document.warnings.isEmpty)
            #expect(set.entries.count == 3)
            #expect(set.entries[0].source == .file("left.ahap"))
            #expect(set.entries[0].pattern == (try HapticPattern(contentsOfFile: folder + "/left.ahap")))
            #expect(set.entries[0].actuator == "lra-170hz-10mm")
            #expect(set.entries[1].source == .preset("impact.heavy"))
            #expect(set.entries[1].pattern == Preset.named("impact.heavy")!.pattern)
            #expect(set.entries[1].offset == 0.3 && set.entries[1].gain == 0.8 && set.entries[1].actuator == nil)
            #expect(set.entries[2].source == .inline && set.entries[2].pattern == HapticPattern())
            #expect(set.entries[2].board == 1 && set.entries[2].location == "wrist-left")
            #expect(set.channels.map(\.description) == ["board 0 channel 0", "board 0 channel 1", "board 1 channel 0"])
        }
    }

    /// Relative paths start at the set file's folder, wherever the tool runs; absolute ones stay.
    @Test func resolvesPatternPathsAgainstTheSetsFolder() throws {
        let folder = try Self.folder(["left.ahap": Self.left])
        let inner = folder + "/sets"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let text =
            #"{"format": "haptic-set/1", "channels": [{"channel": 0, "pattern": "../left.ahap"}, {"channel": 1, "pattern": "\#(folder)/left.ahap"}]}"#
        try text.write(toFile: inner + "/set.json", atomically: true, encoding: .utf8)
        let set = try HapticSet(contentsOfFile: inner + "/set.json")
        #expect(set.entries[0].pattern == set.entries[1].pattern)
        #expect(!set.entries[0].pattern.events.isEmpty)
        #expect(HapticSetDecoder.folder(of: "a/b/set.json") == "a/b")
        #expect(HapticSetDecoder.folder(of: "/set.json") == "/")
        #expect(HapticSetDecoder.folder(of: "set.json") == ".")
        #expect(HapticSetDecoder.resolve("x.ahap", in: "a/b") == "a/b/x.ahap")
        #expect(HapticSetDecoder.resolve("/x.ahap", in: "a/b") == "/x.ahap")
    }

    static let entry = #"{"format": "haptic-set/1", "channels": [%@]}"#
    static func set(_ entry: String) -> String { Self.entry.replacingOccurrences(of: "%@", with: entry) }

    /// Errors in both modes: wrong types and values with no safe guess. (input, expected description prefix)
    @Test(arguments: [
        ("[]", "s.json: (root): expected an object, found an array; a haptic set is"),
        (#"{"format": "haptic-set/1"}"#, "s.json: (root): missing key channels"),
        (#"{"format": "haptic-set/1", "channels": {}}"#, "s.json: channels: expected an array, found an object"),
        (#"{"format": "haptic-set/1", "channels": []}"#, "s.json: channels: a set needs at least one entry"),
        (#"{"format": 1, "channels": []}"#, "s.json: format: expected a string, found a number"),
        (#"{"format": "ahap", "channels": []}"#, #"s.json: format: format "ahap" is not a haptic set"#),
        (#"{"format": "haptic-set/1", "name": 3, "channels": []}"#, "s.json: name: expected a string, found a number"),
        (set("1"), "s.json: channels[0]: expected an object, found a number"),
        (set("{}"), "s.json: channels[0]: missing key channel"),
        (set(#"{"channel": 0}"#), "s.json: channels[0]: missing key pattern"),
        (set(#"{"channel": 16, "pattern": "preset:selection"}"#), "s.json: channels[0].channel: 16 is outside 0...15 (PROTOCOL-3.md 3.2"),
        (set(#"{"channel": 0.5, "pattern": "preset:selection"}"#), "s.json: channels[0].channel: 0.5 is not a whole number ("),
        (set(#"{"channel": "0", "pattern": "preset:selection"}"#), "s.json: channels[0].channel: expected a number, found a string"),
        (set(#"{"channel": 0, "board": -1, "pattern": "preset:selection"}"#), "s.json: channels[0].board: -1 is outside 0...255 (a board index)"),
        (set(#"{"channel": 0, "priority": 256, "pattern": "preset:selection"}"#), "s.json: channels[0].priority: 256 is outside 0...255"),
        (set(#"{"channel": 0, "pattern": 3}"#), "s.json: channels[0].pattern: expected a string (an AHAP file or \"preset:NAME\") or an AHAP object"),
        (set(#"{"channel": 0, "pattern": ""}"#), "s.json: channels[0].pattern: empty pattern"),
        (
            set(#"{"channel": 0, "pattern": "preset:impact.hevy"}"#),
            #"s.json: channels[0].pattern: no preset named "impact.hevy" (did you mean impact.light"#
        ),
        (
            set(#"{"channel": 0, "pattern": "gone.ahap"}"#),
            #"s.json: channels[0].pattern: cannot open: No such file or directory: "/nonexistent/gone.ahap""#
        ),
        (set(#"{"channel": 0, "pattern": {"Pattern": {}}}"#), "s.json: channels[0].pattern.Pattern: expected an array, found an object"),
        (set(#"{"channel": 0, "pattern": []}"#), "s.json: channels[0].pattern: expected a string"),
        (
            set(#"{"channel": 0, "pattern": {"Pattern": [{"Event": {"Time": "0", "EventType": "HapticTransient"}}]}}"#),
            "s.json: channels[0].pattern.Pattern[0].Event.Time: expected a number, found a string"
        ),
        (set(#"{"channel": 0, "pattern": "preset:selection", "gain": "1"}"#), "s.json: channels[0].gain: expected a number, found a string"),
        (set(#"{"channel": 0, "pattern": "preset:selection", "offset": 2e6}"#), "s.json: channels[0].offset: offset 2000000.0 s is beyond"),
        (set(#"{"channel": 0, "pattern": "preset:selection", "mix": 1}"#), "s.json: channels[0].mix: expected a string, found a number"),
        (set(#"{"channel": 0, "pattern": "preset:selection", "actuator": ""}"#), "s.json: channels[0].actuator: empty string"),
        (
            set(#"{"channel": 0, "pattern": "preset:selection"}, {"channel": 1, "pattern": "preset:selection", "location": 5}"#),
            "s.json: channels[1].location: expected a string"
        ),
        (
            set(
                #"{"channel": 1, "pattern": "preset:selection", "actuator": "a"}, {"channel": 0, "pattern": "preset:selection", "actuator": "c"}, "#
                    + #"{"channel": 1, "pattern": "preset:selection", "actuator": "b"}"#),
            #"s.json: channels[2].actuator: "b" differs from "a" of channels[0] on board 0 channel 1 (one actuator per channel)"#
        ),
    ])
    func errorsInBothModes(input: String, expected: String) {
        for mode in AHAPMode.allCases {
            let message = error(input, mode: mode)
            #expect(message?.hasPrefix(expected) == true, "\(mode): \(message ?? "no error")")
        }
    }

    /// Strict errors that lenient mode repairs: (input, strict error prefix, lenient warning kind and path).
    @Test(arguments: [
        (
            #"{"channels": [{"channel": 0, "pattern": "preset:selection"}]}"#, "s.json: (root): missing key format", AHAPWarning.Kind.missingKey,
            "(root)"
        ),
        (
            #"{"format": "haptic-set/2", "channels": [{"channel": 0, "pattern": "preset:selection"}]}"#,
            "s.json: format: format \"haptic-set/2\" is not supported", .version, "format"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "gain": 1.5}"#), "s.json: channels[0].gain: 1.5 is outside 0...1", .outOfRange,
            "channels[0].gain"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "duck": -0.5}"#), "s.json: channels[0].duck: -0.5 is outside 0...1", .outOfRange,
            "channels[0].duck"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "offset": -1}"#), "s.json: channels[0].offset: offset -1.0 is negative", .outOfRange,
            "channels[0].offset"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "volume": 1}"#),
            #"s.json: channels[0].volume: unknown key "volume" (keys: name, board"#, .unknownKey, "channels[0].volume"
        ),
        (
            set(#"{"Channel": 0, "pattern": "preset:selection"}"#), #"s.json: channels[0].Channel: unknown key "Channel" (did you mean channel?)"#,
            .nameCase, "channels[0].Channel"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "mix": "MAX"}"#), #"s.json: channels[0].mix: unknown mix "MAX" (did you mean max?)"#,
            .nameCase, "channels[0].mix"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "mix": "add"}"#), #"s.json: channels[0].mix: unknown mix "add" (sum or max)"#,
            .skipped, "channels[0].mix"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "location": "Hand-Left"}"#),
            #"s.json: channels[0].location: unknown location "Hand-Left" (did you mean hand-left?)"#, .nameCase, "channels[0].location"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "location": "elbow"}"#), #"s.json: channels[0].location: unknown location "elbow""#,
            .ignoredValue, "channels[0].location"
        ),
        (
            set(#"{"channel": 0, "pattern": "preset:selection", "gain": null}"#), "s.json: channels[0].gain: expected a number, found null",
            .nullValue, "channels[0].gain"
        ),
        (set(#"{"channel": 0, "pattern": "preset:selection",}"#), "s.json:1:", .trailingComma, "channels[0]"),
        (
            set(#"{"channel": 0, "pattern": {"Pattern": [], "Extra": 1}}"#), #"s.json: channels[0].pattern.Extra: unknown key "Extra""#, .unknownKey,
            "channels[0].pattern.Extra"
        ),
    ])
    func strictErrorsLenientRepairs(input: String, strict: String, kind: AHAPWarning.Kind, path: String) throws {
        let message = error(input, mode: .strict)
        #expect(message?.hasPrefix(strict) == true, "strict: \(message ?? "no error")")
        let warnings = try decode(input).warnings
        #expect(warnings.contains { $0.kind == kind && $0.path == path }, "lenient: \(warnings)")
    }

    @Test func lenientRepairsGiveTheDocumentedValues() throws {
        let text = Self.set(
            #"{"channel": 0, "pattern": "preset:selection", "gain": 1.5, "offset": -2, "mix": "add", "location": "Hand-Left", "channel": 3}"#)
        let document = try decode(text)
        let entry = document.set.entries[0]
        #expect(entry.gain == 1 && entry.offset == 0 && entry.mix == .sum && entry.location == "hand-left" && entry.channel == 3)
        #expect(document.warnings.contains { $0.kind == .duplicateKey && $0.path == "channels[0].channel" })
    }

    /// An AHAP file a set names is read with the set's mode; its errors name that file and the entry.
    @Test func errorsInAPatternFileNameThatFile() throws {
        let folder = try Self.folder(["bad.ahap": #"{"Pattern": {}}"#, "odd.ahap": #"{"Version": 2, "Pattern": []}"#])
        let bad = Self.set(#"{"channel": 0, "pattern": "bad.ahap"}"#)
        do {
            _ = try decode(bad, folder: folder)
            Issue.record("no error")
        } catch {
            #expect(error.description == "\(folder)/bad.ahap: Pattern: expected an array, found an object (named by channels[0].pattern in s.json)")
        }
        let odd = Self.set(#"{"channel": 0, "pattern": "odd.ahap"}"#)
        let warnings = try decode(odd, folder: folder).warnings
        #expect(warnings.map(\.path) == ["channels[0].pattern"])
        #expect(warnings.first?.message.hasPrefix("\(folder)/odd.ahap: Version:") == true)
        #expect(throws: AHAPError.self) { try decode(odd, mode: .strict, folder: folder) }
    }

    @Test func isSetTellsSetsFromAHAP() {
        #expect(HapticSetDecoder.isSet(Array(Self.issueExample.utf8)))
        #expect(!HapticSetDecoder.isSet(Array(Self.left.utf8)))
        #expect(!HapticSetDecoder.isSet(Array("not json".utf8)))
    }

    @Test func theIssueExampleRoundTrips() throws {
        let folder = try Self.folder(["left.ahap": Self.left])
        let set = try decode(Self.issueExample, folder: folder).set
        let bytes = HapticSetEncoder().encode(set)
        #expect(try decode(String(decoding: bytes, as: UTF8.self), mode: .strict, folder: folder).set == set)
        #expect(HapticSetEncoder().encode(try decode(String(decoding: bytes, as: UTF8.self), folder: folder).set) == bytes)
        let minified = String(decoding: HapticSetEncoder(minified: true).encode(set), as: UTF8.self)
        #expect(minified.hasPrefix(#"{"format":"haptic-set/1","channels":[{"channel":0,"pattern":"left.ahap","actuator":"lra-170hz-10mm"},"#))
    }

    @Test func theShippedExampleReadsStrictly() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/sets/two-handles.json").path
        let document = try HapticSetDecoder(mode: .strict).decode(contentsOfFile: path)
        #expect(document.set.entries.count == 3)
        #expect(document.set.channels.count == 2)
        #expect(document.set.entries[0].pattern.events.first?.duration == 1)
    }
}
