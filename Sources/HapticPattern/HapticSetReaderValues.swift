/// The per-value rules of the set reader (docs/channels.md, "Reading") and its diagnostics.
extension HapticSetReader {
    /// An object's known keys and their value nodes, in file order; a key written twice keeps its last value.
    struct Members: Sequence {
        var ordered: [(key: String, value: Int)] = []

        subscript(key: String) -> Int? { ordered.first { $0.key == key }?.value }

        mutating func set(_ key: String, _ value: Int) {
            ordered.removeAll { $0.key == key }
            ordered.append((key, value))
        }

        func makeIterator() -> IndexingIterator<[(key: String, value: Int)]> { ordered.makeIterator() }
    }

    /// Matches each key of the object at `node` against `allowed`: exact; lenient mode also accepts
    /// other letter cases. Unknown keys are errors (strict) or ignored with a warning; lenient mode
    /// reads `null` as the key being absent. The same key twice: a warning, the last one is used.
    mutating func keys(of node: Int, _ allowed: [String], path: String) throws(AHAPError) -> Members {
        var members = Members()
        for member in tree.members(node) {
            let written = tree.string(member.key)
            let keyPath = path.isEmpty ? AHAPText.component(written).dropFirstDot : path + AHAPText.component(written)
            var key = allowed.first { $0 == written }
            if key == nil {
                let quoted = AHAPText.quoted(written)
                if let match = allowed.first(where: { $0.lowercased() == written.lowercased() }) {
                    try reject(member.key, keyPath, "unknown key \(quoted) (did you mean \(match)?)", or: .nameCase, "key \(quoted) read as \(match)")
                    key = match
                } else {
                    let hint = "keys: \(allowed.joined(separator: ", "))"
                    try reject(member.key, keyPath, "unknown key \(quoted) (\(hint))", or: .unknownKey, "unknown key \(quoted) ignored")
                    continue
                }
            }
            guard let key else { continue }
            let valuePath = path.isEmpty ? key : "\(path).\(key)"
            if members[key] != nil {
                warn(.duplicateKey, valuePath, "\(key) appears more than once; the last one is used")
            }
            if lenient, tree.kind(member.value) == .null {
                warn(.nullValue, valuePath, "\(key) is null; read as absent")
                members.ordered.removeAll { $0.key == key }
                continue
            }
            members.set(key, member.value)
        }
        return members
    }

    // MARK: Values

    func string(_ node: Int, _ path: String, hint: String? = nil) throws(AHAPError) -> String {
        try expect(node, .string, path)
        let text = tree.string(node)
        guard !text.isEmpty || hint == nil else { throw error(node, path, "empty string (\(hint!))") }
        return text
    }

    /// A whole number in `range`: anything else is an error in both modes (no safe guess for an index).
    func integer(_ node: Int, _ path: String, _ range: ClosedRange<Int>, why: String) throws(AHAPError) -> Int {
        try expect(node, .number, path)
        let value = tree.number(node)
        let bounds = "\(range.lowerBound)...\(range.upperBound)"
        guard value == value.rounded() else { throw error(node, path, "\(AHAPText.number(value)) is not a whole number (\(why), \(bounds))") }
        guard value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            let written = abs(value) < 1e15 ? String(Int(value)) : AHAPText.number(value)
            throw error(node, path, "\(written) is outside \(bounds) (\(why))")
        }
        return Int(value)
    }

    /// `gain` and `duck`: 0...1; outside, an error (strict) or clamped with a warning (lenient).
    mutating func unit(_ node: Int, _ path: String) throws(AHAPError) -> Double {
        try expect(node, .number, path)
        let value = tree.number(node)
        guard !(0...1).contains(value) else { return value }
        let clamped = min(max(value, 0), 1)
        try reject(
            node, path, "\(AHAPText.number(value)) is outside 0...1",
            or: .outOfRange, "\(AHAPText.number(value)) is outside 0...1; clamped to \(AHAPText.number(clamped))")
        return clamped
    }

    /// Longest offset: a start tick must fit PROTOCOL-3.md's signed tick arithmetic at 1 kHz with room to spare.
    static let maximumOffset = 1_000_000.0

    /// `offset`: seconds >= 0; negative is an error (strict) or 0 with a warning (lenient).
    mutating func offset(_ node: Int, _ path: String) throws(AHAPError) -> Double {
        try expect(node, .number, path)
        let value = tree.number(node)
        guard value <= Self.maximumOffset else {
            throw error(node, path, "offset \(AHAPText.number(value)) s is beyond \(Int(Self.maximumOffset)) s")
        }
        guard value < 0 else { return value }
        try reject(
            node, path, "offset \(AHAPText.number(value)) is negative (seconds from the set's start)",
            or: .outOfRange, "offset \(AHAPText.number(value)) is negative; clamped to 0")
        return 0
    }

    mutating func mix(_ node: Int, _ path: String) throws(AHAPError) -> HapticSet.Mix {
        let text = try string(node, path)
        if let mix = HapticSet.Mix(rawValue: text) { return mix }
        let quoted = AHAPText.quoted(text)
        if let mix = HapticSet.Mix(rawValue: text.lowercased()) {
            try reject(node, path, "unknown mix \(quoted) (did you mean \(mix.rawValue)?)", or: .nameCase, "mix \(quoted) read as \(mix.rawValue)")
            return mix
        }
        try reject(node, path, "unknown mix \(quoted) (sum or max)", or: .skipped, "unknown mix \(quoted); read as sum")
        return .sum
    }

    /// A body location (`HapticSet.isLocation`): other letter cases are repaired (lenient); an unknown
    /// name is kept as written with a warning (lenient: it changes no output) or rejected (strict).
    mutating func location(_ node: Int, _ path: String) throws(AHAPError) -> String {
        let text = try string(node, path, hint: "a body location such as hand-left")
        if HapticSet.isLocation(text) { return text }
        let quoted = AHAPText.quoted(text)
        if HapticSet.isLocation(text.lowercased()) {
            try reject(
                node, path, "unknown location \(quoted) (did you mean \(text.lowercased())?)",
                or: .nameCase, "location \(quoted) read as \(text.lowercased())")
            return text.lowercased()
        }
        try reject(
            node, path, "unknown location \(quoted) (a body part such as hand, wrist, forearm, chest, with -left or -right; docs/channels.md)",
            or: .ignoredValue, "unknown location \(quoted); kept as written (docs/channels.md lists the names)")
        return text
    }

    // MARK: Diagnostics

    func expect(_ node: Int, _ kind: JSONTree.Kind, _ path: String) throws(AHAPError) {
        guard tree.kind(node) == kind else {
            throw error(node, path, "expected \(kind.article), found \(tree.kind(node).article)")
        }
    }

    mutating func warn(_ kind: AHAPWarning.Kind, _ path: String, _ message: String) {
        warnings.append(AHAPWarning(kind: kind, path: path, message: message))
    }

    /// Strict mode: throw `strictMessage`. Lenient mode: record the repair as a warning and go on.
    mutating func reject(
        _ node: Int, _ path: String, _ strictMessage: String, or kind: AHAPWarning.Kind, _ lenientMessage: String
    ) throws(AHAPError) {
        guard lenient else { throw error(node, path, strictMessage) }
        warn(kind, path, lenientMessage)
    }

    func error(_ node: Int, _ path: String, _ message: String) -> AHAPError {
        let position = tree.lineColumn(atOffset: tree.offset(node))
        return AHAPError(file: file, path: path, line: position.line, column: position.column, message: message)
    }
}

extension String {
    /// `format` for `.format`: a root key's path has no leading dot.
    fileprivate var dropFirstDot: String { hasPrefix(".") ? String(dropFirst()) : self }
}
