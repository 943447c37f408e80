/// How the AHAP decoder treats input that departs from Apple's format (docs/ahap.md lists every rule).
public enum AHAPMode: String, Sendable, Hashable, CaseIterable {
    /// Load what real files contain; every repair is reported as an `AHAPWarning`.
    case lenient
    /// Reject anything outside the AHAP format as Apple documents it (strict JSON, exact names,
    /// values in range, required keys, no unknown keys, continuous events of at most 30 s).
    case strict
}

/// A decoded AHAP file: the pattern and what the decoder had to repair or wants to point out.
public struct AHAPDocument: Sendable, Hashable {
    public var pattern: HapticPattern
    public var warnings: [AHAPWarning]

    public init(pattern: HapticPattern, warnings: [AHAPWarning] = []) {
        self.pattern = pattern
        self.warnings = warnings
    }
}

/// One repair (lenient mode) or remark, located by a JSON path such as
/// `Pattern[3].Event.EventParameters[1].ParameterValue`.
public struct AHAPWarning: Sendable, Hashable, CustomStringConvertible {
    /// Stable identifiers: `haptic inspect --json` writes them (docs/ahap.md).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `[1, 2,]` or `{"a": 1,}`: accepted and ignored.
        case trailingComma
        /// `Version` missing, not a number, or not 1: read as 1.0.
        case version
        /// Events (or steps, curves, control points) not in time order: sorted, ties keep file order.
        case outOfOrder
        /// `HapticIntensity` or `HapticSharpness` absent on a haptic event: kept absent, readers apply the default.
        case missingParameter
        /// A value outside its documented range: clamped into it.
        case outOfRange
        /// A continuous event longer than 30 s: split into pieces of at most 30 s.
        case longEvent
        /// `hapticTransient`, `hapticintensity`...: matched ignoring case.
        case nameCase
        /// A key the format does not define: ignored.
        case unknownKey
        /// `EventTime` / `ParameterTime` read as `Time`.
        case alias
        /// A curve with one control point: loaded as a `Parameter` step.
        case singlePointCurve
        /// A curve whose first control point time equals its own `Time` (> 0): Lofelt-style absolute
        /// times, converted to relative ones (lenient) or only reported (strict).
        case absoluteCurveTimes
        /// The same key twice in one object: the last one wins (as in Foundation's JSON reader).
        case duplicateKey
        /// Something that cannot be loaded at all (unknown event type, missing required key...): skipped.
        case skipped
        /// A key whose value is `null` (written by authoring tools for unused values): read as absent.
        case nullValue
        /// A key that has no effect where it appears (e.g. `EventDuration` on a transient): ignored.
        case ignoredValue
        /// An item with more than one of `Event`, `Parameter`, `ParameterCurve`: each is loaded.
        case multipleItemKinds
        /// A required key missing and replaced by a default (e.g. an event without `Time`: 0).
        case missingKey
    }

    public var kind: Kind
    public var path: String
    public var message: String

    /// One line: `path: message [kind]`.
    public var description: String { "\(path): \(message) [\(kind.rawValue)]" }
}

/// Why a file could not be loaded. `description` is one line:
/// `file: JSON path: message` for content errors, `file:line:column: message` for JSON syntax errors.
public struct AHAPError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String?
    /// JSON path of the offending value (content errors), nil for syntax and I/O errors.
    public var path: String?
    /// 1-based position of the offending value or character, when known.
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String? = nil, path: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        let name = file ?? "<input>"
        if let path { return "\(name): \(path): \(message)" }
        if let line, let column { return "\(name):\(line):\(column): \(message)" }
        return "\(name): \(message)"
    }
}
