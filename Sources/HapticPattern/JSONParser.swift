/// RFC 8259 JSON parser that builds a `JSONTree` (positions kept for every value).
///
/// Why our own: Foundation's JSONSerialization rejects the trailing commas real AHAP files contain
/// (Apple's own samples), reports no positions, and recurses without a depth limit.
/// Properties the AHAP codec relies on:
/// - iterative (explicit stack), nesting limited to `maxDepth` (64 by default): no input can overflow the stack;
/// - numbers are converted exactly (correctly rounded), so every Double written by the encoder
///   comes back bit for bit; numbers too large for a Double (1e400) are errors, as are NaN and Infinity;
/// - one pass over the bytes, no per-value allocation except for the tape itself.
struct JSONParser {
    struct Options: Sendable {
        /// Accept `[1, 2,]` and `{"a": 1,}` (the container node records it, so callers can warn).
        var allowTrailingCommas: Bool
        var maxDepth: Int = JSONParser.defaultMaxDepth
    }

    static let defaultMaxDepth = 64

    static func parse(_ bytes: [UInt8], options: Options) throws(JSONSyntaxError) -> JSONTree {
        guard bytes.count < Int(UInt32.max) else {
            throw JSONSyntaxError(offset: 0, line: 1, column: 1, message: "input larger than 4 GiB")
        }
        // Rough guess from AHAP files: one value per 6-8 bytes; avoids repeated regrowth of the tape.
        var nodes: [JSONTree.Node] = []
        nodes.reserveCapacity(bytes.count / 8 + 16)
        let failure = bytes.withUnsafeBufferPointer { buffer -> JSONSyntaxError? in
            var scanner = Scanner(bytes: buffer, options: options)
            do throws(JSONSyntaxError) {
                try scanner.run(into: &nodes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return JSONTree(bytes: bytes, nodes: nodes)
    }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let options: JSONParser.Options
    var i = 0

    init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParser.Options) {
        self.bytes = bytes
        self.options = options
    }

    var end: Int { bytes.count }

    private enum State { case value, key, afterValue }

    mutating func run(into nodes: inout [JSONTree.Node]) throws(JSONSyntaxError) {
        // A UTF-8 byte order mark is allowed by RFC 8259 section 8.1 to be ignored.
        if end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        var open: [Int] = []  // node indices of the containers being filled
        var counts: [UInt64] = []  // their child counts so far
        var state = State.value
        skipWhitespace()
        while true {
            switch state {
            case .value:
                guard i < end else { throw fail("unexpected end of input: expected a value", at: i) }
                let byte = bytes[i]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard open.count < options.maxDepth else {
                        throw fail("nesting deeper than \(options.maxDepth) levels", at: i)
                    }
                    let isObject = byte == UInt8(ascii: "{")
                    nodes.append(.init(kind: isObject ? .object : .array, flags: 0, offset: UInt32(i), payload: 0))
                    open.append(nodes.count - 1)
                    counts.append(0)
                    i += 1
                    skipWhitespace()
                    if i < end && bytes[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        close(&nodes, &open, &counts)
                        state = .afterValue
                    } else {
                        counts[counts.count - 1] += 1
                        state = isObject ? .key : .value
                    }
                } else {
                    try scanScalar(into: &nodes)
                    state = .afterValue
                }
            case .key:
                guard i < end else { throw fail("unexpected end of input: expected a string key", at: i) }
                guard bytes[i] == quote else { throw fail("expected a string key, found \(describe(bytes[i]))", at: i) }
                try scanString(into: &nodes)
                skipWhitespace()
                guard i < end else { throw fail("unexpected end of input: expected ':'", at: i) }
                guard bytes[i] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after an object key, found \(describe(bytes[i]))", at: i)
                }
                i += 1
                skipWhitespace()
                state = .value
            case .afterValue:
                guard let top = open.last else {
                    skipWhitespace()
                    guard i == end else { throw fail("unexpected \(describe(bytes[i])) after the JSON value", at: i) }
                    return
                }
                let isObject = nodes[top].kind == .object
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                skipWhitespace()
                guard i < end else {
                    throw fail("unexpected end of input: expected ',' or '\(Character(Unicode.Scalar(closer)))'", at: i)
                }
                let byte = bytes[i]
                if byte == UInt8(ascii: ",") {
                    let comma = i
                    i += 1
                    skipWhitespace()
                    if i < end && bytes[i] == closer {
                        guard options.allowTrailingCommas else {
                            throw fail("trailing comma before '\(Character(Unicode.Scalar(closer)))' (not valid in strict JSON)", at: comma)
                        }
                        nodes[top].flags |= JSONTree.trailingComma
                        close(&nodes, &open, &counts)
                    } else {
                        counts[counts.count - 1] += 1
                        state = isObject ? .key : .value
                    }
                } else if byte == closer {
                    close(&nodes, &open, &counts)
                } else {
                    throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))', found \(describe(byte))", at: i)
                }
            }
        }
    }

    /// Ends the innermost container at `i` (its closing bracket).
    private mutating func close(_ nodes: inout [JSONTree.Node], _ open: inout [Int], _ counts: inout [UInt64]) {
        let top = open.removeLast()
        let count = counts.removeLast()
        nodes[top].payload = UInt64(nodes.count) | count << 32
        i += 1
    }

    private mutating func skipWhitespace() {
        while i < end {
            let byte = bytes[i]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            i += 1
        }
    }

    private mutating func scanScalar(into nodes: inout [JSONTree.Node]) throws(JSONSyntaxError) {
        let byte = bytes[i]
        switch byte {
        case quote:
            try scanString(into: &nodes)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try scanNumber(into: &nodes)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            nodes.append(.init(kind: .bool, flags: 0, offset: UInt32(i - 4), payload: 1))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            nodes.append(.init(kind: .bool, flags: 0, offset: UInt32(i - 5), payload: 0))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            nodes.append(.init(kind: .null, flags: 0, offset: UInt32(i - 4), payload: 0))
        case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "+"):
            try rejectNonJSONNumber()
        default:
            throw fail("unexpected \(describe(byte)): expected a value", at: i)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = i
        let count = literal.utf8CodeUnitCount
        let base = literal.utf8Start
        guard i + count <= end, (0..<count).allSatisfy({ bytes[start + $0] == base[$0] }) else {
            throw fail("invalid literal (expected '\(literal)')", at: start)
        }
        i += count
    }

    /// NaN, Infinity and +numbers are not JSON; say so clearly rather than "unexpected 'N'".
    private func rejectNonJSONNumber() throws(JSONSyntaxError) {
        var j = i
        var sign = ""
        if j < end && (bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-")) {
            sign = bytes[j] == UInt8(ascii: "+") ? "+" : "-"
            j += 1
        }
        for word in ["NaN", "Infinity", "inf", "nan"] where hasPrefix(word, at: j) {
            throw fail("\(sign)\(word) is not a valid JSON number (JSON has no NaN or Infinity)", at: i)
        }
        if sign == "+" { throw fail("a JSON number cannot start with '+'", at: i) }
        throw fail("unexpected \(describe(bytes[i])): expected a value", at: i)
    }

    private func hasPrefix(_ word: String, at j: Int) -> Bool {
        let utf8 = Array(word.utf8)
        guard j + utf8.count <= end else { return false }
        return (0..<utf8.count).allSatisfy { bytes[j + $0] == utf8[$0] }
    }

    private mutating func scanString(into nodes: inout [JSONTree.Node]) throws(JSONSyntaxError) {
        let start = i
        i += 1
        var flags: UInt8 = 0
        while true {
            guard i < end else { throw fail("unexpected end of input inside a string", at: i) }
            let byte = bytes[i]
            if byte == quote { break }
            if byte == backslash {
                flags = JSONTree.hasEscapes
                try scanEscape()
                continue
            }
            if byte < 0x20 {
                throw fail("unescaped control character \(hexByte(byte)) in a string", at: i)
            }
            i += 1
        }
        nodes.append(.init(kind: .string, flags: flags, offset: UInt32(start), payload: UInt64(i - start - 1)))
        i += 1
    }

    private mutating func scanEscape() throws(JSONSyntaxError) {
        guard i + 1 < end else { throw fail("unexpected end of input inside a string", at: end) }
        let escape = bytes[i + 1]
        switch escape {
        case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
        case UInt8(ascii: "u"):
            let at = i
            let unit = try hex4(at: i + 2)
            i += 6
            if unit >= 0xDC00 && unit < 0xE000 {
                throw fail("unpaired UTF-16 surrogate \\u\(hex(unit)) in a string", at: at)
            }
            if unit >= 0xD800 && unit < 0xDC00 {
                guard i + 1 < end, bytes[i] == backslash, bytes[i + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired UTF-16 surrogate \\u\(hex(unit)) in a string", at: at)
                }
                let low = try hex4(at: i + 2)
                guard low >= 0xDC00 && low < 0xE000 else {
                    throw fail("unpaired UTF-16 surrogate \\u\(hex(unit)) in a string", at: at)
                }
                i += 6
            }
        default:
            throw fail("invalid escape '\\\(printable(escape))' in a string", at: i)
        }
    }

    private func hex4(at j: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard j + k < end, let digit = JSONTree.hexValue(bytes[j + k]) else {
                if j + k >= end { throw fail("unexpected end of input inside a string", at: end) }
                throw fail("invalid \\u escape: expected 4 hexadecimal digits", at: j - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Numbers

    /// Exact powers of ten (every one up to 1e22 is representable in a Double).
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private mutating func scanNumber(into nodes: inout [JSONTree.Node]) throws(JSONSyntaxError) {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative {
            i += 1
            if i < end && (bytes[i] == UInt8(ascii: "I") || bytes[i] == UInt8(ascii: "N") || bytes[i] == UInt8(ascii: "i")) {
                i = start
                try rejectNonJSONNumber()
            }
        }
        guard i < end, isDigit(bytes[i]) else {
            throw fail(
                i < end
                    ? "invalid number: expected a digit, found \(describe(bytes[i]))"
                    : "unexpected end of input inside a number", at: i)
        }
        // Decimal significand (up to 19 significant digits) and exponent, for the exact fast path.
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var truncated = false
        func addDigit(_ digit: UInt8, fraction: Bool) {
            if significand == 0 && digit == 0 {
                if fraction { exponent -= 1 }
                return
            }
            if significantDigits < 19 {
                significand = significand * 10 + UInt64(digit)
                significantDigits += 1
                if fraction { exponent -= 1 }
            } else {
                truncated = true
                if !fraction { exponent += 1 }
            }
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < end && isDigit(bytes[i]) { throw fail("invalid number: leading zero", at: start) }
        } else {
            while i < end && isDigit(bytes[i]) {
                addDigit(bytes[i] - UInt8(ascii: "0"), fraction: false)
                i += 1
            }
        }
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, isDigit(bytes[i]) else {
                throw fail("invalid number: expected a digit after '.'", at: i)
            }
            while i < end && isDigit(bytes[i]) {
                addDigit(bytes[i] - UInt8(ascii: "0"), fraction: true)
                i += 1
            }
        }
        if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var exponentNegative = false
            if i < end && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, isDigit(bytes[i]) else {
                throw fail("invalid number: expected a digit in the exponent", at: i)
            }
            var written = 0
            while i < end && isDigit(bytes[i]) {
                written = min(written * 10 + Int(bytes[i] - UInt8(ascii: "0")), 1_000_000)
                i += 1
            }
            exponent += exponentNegative ? -written : written
        }
        var value: Double
        if significand == 0 && !truncated {
            value = 0
        } else if !truncated && significand <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            // Clinger's fast path: both operands exact, so one IEEE operation rounds correctly.
            let exact = Double(significand)
            value = exponent >= 0 ? exact * Self.powersOfTen[exponent] : exact / Self.powersOfTen[-exponent]
        } else {
            // The general case goes through the standard library's correctly rounded conversion.
            let lexeme = String(decoding: UnsafeBufferPointer(rebasing: bytes[(negative ? start + 1 : start)..<i]), as: UTF8.self)
            value = Double(lexeme) ?? .infinity
        }
        if negative { value = -value }
        guard value.isFinite else {
            let lexeme = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(i, start + 40)]), as: UTF8.self)
            throw fail("number \(lexeme)\(i - start > 40 ? "..." : "") is out of the range of a 64-bit float", at: start)
        }
        nodes.append(.init(kind: .number, flags: 0, offset: UInt32(start), payload: value.bitPattern))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Errors

    private func fail(_ message: String, at offset: Int) -> JSONSyntaxError {
        let position = JSONTree.lineColumn(in: Array(bytes), atOffset: offset)
        return JSONSyntaxError(offset: offset, line: position.line, column: position.column, message: message)
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(hexByte(byte))"
    }

    private func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : hexByte(byte)
    }

    private func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])"
    }

    private func hex(_ unit: UInt32) -> String {
        let digits = Array("0123456789ABCDEF")
        return (0..<4).map { String(digits[Int((unit >> (12 - 4 * UInt32($0))) & 15)]) }.joined()
    }
}
