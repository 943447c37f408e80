/// Walks a parsed `haptic-set/1` document (docs/channels.md, "Reading"). The rules mirror the AHAP
/// reader's: wrong JSON types and values with no safe guess are errors in both modes; a key in the
/// wrong letter case, an unknown key, a value out of range, `null` and an unknown enum name are
/// errors in strict mode and repairs with a warning in lenient mode.
struct HapticSetReader {
    let tree: JSONTree
    let mode: AHAPMode
    let file: String?
    let folder: String
    var warnings: [AHAPWarning] = []

    init(tree: JSONTree, mode: AHAPMode, file: String?, folder: String) {
        self.tree = tree
        self.mode = mode
        self.file = file
        self.folder = folder
    }

    var lenient: Bool { mode == .lenient }

    static let rootKeys = ["format", "name", "channels"]
    static let entryKeys = ["name", "board", "channel", "pattern", "actuator", "gain", "offset", "mix", "priority", "duck", "location"]

    mutating func read() throws(AHAPError) -> HapticSetDocument {
        let root = tree.root
        let shape = "a haptic set is {\"format\": \"haptic-set/1\", \"channels\": [...]}"
        guard tree.kind(root) == .object else {
            throw error(root, "(root)", "expected an object, found \(tree.kind(root).article); \(shape)")
        }
        let members = try keys(of: root, Self.rootKeys, path: "")
        if let format = members["format"] {
            try readFormat(format, path: "format")
        } else {
            try reject(root, "(root)", "missing key format (add \"format\": \"haptic-set/1\")", or: .missingKey, "no format; read as haptic-set/1")
        }
        var name: String?
        if let node = members["name"] { name = try string(node, "name") }
        guard let list = members["channels"] else {
            throw error(root, "(root)", "missing key channels; \(shape)")
        }
        try expect(list, .array, "channels")
        guard tree.count(list) > 0 else {
            throw error(list, "channels", "a set needs at least one entry (for example {\"channel\": 0, \"pattern\": \"preset:impact.heavy\"})")
        }
        var entries: [HapticSet.Entry] = []
        var actuators: [ChannelAddress: (name: String, index: Int)] = [:]
        for (index, node) in tree.elements(list).enumerated() {
            let entry = try readEntry(node, path: "channels[\(index)]")
            // One actuator per channel: entries on it name the same profile, or none.
            if let name = entry.actuator {
                if let first = actuators[entry.address], first.name != name {
                    throw error(
                        node, "channels[\(index)].actuator",
                        "\(AHAPText.quoted(name)) differs from \(AHAPText.quoted(first.name)) of channels[\(first.index)] on \(entry.address) (one actuator per channel)"
                    )
                }
                actuators[entry.address] = actuators[entry.address] ?? (name, index)
            }
            entries.append(entry)
        }
        if lenient { warnings += AHAPReader(tree: tree, mode: mode, file: file).trailingCommaWarnings() }
        return HapticSetDocument(set: HapticSet(name: name, entries: entries), warnings: warnings)
    }

    private mutating func readFormat(_ node: Int, path: String) throws(AHAPError) {
        let format = try string(node, path)
        guard format != HapticSet.format else { return }
        let written = AHAPText.quoted(format)
        guard format.hasPrefix("haptic-set/") else {
            throw error(node, path, "format \(written) is not a haptic set (expected \"\(HapticSet.format)\")")
        }
        try reject(
            node, path, "format \(written) is not supported (this reader knows \(HapticSet.format))",
            or: .version, "format \(written) is not \(HapticSet.format); read as \(HapticSet.format)")
    }

    private mutating func readEntry(_ node: Int, path: String) throws(AHAPError) -> HapticSet.Entry {
        try expect(node, .object, path)
        let members = try keys(of: node, Self.entryKeys, path: path)
        func at(_ key: String) -> String { "\(path).\(key)" }
        guard let channelNode = members["channel"] else {
            throw error(node, path, "missing key channel (the output's index on its board, 0...15)")
        }
        guard let patternNode = members["pattern"] else {
            throw error(node, path, "missing key pattern (an AHAP file, \"preset:NAME\" or an AHAP object)")
        }
        let channel = try integer(channelNode, at("channel"), HapticSet.channelRange, why: "PROTOCOL-3.md 3.2: up to 16 channels a board")
        let (source, pattern) = try readPattern(patternNode, path: at("pattern"))
        var entry = HapticSet.Entry(channel: channel, source: source, pattern: pattern)
        for (key, value) in members {
            let valuePath = at(key)
            switch key {
            case "name": entry.name = try string(value, valuePath)
            case "board": entry.board = try integer(value, valuePath, HapticSet.boardRange, why: "a board index")
            case "actuator": entry.actuator = try string(value, valuePath, hint: "an actuator profile name from hardware/actuators")
            case "gain": entry.gain = try unit(value, valuePath)
            case "duck": entry.duck = try unit(value, valuePath)
            case "offset": entry.offset = try offset(value, valuePath)
            case "priority": entry.priority = try integer(value, valuePath, HapticSet.priorityRange, why: "a priority, larger wins")
            case "mix": entry.mix = try mix(value, valuePath)
            case "location": entry.location = try location(value, valuePath)
            default: break
            }
        }
        return entry
    }

    // MARK: Patterns

    private mutating func readPattern(_ node: Int, path: String) throws(AHAPError) -> (HapticSet.Source, HapticPattern) {
        switch tree.kind(node) {
        case .object:
            var reader = AHAPReader(tree: tree, mode: mode, file: file, root: node)
            let document: AHAPDocument
            do {
                document = try reader.read()
            } catch {
                var located = error
                located.path = Self.join(path, error.path)
                throw located
            }
            warnings += document.warnings.map { AHAPWarning(kind: $0.kind, path: Self.join(path, $0.path), message: $0.message) }
            return (.inline, document.pattern)
        case .string:
            let text = tree.string(node)
            if text.hasPrefix(HapticSet.presetPrefix) {
                let name = String(text.dropFirst(HapticSet.presetPrefix.count))
                guard let preset = Preset.named(name) else {
                    let family = String(name.prefix { $0 != "." && $0 != "@" })
                    let close = Preset.all.map(\.name).filter { $0.hasPrefix(family + ".") || $0 == family }.prefix(4)
                    let hint = close.isEmpty ? "`haptic presets` lists them" : "did you mean \(close.joined(separator: ", "))?"
                    throw error(node, path, "no preset named \(AHAPText.quoted(name)) (\(hint))")
                }
                return (.preset(name), preset.pattern)
            }
            guard !text.isEmpty else { throw error(node, path, "empty pattern (an AHAP file, \"preset:NAME\" or an AHAP object)") }
            return (.file(text), try readFile(text, node: node, path: path))
        default:
            throw error(node, path, "expected a string (an AHAP file or \"preset:NAME\") or an AHAP object, found \(tree.kind(node).article)")
        }
    }

    private mutating func readFile(_ text: String, node: Int, path: String) throws(AHAPError) -> HapticPattern {
        let resolved = HapticSetDecoder.resolve(text, in: folder)
        let bytes: [UInt8]
        do {
            bytes = try AHAPFile.read(resolved)
        } catch {
            throw self.error(node, path, "\(error.message): \(AHAPText.quoted(resolved)) (relative paths start at the set file's folder)")
        }
        do {
            let document = try AHAPDecoder(mode: mode).decode(bytes, file: resolved)
            warnings += document.warnings.map { AHAPWarning(kind: $0.kind, path: path, message: "\(resolved): \($0.path): \($0.message)") }
            return document.pattern
        } catch {
            var located = error
            located.message += " (named by \(path) in \(file ?? "the set"))"
            throw located
        }
    }

    /// `channels[2].pattern` joined with a path inside the pattern (`(root)` is the pattern itself).
    static func join(_ prefix: String, _ inner: String?) -> String {
        guard let inner, inner != "(root)" else { return prefix }
        return inner.hasPrefix("[") ? prefix + inner : prefix + "." + inner
    }
}
