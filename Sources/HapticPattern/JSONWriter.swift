/// Writes strict JSON (RFC 8259) in a caller-chosen key order, pretty or minified. Used by the
/// AHAP encoder, whose output must be byte-stable (the CLI writes its `--json` reports with
/// JSONEncoder instead, docs/cli.md "JSON output").
///
/// Pretty form: two-space indentation, `"key": value`, one member or element per line, except
/// containers opened with `inline: true`, which stay on one line (`{ "Time": 0.0, "ParameterValue": 1.0 }`).
/// Numbers use Swift's shortest round-trip form (`0.1`, `1.0`, `1e-05`), which is valid JSON and
/// parses back to the same Double. JSON has no NaN or infinity: NaN is written as 0 and
/// ±infinity as ±Double.greatestFiniteMagnitude, so the output always parses.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    public let pretty: Bool

    private struct Level {
        var isObject: Bool
        var inline: Bool
        var count = 0
    }
    private var levels: [Level] = []
    private var afterKey = false

    public init(pretty: Bool) {
        self.pretty = pretty
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func beginObject(inline: Bool = false) {
        prefix()
        bytes.append(UInt8(ascii: "{"))
        levels.append(Level(isObject: true, inline: inline || inlineContext))
    }

    public mutating func endObject() { end(UInt8(ascii: "}")) }

    public mutating func beginArray(inline: Bool = false) {
        prefix()
        bytes.append(UInt8(ascii: "["))
        levels.append(Level(isObject: false, inline: inline || inlineContext))
    }

    public mutating func endArray() { end(UInt8(ascii: "]")) }

    public mutating func key(_ name: String) {
        prefix()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    public mutating func string(_ value: String) {
        prefix()
        appendString(value)
    }

    public mutating func number(_ value: Double) {
        prefix()
        let finite: Double
        if value.isNaN {
            finite = 0
        } else if value.isInfinite {
            finite = value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude
        } else {
            finite = value
        }
        bytes.append(contentsOf: finite.description.utf8)
    }

    public mutating func integer(_ value: Int) {
        prefix()
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        prefix()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        prefix()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Ends the text: pretty output ends with a newline (as text files do), minified output does not.
    public mutating func endDocument() {
        if pretty { bytes.append(0x0A) }
    }

    /// A `JSONValue`, object keys in byte order of their UTF-8 (stable across runs and platforms).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in Self.sortedMembers(members) {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    static func sortedMembers(_ members: [String: JSONValue]) -> [(String, JSONValue)] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    // MARK: Layout

    private var inlineContext: Bool { levels.last?.inline ?? false }

    /// Separator and line break before a value or key (nothing right after a key).
    private mutating func prefix() {
        if afterKey {
            afterKey = false
            return
        }
        guard !levels.isEmpty else { return }
        let index = levels.count - 1
        if levels[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        levels[index].count += 1
        guard pretty else { return }
        if levels[index].inline {
            bytes.append(UInt8(ascii: " "))
        } else {
            newline(depth: levels.count)
        }
    }

    private mutating func end(_ bracket: UInt8) {
        let level = levels.removeLast()
        if pretty && level.count > 0 {
            if level.inline { bytes.append(UInt8(ascii: " ")) } else { newline(depth: levels.count) }
        }
        bytes.append(bracket)
    }

    private mutating func newline(depth: Int) {
        bytes.append(0x0A)
        for _ in 0..<(2 * depth) { bytes.append(0x20) }
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 15)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
