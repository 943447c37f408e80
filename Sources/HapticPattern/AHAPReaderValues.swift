/// The per-value rules of the AHAP reader: required keys, times, ranges, JSON types, key and
/// enum names (docs/ahap.md). Strict mode turns each broken rule into an error, lenient mode into
/// a repair and a warning (`reject` in AHAPReaderDiagnostics.swift).
extension AHAPReader {
    /// One key of an object being read: its value and where it was written (for diagnostics).
    /// Until the key is read, `node` and `path` name the object and the key's canonical name.
    struct Field<Value> {
        var value: Value?
        var node: Int
        var path: AHAPPath
        /// The key was in the object; `value` is still nil for an unknown name (already reported).
        var written = false

        init(_ node: Int, _ path: AHAPPath) {
            self.node = node
            self.path = path
        }

        mutating func set(_ value: Value?, _ node: Int, _ path: AHAPPath) {
            self.value = value
            self.node = node
            self.path = path
            written = true
        }
    }

    /// The value of a key the object cannot do without. A missing key is an error (strict) or
    /// skips the object with a warning (lenient) that calls the key `label` (its name by default);
    /// an unknown name was reported when it was read.
    mutating func required<Value>(
        _ field: Field<Value>, _ key: AHAPKey, in node: Int, _ path: AHAPPath,
        skipping thing: String, called label: String? = nil
    ) throws(AHAPError) -> Value? {
        guard field.written else {
            try reject(node, path, "missing key \(key.name)", or: .skipped, "no \(label ?? key.name); \(thing) skipped")
            return nil
        }
        return field.value
    }

    /// `Time` of an event, step or curve: required (strict) or 0 (lenient); never negative.
    mutating func startTime(_ time: Field<Double>, path: AHAPPath) throws(AHAPError) -> Double {
        guard let value = time.value else {
            try reject(time.node, path, "missing key Time", or: .missingKey, "no Time; read as 0")
            return 0
        }
        return try nonNegative(value, node: time.node, what: "Time", path: path.name(.time))
    }

    /// Negative times and durations: an error (strict) or 0 with a warning (lenient).
    mutating func nonNegative(_ value: Double, node: Int, what: String, path: AHAPPath) throws(AHAPError) -> Double {
        guard value < 0 else { return value }
        try reject(
            node, path, "\(what) \(AHAPText.number(value)) is negative",
            or: .outOfRange, "\(what) \(AHAPText.number(value)) is negative; clamped to 0")
        return 0
    }

    /// Values outside their documented range: an error (strict) or clamped with a warning (lenient).
    mutating func inRange(
        _ value: Double, _ range: ClosedRange<Double>, node: Int, what: String,
        path: AHAPPath
    ) throws(AHAPError) -> Double {
        guard !range.contains(value) else { return value }
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        let bounds = "\(AHAPText.number(range.lowerBound))...\(AHAPText.number(range.upperBound))"
        try reject(
            node, path, "\(what) \(AHAPText.number(value)) is outside \(bounds)",
            or: .outOfRange, "\(what) \(AHAPText.number(value)) is outside \(bounds); clamped to \(AHAPText.number(clamped))")
        return clamped
    }

    func number(_ node: Int, _ path: AHAPPath) throws(AHAPError) -> Double {
        try expect(node, .number, path)
        return tree.number(node)
    }

    /// Wrong JSON types are errors in both modes: there is no safe guess for them.
    func expect(_ node: Int, _ kind: JSONTree.Kind, _ path: AHAPPath) throws(AHAPError) {
        guard tree.kind(node) == kind else {
            throw error(node, path, "expected \(kind.article), found \(tree.kind(node).article)")
        }
    }

    // MARK: Names and keys

    /// The `AHAPKey`s seen in one object, to report duplicates.
    struct KeySet {
        var bits: UInt32 = 0

        /// False when the key was already there.
        mutating func insert(_ key: AHAPKey) -> Bool {
            let bit: UInt32 = 1 << UInt32(key.rawValue)
            defer { bits |= bit }
            return bits & bit == 0
        }
    }

    /// Identifies a key among the schema's keys: exact spelling; lenient mode also accepts other
    /// letter cases and the `Time` aliases. Unknown keys are errors (strict) or ignored with a warning.
    /// Lenient mode reads `null` for a key as the key being absent, with a note at its JSON path:
    /// authoring tools write `"EventWaveformPath": null` for values they do not use. A required key
    /// that is null is then reported as missing. Strict mode leaves null to the type checks, which
    /// reject it as Core Haptics does.
    mutating func nullIsAbsent(_ value: Int, _ key: AHAPKey, _ path: AHAPPath) -> Bool {
        guard lenient, tree.kind(value) == .null else { return false }
        warn(.nullValue, path, "\(key.name) is null; read as absent")
        return true
    }

    mutating func match(
        _ keyNode: Int, _ allowed: [AHAPKey], aliases: [AHAPAlias] = [],
        in path: AHAPPath, seen: inout KeySet
    ) throws(AHAPError) -> AHAPKey? {
        var found: AHAPKey?
        for key in allowed where tree.stringEquals(keyNode, key.bytes) {
            found = key
            break
        }
        if found == nil {
            let keyPath = path.key(keyNode)
            let written = AHAPText.quoted(tree.string(keyNode))
            if let key = allowed.first(where: { tree.stringEquals(keyNode, $0.bytes, ignoringCase: true) }) {
                try reject(
                    keyNode, keyPath, "unknown key \(written) (did you mean \(key.name)?)",
                    or: .nameCase, "key \(written) read as \(key.name)")
                found = key
            } else if let alias = aliases.first(where: { tree.stringEquals(keyNode, $0.bytes, ignoringCase: true) }) {
                try reject(
                    keyNode, keyPath, "unknown key \(written) (AHAP spells it \(alias.key.name))",
                    or: .alias, "key \(written) read as \(alias.key.name)")
                found = alias.key
            } else {
                try reject(keyNode, keyPath, "unknown key \(written)", or: .unknownKey, "unknown key \(written) ignored")
                return nil
            }
        }
        guard let found else { return nil }
        if !seen.insert(found) {
            warn(.duplicateKey, path.key(keyNode), "\(found.name) appears more than once; the last one is used")
        }
        return found
    }

    /// Resolves an enum name (event type, parameter ID), which must be a string: exact; lenient mode
    /// also ignores letter case. Unknown names: an error (strict) or nil with a warning (lenient),
    /// and the caller skips the value.
    mutating func resolve<Value>(
        _ node: Int, _ table: AHAPNameTable<Value>, what: String,
        path: AHAPPath, skipping: String
    ) throws(AHAPError) -> Value? {
        try expect(node, .string, path)
        for index in table.utf8.indices where tree.stringEquals(node, table.utf8[index]) {
            return table.cases[index]
        }
        let written = AHAPText.quoted(tree.string(node))
        for index in table.utf8.indices where tree.stringEquals(node, table.utf8[index], ignoringCase: true) {
            let value = table.cases[index]
            try reject(
                node, path, "unknown \(what) \(written) (did you mean \(value.rawValue)?)",
                or: .nameCase, "\(what) \(written) read as \(value.rawValue)")
            return value
        }
        try reject(node, path, "unknown \(what) \(written)", or: .skipped, "unknown \(what) \(written); \(skipping)")
        return nil
    }
}
