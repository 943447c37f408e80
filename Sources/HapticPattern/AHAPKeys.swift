/// The keys of the AHAP format, as Apple spells them (the encoder writes exactly these).
enum AHAPKey: Int, CaseIterable, Sendable {
    case version, metadata, pattern
    case event, parameter, parameterCurve
    case time, eventType, eventDuration, eventParameters
    case eventWaveformPath, eventWaveformUseVolumeEnvelope, eventWaveformLoopEnabled
    case parameterID, parameterValue, parameterCurveControlPoints

    static let names: [String] = [
        "Version", "Metadata", "Pattern",
        "Event", "Parameter", "ParameterCurve",
        "Time", "EventType", "EventDuration", "EventParameters",
        "EventWaveformPath", "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled",
        "ParameterID", "ParameterValue", "ParameterCurveControlPoints",
    ]

    /// UTF-8 of each name, computed once: key matching compares raw bytes without allocating.
    static let utf8: [[UInt8]] = names.map { Array($0.utf8) }

    var name: String { Self.names[rawValue] }
    var bytes: [UInt8] { Self.utf8[rawValue] }
}

/// Keys some tools write instead of `Time` (seen in third-party exporters); lenient mode reads them as `Time`.
struct AHAPAlias: Sendable {
    var name: String
    var bytes: [UInt8]
    var key: AHAPKey

    init(_ name: String, _ key: AHAPKey) {
        self.name = name
        self.bytes = Array(name.utf8)
        self.key = key
    }

    static let eventTime = AHAPAlias("EventTime", .time)
    static let parameterTime = AHAPAlias("ParameterTime", .time)
}

/// Which keys each kind of object may hold.
enum AHAPObjectSchema {
    static let root: [AHAPKey] = [.version, .metadata, .pattern]
    static let item: [AHAPKey] = [.event, .parameter, .parameterCurve]
    static let event: [AHAPKey] = [
        .time, .eventType, .eventDuration, .eventParameters,
        .eventWaveformPath, .eventWaveformUseVolumeEnvelope, .eventWaveformLoopEnabled,
    ]
    static let eventParameter: [AHAPKey] = [.parameterID, .parameterValue]
    static let parameter: [AHAPKey] = [.parameterID, .time, .parameterValue]
    static let curve: [AHAPKey] = [.parameterID, .time, .parameterCurveControlPoints]
    static let controlPoint: [AHAPKey] = [.time, .parameterValue]
}

/// Byte tables for enum raw values (event types, parameter IDs), for allocation-free matching.
struct AHAPNameTable<Value: RawRepresentable & CaseIterable & Sendable>: Sendable where Value.RawValue == String {
    let cases: [Value]
    let utf8: [[UInt8]]

    init() {
        cases = Array(Value.allCases)
        utf8 = cases.map { Array($0.rawValue.utf8) }
    }
}

enum AHAPNames {
    static let eventTypes = AHAPNameTable<HapticEventType>()
    static let eventParameters = AHAPNameTable<EventParameterID>()
    static let dynamicParameters = AHAPNameTable<DynamicParameterID>()
}

/// Path and message formatting shared by the decoder's diagnostics.
enum AHAPText {
    /// `.Time` for identifier-like keys, `["odd key"]` otherwise, so a path is unambiguous.
    static func component(_ key: String) -> String {
        let identifier =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
            } && !(key.utf8.first! >= 0x30 && key.utf8.first! <= 0x39)
        return identifier ? ".\(key)" : "[\(quoted(key))]"
    }

    /// A string from the input, quoted, escaped and shortened to 40 characters so a message stays on one line.
    static func quoted(_ text: String) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 40 {
                out += "..."
                break
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value < 0xA0)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out + "\""
    }

    /// Shortest round-trip text of a number, for messages ("1.02", "-1.0").
    static func number(_ value: Double) -> String { "\(value)" }
}
