import TestSupport
import Testing

@testable import HapticPattern

/// No input crashes or hangs the decoder: each one either loads or fails with a one-line `AHAPError`
/// that names a line and column (syntax) or a JSON path (content). What loads re-encodes to a fixed point.
@Suite struct MalformedInputTests {
    /// Decodes in both modes and checks the outcome's invariants; returns the lenient outcome.
    @discardableResult
    private func decodeChecked(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Result<AHAPDocument, AHAPError> {
        var lenientResult: Result<AHAPDocument, AHAPError>?
        for mode in AHAPMode.allCases {
            let result = Result { () throws(AHAPError) -> AHAPDocument in try AHAPDecoder(mode: mode).decode(bytes, file: "f.ahap") }
            switch result {
            case .failure(let error):
                let line = error.description
                #expect(!line.contains("\n") && !line.contains("\r"), "multi-line error: \(line)", sourceLocation: sourceLocation)
                #expect(line.hasPrefix("f.ahap"), sourceLocation: sourceLocation)
                #expect(error.path != nil || (error.line != nil && error.column != nil), sourceLocation: sourceLocation)
                #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
            case .success(let document):
                // What loaded is canonical: encoding and decoding again changes nothing.
                let again = try? AHAPDecoder(mode: mode).decode(AHAPEncoder(minified: true).encode(document.pattern))
                #expect(again?.pattern == document.pattern, sourceLocation: sourceLocation)
            }
            if mode == .lenient { lenientResult = result }
        }
        return lenientResult!
    }

    private func boing() throws -> [UInt8] {
        try AHAPDecoder.readFile(AHAPCorpus.path("apple__unityplugins__Boing.ahap"))
    }

    @Test func everyTruncationOfARealFileFailsCleanly() throws {
        let bytes = try boing()
        let lastBrace = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        for length in 0...bytes.count {
            let result = decodeChecked(Array(bytes[0..<length]))
            if length <= lastBrace {
                guard case .failure(let error) = result else {
                    Issue.record("prefix of \(length) bytes loaded")
                    continue
                }
                #expect(error.line != nil && error.path == nil, "\(length): \(error)")
            } else {
                #expect((try? result.get()) != nil, "full object of \(length) bytes failed")
            }
        }
    }

    @Test func truncationErrorsPointAtTheEnd() throws {
        let bytes = try boing()
        let result = decodeChecked(Array(bytes[0..<100]))
        guard case .failure(let error) = result else {
            Issue.record("a 100-byte prefix loaded")
            return
        }
        let end = JSONTree.lineColumn(in: Array(bytes[0..<100]), atOffset: 100)
        #expect(error.line == end.line && error.column == end.column)
        #expect(error.message.hasPrefix("unexpected end of input"))
    }

    /// Every value of a real file replaced by a value of each other JSON type.
    @Test func wrongTypesAtEveryLevel() throws {
        let tree = try JSONParser.parse(try boing(), options: .init(allowTrailingCommas: false))
        let document = tree.value(at: tree.root)
        let replacements: [JSONValue] = [.null, .bool(true), .number(2), .string("x"), .array([]), .object([:])]
        var failures = 0
        var cases = 0
        for path in Self.paths(in: document) {
            for replacement in replacements {
                let mutated = Self.replacing(path, in: document, with: replacement)
                guard mutated != document else { continue }
                var writer = JSONWriter(pretty: false)
                writer.value(mutated)
                cases += 1
                if case .failure = decodeChecked(writer.bytes) { failures += 1 }
            }
        }
        #expect(cases > 300)
        #expect(failures > cases / 2)
    }

    @Test(arguments: [
        (
            #"{"Pattern": [{"Event": {"Time": 1e400, "EventType": "HapticTransient"}}]}"#,
            "f.ahap:1:33: number 1e400 is out of the range of a 64-bit float"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": -1e999, "EventType": "HapticTransient"}}]}"#,
            "f.ahap:1:33: number -1e999 is out of the range of a 64-bit float"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": NaN}]}}]}"#,
            "f.ahap:1:141: NaN is not a valid JSON number (JSON has no NaN or Infinity)"
        ),
        (
            #"{"Pattern": [{"Event": {"Time": Infinity, "EventType": "HapticTransient"}}]}"#,
            "f.ahap:1:33: Infinity is not a valid JSON number (JSON has no NaN or Infinity)"
        ),
        (#"{"Metadata": {"x": -Infinity}, "Pattern": []}"#, "f.ahap:1:20: -Infinity is not a valid JSON number (JSON has no NaN or Infinity)"),
    ])
    func nonFiniteNumbersAreSyntaxErrors(_ text: String, _ message: String) {
        let result = decodeChecked(Array(text.utf8))
        #expect(result.failureDescription == message)
    }

    @Test func hugeButFiniteNumbersLoadOrFailCleanly() throws {
        let digits = "1" + String(repeating: "0", count: 100_000)
        let long = decodeChecked(Array(#"{"Pattern": [], "Metadata": {"n": \#(digits)}}"#.utf8))
        #expect(long.failureDescription?.hasSuffix("is out of the range of a 64-bit float") == true)
        let tiny = try decodeChecked(
            Array(
                #"{"Version": 1, "Pattern": [{"Event": {"Time": 1e-400, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 123456789012345678901234567890}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}]}"#
                    .utf8)
        ).get()
        #expect(tiny.pattern.events[0].time == 0)
        #expect(tiny.pattern.events[0].parameters[.hapticIntensity] == 1)
        let far = try decodeChecked(
            Array(
                #"{"Version": 1, "Pattern": [{"Event": {"Time": 1.7e308, "EventType": "HapticContinuous", "EventDuration": 31, "EventParameters": []}}]}"#
                    .utf8)
        ).get()
        #expect(far.pattern.events.count == 2)
        let endless = decodeChecked(Array(#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1.7e308}}]}"#.utf8))
        #expect(endless.failureDescription?.contains("would add more than 1000000 events") == true)
    }

    @Test func deepNestingFailsAtTheLimit() {
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(decodeChecked(brackets).failureDescription == "f.ahap:1:65: nesting deeper than 64 levels")
        let metadata = #"{"Pattern": [], "Metadata": {"a": "# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}}"
        #expect(decodeChecked(Array(metadata.utf8)).failureDescription == "f.ahap:1:97: nesting deeper than 64 levels")
        let allowed =
            #"{"Version": 1, "Pattern": [], "Metadata": {"a": "# + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "}}"
        #expect((try? decodeChecked(Array(allowed.utf8)).get()) != nil)
    }

    @Test(arguments: ["", " ", "\u{FEFF}", "null", "\"Pattern\"", "[]", "{", "}", "{\"Pattern\"}", "{\"Pattern\": [}", "\u{0}"])
    func degenerateInputsFailCleanly(_ text: String) {
        #expect(decodeChecked(Array(text.utf8)).failureDescription != nil)
    }

    /// Seeded random byte strings: fully random, and from an alphabet of JSON and AHAP fragments so
    /// that they reach deep into the decoder.
    @Test func randomBytesNeverCrash() {
        var random = SeededGenerator(seed: 0xBAD5EED)
        let fragments = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "0", "1.5", "-", "e9", " ", "\n", "true", "null",
            "\"Pattern\"", "\"Event\"", "\"Time\"", "\"EventType\"", "\"HapticTransient\"", "\"HapticContinuous\"",
            "\"EventDuration\"", "\"EventParameters\"", "\"ParameterID\"", "\"ParameterValue\"", "\"HapticIntensity\"",
            "\"ParameterCurve\"", "\"ParameterCurveControlPoints\"", "\"HapticIntensityControl\"", "\\u", "\\ud83d", "\u{FF}",
        ]
        for _ in 0..<1500 {
            var bytes: [UInt8] = []
            if Bool.random(using: &random) {
                for _ in 0..<Int.random(in: 0...64, using: &random) { bytes.append(UInt8.random(in: 0...255, using: &random)) }
            } else {
                for _ in 0..<Int.random(in: 0...60, using: &random) {
                    bytes += Array(fragments.randomElement(using: &random)!.utf8)
                }
            }
            decodeChecked(bytes)
        }
    }

    /// Seeded mutations of a real file (byte changes, insertions, deletions): mostly near-valid input.
    @Test func mutatedRealFilesNeverCrash() throws {
        let original = try boing()
        var random = SeededGenerator(seed: 42)
        let alphabet = Array("{}[],:\"\\-+.0123456789eEtfn \n".utf8)
        var loaded = 0
        for _ in 0..<800 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                let byte = Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
            }
            if case .success = decodeChecked(bytes) { loaded += 1 }
        }
        // Some mutations land in whitespace or strings and still load; most do not.
        #expect(loaded > 0 && loaded < 800)
    }

    // MARK: Helpers

    private enum Step: Hashable {
        case key(String)
        case index(Int)
    }

    /// Paths to every value of a JSON document, the root included.
    private static func paths(in value: JSONValue, prefix: [Step] = []) -> [[Step]] {
        var result = [prefix]
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() { result += paths(in: element, prefix: prefix + [.index(index)]) }
        case .object(let members):
            for (key, member) in members { result += paths(in: member, prefix: prefix + [.key(key)]) }
        default:
            break
        }
        return result
    }

    private static func replacing(_ path: [Step], in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let step = path.first else { return replacement }
        let rest = Array(path.dropFirst())
        switch (step, value) {
        case (.index(let index), .array(var elements)):
            elements[index] = replacing(rest, in: elements[index], with: replacement)
            return .array(elements)
        case (.key(let key), .object(var members)):
            members[key] = replacing(rest, in: members[key]!, with: replacement)
            return .object(members)
        default:
            return value
        }
    }
}

extension Result where Failure == AHAPError {
    /// The one-line error, or nil on success.
    var failureDescription: String? {
        if case .failure(let error) = self { return error.description }
        return nil
    }
}
