import TestSupport
import Testing

@testable import HapticPattern

/// The JSON parser under the AHAP codec: grammar, positions, numbers, strings, limits.
@Suite struct AHAPJSONParserTests {
    private func parse(_ text: String, lenient: Bool = false) throws(JSONSyntaxError) -> JSONTree {
        try JSONParser.parse(Array(text.utf8), options: .init(allowTrailingCommas: lenient))
    }

    private func syntaxError(_ text: String, lenient: Bool = false) -> JSONSyntaxError? {
        do {
            _ = try parse(text, lenient: lenient)
            return nil
        } catch {
            return error
        }
    }

    @Test func tapeHoldsKindsOffsetsAndSubtreeEnds() throws {
        let tree = try parse(#"{"a": [1, true, null], "b": "x"}"#)
        #expect(tree.nodes.map(\.kind) == [.object, .string, .array, .number, .bool, .null, .string, .string])
        #expect(tree.count(0) == 2)
        #expect(tree.next(after: 0) == 8)
        #expect(tree.next(after: 2) == 6)
        #expect(tree.count(2) == 3)
        #expect(tree.offset(2) == 6)
        #expect(tree.members(0).map { tree.string($0.key) } == ["a", "b"])
        #expect(Array(tree.elements(2)) == [3, 4, 5])
        #expect(tree.string(7) == "x")
    }

    @Test func lineAndColumnOfValues() throws {
        let text = "{\n  \"Pattern\": [\n    {\"é\": 12}\n  ]\n}"
        let tree = try parse(text)
        let number = try #require(tree.nodes.firstIndex { $0.kind == .number })
        let position = tree.lineColumn(atOffset: tree.offset(number))
        // Column counts characters, not bytes: "é" is two bytes in UTF-8.
        #expect(position.line == 3 && position.column == 11)
    }

    @Test func trailingCommasAreRecordedInLenientModeAndRejectedInStrictMode() throws {
        let tree = try parse(#"{"a": [1, 2,], "b": {"c": 1,},}"#, lenient: true)
        let flagged = tree.nodes.indices.filter { tree.hasTrailingComma($0) }
        #expect(flagged.map { tree.kind($0) } == [.object, .array, .object])
        #expect(tree.count(0) == 2 && tree.count(2) == 2)
        let error = try #require(syntaxError(#"{"a": [1, 2,]}"#))
        #expect(error.message == "trailing comma before ']' (not valid in strict JSON)")
        #expect(error.line == 1 && error.column == 12)
        // A comma alone is never a trailing comma.
        #expect(syntaxError("[,]", lenient: true)?.message == "unexpected ',': expected a value")
        #expect(syntaxError("{,}", lenient: true)?.message == "expected a string key, found ','")
        #expect(syntaxError("[1,,2]", lenient: true)?.message == "unexpected ',': expected a value")
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("1", 1.0), ("-12.5e-3", -0.0125), ("1E2", 100.0),
        ("0.1", 0.1), ("0.30000000000000004", 0.30000000000000004), ("5e-324", Double.leastNonzeroMagnitude),
        ("1.7976931348623157e308", 1.7976931348623157e308), ("123456789012345678901234567890", 1.2345678901234568e29),
        ("0.43787878787878787", 0.43787878787878787), ("9007199254740993", 9007199254740992.0),
        ("1e-400", 0.0), ("0.000000000000000000000000000001", 1e-30), ("2.2250738585072011e-308", Double.leastNormalMagnitude.nextDown),
    ])
    func numbersAreCorrectlyRounded(_ text: String, _ expected: Double) throws {
        let tree = try parse(text)
        #expect(tree.number(0).bitPattern == expected.bitPattern)
    }

    /// Every double written in shortest form parses back bit for bit (fast path and fallback alike).
    @Test func shortestFormRoundTripsForRandomDoubles() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let value: Double
            switch random.next() % 4 {
            case 0: value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            case 1: value = Double(random.next() % 1_000_000) / 1000
            case 2: value = Double.random(in: 0...1, using: &random)
            default: value = Double.random(in: -1e6...1e6, using: &random)
            }
            let tree = try parse("[\(value)]")
            #expect(tree.number(1).bitPattern == value.bitPattern, "\(value)")
        }
    }

    @Test(arguments: [
        ("1e400", "number 1e400 is out of the range of a 64-bit float"),
        ("-1e400", "number -1e400 is out of the range of a 64-bit float"),
        ("NaN", "NaN is not a valid JSON number (JSON has no NaN or Infinity)"),
        ("-NaN", "-NaN is not a valid JSON number (JSON has no NaN or Infinity)"),
        ("Infinity", "Infinity is not a valid JSON number (JSON has no NaN or Infinity)"),
        ("-Infinity", "-Infinity is not a valid JSON number (JSON has no NaN or Infinity)"),
        ("+Infinity", "+Infinity is not a valid JSON number (JSON has no NaN or Infinity)"),
        ("+1", "a JSON number cannot start with '+'"),
        ("01", "invalid number: leading zero"),
        ("1.", "invalid number: expected a digit after '.'"),
        (".5", "unexpected '.': expected a value"),
        ("1e", "invalid number: expected a digit in the exponent"),
        ("-", "invalid number: expected a digit, found ']'"),
        ("-x", "invalid number: expected a digit, found 'x'"),
    ])
    func invalidNumbersHaveClearMessages(_ text: String, _ message: String) {
        #expect(syntaxError("[\(text)]")?.message == message)
    }

    @Test func stringEscapesAndSurrogatePairs() throws {
        let tree = try parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u0041", "\ud83d\ude00", "plain é"]"#)
        #expect(tree.string(1) == "a\"b\\c/d\u{8}\u{C}\n\r\t")
        #expect(tree.string(2) == "éA")
        #expect(tree.string(3) == "😀")
        #expect(tree.string(4) == "plain é")
        #expect(tree.stringEquals(2, Array("éA".utf8)))
        #expect(tree.stringEquals(4, Array("PLAIN é".utf8), ignoringCase: true))
    }

    @Test(arguments: [
        (#"["\ud83d"]"#, #"unpaired UTF-16 surrogate \uD83D in a string"#),
        (#"["\ude00"]"#, #"unpaired UTF-16 surrogate \uDE00 in a string"#),
        (#"["\ud83d\u0041"]"#, #"unpaired UTF-16 surrogate \uD83D in a string"#),
        (#"["\u12"]"#, #"invalid \u escape: expected 4 hexadecimal digits"#),
        (#"["\x"]"#, #"invalid escape '\x' in a string"#),
        ("[\"a\nb\"]", "unescaped control character 0x0A in a string"),
        (#"["abc"#, "unexpected end of input inside a string"),
    ])
    func invalidStringsHaveClearMessages(_ text: String, _ message: String) {
        #expect(syntaxError(text)?.message == message)
    }

    @Test func nestingIsLimitedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try parse(deep) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(syntaxError(tooDeep)?.message == "nesting deeper than 64 levels")
        #expect(syntaxError(tooDeep)?.column == 65)
        let huge = String(repeating: "[", count: 100_000)
        #expect(syntaxError(huge)?.message == "nesting deeper than 64 levels")
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(syntaxError(objects)?.message == "nesting deeper than 64 levels")
    }

    @Test(arguments: [
        ("", 1, 1, "unexpected end of input: expected a value"),
        ("   ", 1, 4, "unexpected end of input: expected a value"),
        ("{\"a\" 1}", 1, 6, "expected ':' after an object key, found '1'"),
        ("{\"a\": 1\n \"b\": 2}", 2, 2, "expected ',' or '}', found '\"'"),
        ("[1 2]", 1, 4, "expected ',' or ']', found '2'"),
        ("[1}", 1, 3, "expected ',' or ']', found '}'"),
        ("{} x", 1, 4, "unexpected 'x' after the JSON value"),
        ("[tru]", 1, 2, "invalid literal (expected 'true')"),
        ("{1: 2}", 1, 2, "expected a string key, found '1'"),
        ("[\u{1}]", 1, 2, "unexpected byte 0x01: expected a value"),
        ("{\"a\": [1, 2", 1, 12, "unexpected end of input: expected ',' or ']'"),
    ])
    func syntaxErrorsReportLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        let error = syntaxError(text)
        #expect(error?.message == message)
        #expect(error?.line == line)
        #expect(error?.column == column)
    }

    @Test func truncatedNumberAtEndOfInput() {
        #expect(syntaxError("-")?.message == "unexpected end of input inside a number")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let tree = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), options: .init(allowTrailingCommas: false))
        #expect(tree.number(1) == 1)
    }

    @Test func invalidUTF8InStringsIsReplacedNotFatal() throws {
        let tree = try JSONParser.parse(Array("[\"a".utf8) + [0xFF] + Array("b\"]".utf8), options: .init(allowTrailingCommas: false))
        #expect(tree.string(1) == "a\u{FFFD}b")
    }
}
