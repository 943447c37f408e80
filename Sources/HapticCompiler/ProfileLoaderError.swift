/// A profile that cannot be used, with where: "file: key.path: message" (one line).
public struct ProfileError: Error, CustomStringConvertible, Sendable, Hashable {
    public var file: String
    /// Dotted key path in the file ("lra.qualityFactor"); nil when the file as a whole is at fault.
    public var keyPath: String?
    public var message: String

    public init(file: String, keyPath: String?, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        if let keyPath { return "\(file): \(keyPath): \(message)" }
        return "\(file): \(message)"
    }
}

/// The closest known key to a misspelt one, for "did you mean" hints: case-insensitive equal,
/// or within an edit distance of 2 (3 for keys of 10 characters or more).
func closestKey(to key: String, among known: [String]) -> String? {
    if let same = known.first(where: { $0.lowercased() == key.lowercased() }) { return same }
    let limit = key.count >= 10 ? 3 : 2
    let scored = known.map { ($0, editDistance(key.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
    return best.0
}

/// Levenshtein distance on characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
