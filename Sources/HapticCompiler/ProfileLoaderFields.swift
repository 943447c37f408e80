import HapticPattern

/// Typed, strict access to one JSON object of a profile file: every key must be known (typos
/// are errors, with a "did you mean" hint), required keys must be present, and types must match.
struct ProfileFields {
    let file: String
    /// Dotted path of this object ("" for the root).
    let path: String
    let fields: [String: JSONValue]

    init(file: String, path: String, value: JSONValue, allowed: [String]) throws(ProfileError) {
        self.file = file
        self.path = path
        guard case .object(let fields) = value else {
            throw ProfileError(
                file: file, keyPath: path.isEmpty ? nil : path,
                message: path.isEmpty ? "a profile must be a JSON object" : "expected an object")
        }
        self.fields = fields
        for key in fields.keys.sorted() where !allowed.contains(key) {
            var message = "unknown key"
            if let hint = closestKey(to: key, among: allowed) { message += " (did you mean '\(hint)'?)" }
            message += "; allowed here: " + allowed.joined(separator: ", ")
            throw ProfileError(file: file, keyPath: keyPath(key), message: message)
        }
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func error(_ key: String, _ message: String) -> ProfileError {
        ProfileError(file: file, keyPath: keyPath(key), message: message)
    }

    func has(_ key: String) -> Bool { fields[key] != nil }

    private func required(_ key: String, _ what: String) throws(ProfileError) -> JSONValue {
        guard let value = fields[key] else { throw error(key, "missing required \(what)") }
        return value
    }

    func number(_ key: String) throws(ProfileError) -> Double {
        guard case .number(let value) = try required(key, "number") else { throw error(key, "expected a number") }
        return value
    }

    /// A number above 0.
    func positive(_ key: String) throws(ProfileError) -> Double {
        let value = try number(key)
        try check(value > 0, key, "must be positive")
        return value
    }

    func integer(_ key: String) throws(ProfileError) -> Int {
        let value = try number(key)
        guard value == value.rounded(), abs(value) < 1e9 else { throw error(key, "expected a whole number, found \(value)") }
        return Int(value)
    }

    func string(_ key: String) throws(ProfileError) -> String {
        guard case .string(let value) = try required(key, "string") else { throw error(key, "expected a string") }
        return value
    }

    func bool(_ key: String) throws(ProfileError) -> Bool {
        guard case .bool(let value) = try required(key, "true or false") else { throw error(key, "expected true or false") }
        return value
    }

    /// One of a fixed set of strings.
    func choice(_ key: String, _ options: [String]) throws(ProfileError) -> String {
        let value = try string(key)
        guard options.contains(value) else {
            var message = "expected one of " + options.joined(separator: ", ") + "; found '\(value)'"
            if let hint = closestKey(to: value, among: options) { message += " (did you mean '\(hint)'?)" }
            throw error(key, message)
        }
        return value
    }

    /// A [low, high] pair of numbers with low < high.
    func range(_ key: String) throws(ProfileError) -> ClosedRange<Double> {
        guard case .array(let items) = try required(key, "[low, high] pair") else { throw error(key, "expected [low, high]") }
        guard items.count == 2, case .number(let lo) = items[0], case .number(let hi) = items[1] else {
            throw error(key, "expected [low, high]: two numbers")
        }
        guard lo < hi else { throw error(key, "low (\(lo)) must be below high (\(hi))") }
        return lo...hi
    }

    func object(_ key: String, allowed: [String]) throws(ProfileError) -> ProfileFields {
        try ProfileFields(file: file, path: keyPath(key), value: try required(key, "object"), allowed: allowed)
    }

    /// Fails unless `condition` holds, blaming `key`.
    func check(_ condition: Bool, _ key: String, _ message: @autoclosure () -> String) throws(ProfileError) {
        if !condition { throw error(key, message()) }
    }
}
