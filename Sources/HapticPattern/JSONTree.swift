/// A parsed JSON text kept as a flat "tape" of nodes in document order, over the original bytes.
///
/// Why a tape and not a tree of enums: a 50 MB AHAP file holds millions of values; one 16-byte
/// struct per value in one array is several times faster to build and walk than nested
/// dictionaries, and every value keeps its byte offset, so any diagnostic can name a line and column.
///
/// Layout: a container node is followed by its children; an object's children alternate
/// key (a string node) and value. `next(after:)` skips a whole subtree in O(1).
struct JSONTree: Sendable {
    enum Kind: UInt8, Sendable {
        case null, bool, number, string, array, object

        /// Used in "expected a number, found a string" messages.
        var article: String {
            switch self {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    struct Node: Sendable {
        var kind: Kind
        /// String: bit 0 = contains escapes. Container: bit 0 = ended with a trailing comma.
        var flags: UInt8
        /// Byte offset of the value's first byte (the quote of a string, the bracket of a container).
        var offset: UInt32
        /// Number: the Double's bit pattern. String: byte length between the quotes.
        /// Bool: 0 or 1. Container: low 32 bits = index one past the subtree, high 32 bits = child count
        /// (members for an object).
        var payload: UInt64
    }

    let bytes: [UInt8]
    var nodes: [Node]

    static let hasEscapes: UInt8 = 1
    static let trailingComma: UInt8 = 1

    var root: Int { 0 }

    func kind(_ index: Int) -> Kind { nodes[index].kind }

    func offset(_ index: Int) -> Int { Int(nodes[index].offset) }

    func number(_ index: Int) -> Double { Double(bitPattern: nodes[index].payload) }

    func bool(_ index: Int) -> Bool { nodes[index].payload != 0 }

    /// Index one past the subtree that starts at `index`.
    func next(after index: Int) -> Int {
        let node = nodes[index]
        switch node.kind {
        case .array, .object: return Int(node.payload & 0xFFFF_FFFF)
        default: return index + 1
        }
    }

    /// Number of elements of an array, or of members of an object.
    func count(_ index: Int) -> Int { Int(nodes[index].payload >> 32) }

    func hasTrailingComma(_ index: Int) -> Bool { nodes[index].flags & Self.trailingComma != 0 }

    /// Element node indices of an array, in document order (a lazy sequence: no allocation).
    func elements(_ index: Int) -> Children {
        Children(tree: self, position: index + 1, end: next(after: index), pairs: false)
    }

    /// (key node, value node) pairs of an object, in document order (lazy, like `elements`).
    func members(_ index: Int) -> Members {
        Members(children: Children(tree: self, position: index + 1, end: next(after: index), pairs: true))
    }

    struct Children: Sequence, IteratorProtocol {
        let tree: JSONTree
        var position: Int
        let end: Int
        let pairs: Bool

        /// The next element (arrays) or key node (objects).
        mutating func next() -> Int? {
            guard position < end else { return nil }
            let current = position
            position = tree.next(after: pairs ? current + 1 : current)
            return current
        }
    }

    struct Members: Sequence, IteratorProtocol {
        var children: Children

        mutating func next() -> (key: Int, value: Int)? {
            children.next().map { ($0, $0 + 1) }
        }
    }

    // MARK: Strings

    /// Byte range of a string's raw content (between the quotes, escapes not decoded).
    func rawRange(_ index: Int) -> Range<Int> {
        let start = offset(index) + 1
        return start..<(start + Int(nodes[index].payload))
    }

    /// The decoded string. Invalid UTF-8 is replaced by U+FFFD (the parser has already checked escapes).
    func string(_ index: Int) -> String {
        let range = rawRange(index)
        if nodes[index].flags & Self.hasEscapes == 0 {
            return String(decoding: bytes[range], as: UTF8.self)
        }
        return String(decoding: Self.unescape(bytes[range]), as: UTF8.self)
    }

    /// True when the string node's decoded content equals `literal` (ASCII), optionally ignoring ASCII case.
    /// Compares raw bytes without allocating when the string has no escapes (the common case).
    func stringEquals(_ index: Int, _ literal: [UInt8], ignoringCase: Bool = false) -> Bool {
        if nodes[index].flags & Self.hasEscapes != 0 {
            let decoded = Self.unescape(bytes[rawRange(index)])
            return Self.equal(decoded[...], literal, ignoringCase: ignoringCase)
        }
        let range = rawRange(index)
        guard range.count == literal.count else { return false }
        return Self.equal(bytes[range], literal, ignoringCase: ignoringCase)
    }

    private static func equal(_ a: ArraySlice<UInt8>, _ b: [UInt8], ignoringCase: Bool) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.startIndex
        for byte in b {
            let other = a[i]
            if other != byte {
                guard ignoringCase, lower(other) == lower(byte) else { return false }
            }
            i += 1
        }
        return true
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// Decodes the escapes of a string the parser has validated (surrogate pairs of \u escapes included).
    static func unescape(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            let escape = raw[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, i)
                i += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // The parser guarantees a low surrogate escape follows.
                    let low = hex4(raw, i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out)
            default: out.append(escape)  // '"', '\\', '/'
            }
        }
        return out
    }

    static func hex4(_ raw: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 { value = value << 4 | UInt32(hexValue(raw[at + k]) ?? 0) }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        for unit in UTF8.encode(scalar)! { out.append(unit) }
    }

    // MARK: Positions

    /// 1-based line and column of a byte offset. Columns count Unicode scalars (UTF-8 continuation
    /// bytes are skipped), so a column matches what an editor shows for UTF-8 text.
    func lineColumn(atOffset offset: Int) -> (line: Int, column: Int) {
        JSONTree.lineColumn(in: bytes, atOffset: offset)
    }

    static func lineColumn(in bytes: [UInt8], atOffset offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            let byte = bytes[i]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    // MARK: Conversion

    /// The subtree at `index` as a `JSONValue` (used for Metadata, which is kept verbatim).
    /// Recursive, but bounded: the parser never builds a tree deeper than its depth limit.
    func value(at index: Int) -> JSONValue {
        switch kind(index) {
        case .null: return .null
        case .bool: return .bool(bool(index))
        case .number: return .number(number(index))
        case .string: return .string(string(index))
        case .array: return .array(elements(index).map { value(at: $0) })
        case .object:
            var object: [String: JSONValue] = [:]
            for member in members(index) { object[string(member.key)] = value(at: member.value) }
            return .object(object)
        }
    }
}
