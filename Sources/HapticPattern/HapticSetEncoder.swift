/// Writes canonical `haptic-set/1` text: the same set always gives the same bytes, and
/// `HapticSetDecoder().decode(HapticSetEncoder().encode(s)).set == s` for every set the decoder
/// produces, as long as its pattern files are still there (docs/channels.md, "Canonical form").
///
/// `format`, `name` (when set), `channels`; in each entry `name`, `board`, `channel`, `pattern`,
/// `actuator`, `gain`, `offset`, `mix`, `priority`, `duck`, `location`, each written only when it
/// differs from its default (`channel` and `pattern` always). A file or preset pattern is written as
/// its reference, an inline one as canonical AHAP (`AHAPEncoder`).
public struct HapticSetEncoder: Sendable {
    public var minified: Bool

    public init(minified: Bool = false) {
        self.minified = minified
    }

    public func encode(_ set: HapticSet) -> [UInt8] {
        var writer = JSONWriter(pretty: !minified)
        writer.beginObject()
        writer.key("format")
        writer.string(HapticSet.format)
        if let name = set.name {
            writer.key("name")
            writer.string(name)
        }
        writer.key("channels")
        writer.beginArray()
        for entry in set.entries { write(entry, to: &writer) }
        writer.endArray()
        writer.endObject()
        writer.endDocument()
        return writer.bytes
    }

    private func write(_ entry: HapticSet.Entry, to writer: inout JSONWriter) {
        writer.beginObject()
        if let name = entry.name { writer.member("name", name) }
        if entry.board != 0 { writer.member("board", entry.board) }
        writer.member("channel", entry.channel)
        writer.key("pattern")
        switch entry.source {
        case .file(let path): writer.string(path)
        case .preset(let name): writer.string(HapticSet.presetPrefix + name)
        case .inline: AHAPEncoder.write(entry.pattern, to: &writer)
        }
        if let actuator = entry.actuator { writer.member("actuator", actuator) }
        if entry.gain != 1 { writer.member("gain", entry.gain) }
        if entry.offset != 0 { writer.member("offset", entry.offset) }
        if entry.mix != .sum { writer.member("mix", entry.mix.rawValue) }
        if entry.priority != 0 { writer.member("priority", entry.priority) }
        if entry.duck != 1 { writer.member("duck", entry.duck) }
        if let location = entry.location { writer.member("location", location) }
        writer.endObject()
    }
}

extension JSONWriter {
    fileprivate mutating func member(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    fileprivate mutating func member(_ key: String, _ value: Int) {
        self.key(key)
        integer(value)
    }

    fileprivate mutating func member(_ key: String, _ value: Double) {
        self.key(key)
        number(value)
    }
}

extension HapticSet {
    /// Canonical `haptic-set/1` text of the set (see `HapticSetEncoder`).
    public func jsonBytes(minified: Bool = false) -> [UInt8] {
        HapticSetEncoder(minified: minified).encode(self)
    }
}
