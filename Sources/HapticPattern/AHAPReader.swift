/// Walks a parsed AHAP file and collects events, parameter steps and curves, applying the
/// per-value rules of docs/ahap.md (names, types, ranges, required keys). Whole-pattern repairs
/// (sorting, splitting long events, absolute curve times) are in AHAPRepairs.swift.
struct AHAPReader {
    let tree: JSONTree
    let mode: AHAPMode
    let file: String?
    var warnings: [AHAPWarning] = []

    /// Collected items, each with the index of the `Pattern` item it came from (for diagnostics).
    var events: [HapticEvent] = []
    var eventItems: [Int] = []
    var steps: [DynamicParameter] = []
    var stepItems: [Int] = []
    var curves: [ParameterCurve] = []
    var curveItems: [Int] = []
    var metadata: [String: JSONValue] = [:]

    init(tree: JSONTree, mode: AHAPMode, file: String?) {
        self.tree = tree
        self.mode = mode
        self.file = file
    }

    var lenient: Bool { mode == .lenient }

    mutating func read() throws(AHAPError) -> AHAPDocument {
        let root = tree.root
        guard tree.kind(root) == .object else {
            throw error(root, .root, "expected an object, found \(tree.kind(root).article)")
        }
        var patternNode: Int?
        var patternPath = AHAPPath.root.name(.pattern)
        var versionSeen = false
        var seen = KeySet()
        for member in tree.members(root) {
            guard let key = try match(member.key, AHAPObjectSchema.root, in: .root, seen: &seen) else { continue }
            let path = AHAPPath.root.key(member.key)
            switch key {
            case .version:
                versionSeen = true
                try readVersion(member.value, path)
            case .metadata:
                if tree.kind(member.value) == .object, case .object(let object) = tree.value(at: member.value) {
                    metadata = object
                } else {
                    let found = tree.kind(member.value).article
                    try reject(member.value, path, "expected an object, found \(found)",
                               or: .skipped, "Metadata is \(found), not an object; ignored")
                }
            case .pattern:
                patternNode = member.value
                patternPath = path
            default:
                break
            }
        }
        if !versionSeen {
            warn(.version, .root, "no Version key; read as 1.0")
        }
        guard let patternNode else {
            throw error(root, .root, "missing key Pattern")
        }
        try expect(patternNode, .array, patternPath)
        events.reserveCapacity(tree.count(patternNode))
        eventItems.reserveCapacity(tree.count(patternNode))
        var item = 0
        var child = patternNode + 1
        let end = tree.next(after: patternNode)
        while child < end {
            try readItem(child, index: item, path: patternPath.index(item))
            child = tree.next(after: child)
            item += 1
        }
        var repairs = AHAPRepairs(reader: self)
        let pattern = try repairs.run()
        var all = repairs.warnings
        if lenient { all += trailingCommaWarnings() }
        return AHAPDocument(pattern: pattern, warnings: all)
    }

    // MARK: Items

    private mutating func readVersion(_ node: Int, _ path: AHAPPath) throws(AHAPError) {
        guard tree.kind(node) == .number else {
            let found = tree.kind(node).article
            try reject(node, path, "expected a number, found \(found)",
                       or: .version, "Version is \(found), not a number; read as 1.0")
            return
        }
        let version = AHAPText.number(tree.number(node))
        if tree.number(node) != 1 {
            try reject(node, path, "Version \(version) is not supported (AHAP 1.0 only)",
                       or: .version, "Version \(version) is not 1.0; read as 1.0")
        }
    }

    private mutating func readItem(_ node: Int, index: Int, path: AHAPPath) throws(AHAPError) {
        try expect(node, .object, path)
        var seen = KeySet()
        var kinds = 0
        var unknown = 0
        for member in tree.members(node) {
            guard let key = try match(member.key, AHAPObjectSchema.item, in: path, seen: &seen) else {
                unknown += 1
                continue
            }
            kinds += 1
            let valuePath = path.key(member.key)
            switch key {
            case .event: try readEvent(member.value, item: index, path: valuePath)
            case .parameter: try readParameter(member.value, item: index, path: valuePath)
            case .parameterCurve: try readCurve(member.value, item: index, path: valuePath)
            default: break
            }
        }
        if kinds == 0 && unknown == 0 {
            try reject(node, path, "an item needs one of Event, Parameter, ParameterCurve",
                       or: .skipped, "no Event, Parameter or ParameterCurve; item skipped")
        }
        if kinds > 1 {
            try reject(node, path, "an item holds exactly one of Event, Parameter, ParameterCurve",
                       or: .multipleItemKinds, "more than one of Event, Parameter, ParameterCurve; each is loaded")
        }
    }

    private mutating func readEvent(_ node: Int, item: Int, path: AHAPPath) throws(AHAPError) {
        try expect(node, .object, path)
        var seen = KeySet()
        var time: Double?
        var timeNode = node
        var type: HapticEventType?
        var typeMissing = true
        var duration: Double?
        var durationNode = node
        var durationPath = path.name(.eventDuration)
        var parameters: [EventParameterID: Double] = [:]
        var waveformPath: String?
        var useVolumeEnvelope: Bool?
        var loopEnabled: Bool?
        for member in tree.members(node) {
            guard let key = try match(member.key, AHAPObjectSchema.event, aliases: [.eventTime], in: path, seen: &seen)
            else { continue }
            let valuePath = path.key(member.key)
            let value = member.value
            switch key {
            case .time:
                time = try number(value, valuePath)
                timeNode = value
            case .eventType:
                try expect(value, .string, valuePath)
                typeMissing = false
                type = try resolve(value, AHAPNames.eventTypes, what: "EventType", path: valuePath, skipping: "event skipped")
            case .eventDuration:
                duration = try number(value, valuePath)
                durationNode = value
                durationPath = valuePath
            case .eventParameters:
                parameters = try readEventParameters(value, path: valuePath)
            case .eventWaveformPath:
                try expect(value, .string, valuePath)
                waveformPath = tree.string(value)
            case .eventWaveformUseVolumeEnvelope:
                try expect(value, .bool, valuePath)
                useVolumeEnvelope = tree.bool(value)
            case .eventWaveformLoopEnabled:
                try expect(value, .bool, valuePath)
                loopEnabled = tree.bool(value)
            default:
                break
            }
        }
        if typeMissing {
            try reject(node, path, "missing key EventType", or: .skipped, "no EventType; event skipped")
            return
        }
        guard let type else { return }  // an unknown type, already reported
        let start = try startTime(time, node: time == nil ? node : timeNode, path: path)
        var length = 0.0
        if type == .hapticTransient {
            if duration != nil {
                warn(.ignoredValue, durationPath, "EventDuration has no effect on a HapticTransient; ignored")
            }
        } else if let duration {
            length = try nonNegative(duration, node: durationNode, what: "EventDuration", path: durationPath)
            if length > AHAPDecoder.maximumContinuousDuration && type != .audioCustom && !lenient {
                throw error(durationNode, durationPath,
                            "EventDuration \(AHAPText.number(length)) s exceeds the 30 s limit of continuous events")
            }
        } else if type != .audioCustom {
            try reject(node, path, "missing key EventDuration (required for \(type.rawValue))",
                       or: .skipped, "no EventDuration on a \(type.rawValue); event skipped")
            return
        }
        if type == .audioCustom && waveformPath == nil {
            try reject(node, path, "missing key EventWaveformPath (required for AudioCustom)",
                       or: .missingKey, "no EventWaveformPath on an AudioCustom event; kept without one")
        }
        if type.isHaptic {
            if parameters[.hapticIntensity] == nil {
                warn(.missingParameter, path, "no HapticIntensity; kept absent, readers apply the default (docs/ahap.md)")
            }
            if parameters[.hapticSharpness] == nil {
                warn(.missingParameter, path, "no HapticSharpness; kept absent, readers apply the default (docs/ahap.md)")
            }
        }
        events.append(HapticEvent(
            type: type, time: start, duration: length, parameters: parameters,
            waveformPath: waveformPath, waveformUseVolumeEnvelope: useVolumeEnvelope, waveformLoopEnabled: loopEnabled
        ))
        eventItems.append(item)
    }

    private mutating func readEventParameters(_ node: Int, path: AHAPPath) throws(AHAPError) -> [EventParameterID: Double] {
        try expect(node, .array, path)
        var parameters: [EventParameterID: Double] = [:]
        var index = 0
        var child = node + 1
        let end = tree.next(after: node)
        while child < end {
            let entry = child
            let entryPath = path.index(index)
            child = tree.next(after: child)
            index += 1
            try expect(entry, .object, entryPath)
            var seen = KeySet()
            var id: EventParameterID?
            var idMissing = true
            var value: Double?
            var valueNode = entry
            var valuePath = entryPath.name(.parameterValue)
            for member in tree.members(entry) {
                guard let key = try match(member.key, AHAPObjectSchema.eventParameter, in: entryPath, seen: &seen)
                else { continue }
                let memberPath = entryPath.key(member.key)
                if key == .parameterID {
                    try expect(member.value, .string, memberPath)
                    idMissing = false
                    id = try resolve(member.value, AHAPNames.eventParameters, what: "ParameterID", path: memberPath,
                                     skipping: "parameter skipped")
                } else {
                    value = try number(member.value, memberPath)
                    valueNode = member.value
                    valuePath = memberPath
                }
            }
            if idMissing {
                try reject(entry, entryPath, "missing key ParameterID", or: .skipped, "no ParameterID; parameter skipped")
                continue
            }
            guard let id else { continue }
            guard let value else {
                try reject(entry, entryPath, "missing key ParameterValue", or: .skipped, "no ParameterValue; parameter skipped")
                continue
            }
            if parameters[id] != nil {
                warn(.duplicateKey, entryPath, "\(id.rawValue) given more than once; the last value is used")
            }
            parameters[id] = try inRange(value, id.range, node: valueNode, what: id.rawValue, path: valuePath)
        }
        return parameters
    }

    private mutating func readParameter(_ node: Int, item: Int, path: AHAPPath) throws(AHAPError) {
        try expect(node, .object, path)
        var seen = KeySet()
        var id: DynamicParameterID?
        var idMissing = true
        var time: Double?
        var timeNode = node
        var value: Double?
        var valueNode = node
        var valuePath = path.name(.parameterValue)
        for member in tree.members(node) {
            guard let key = try match(member.key, AHAPObjectSchema.parameter, aliases: [.parameterTime], in: path, seen: &seen)
            else { continue }
            let memberPath = path.key(member.key)
            switch key {
            case .parameterID:
                try expect(member.value, .string, memberPath)
                idMissing = false
                id = try resolve(member.value, AHAPNames.dynamicParameters, what: "ParameterID", path: memberPath,
                                 skipping: "parameter step skipped")
            case .time:
                time = try number(member.value, memberPath)
                timeNode = member.value
            default:
                value = try number(member.value, memberPath)
                valueNode = member.value
                valuePath = memberPath
            }
        }
        if idMissing {
            try reject(node, path, "missing key ParameterID", or: .skipped, "no ParameterID; parameter step skipped")
            return
        }
        guard let id else { return }
        guard let value else {
            try reject(node, path, "missing key ParameterValue", or: .skipped, "no ParameterValue; parameter step skipped")
            return
        }
        let start = try startTime(time, node: time == nil ? node : timeNode, path: path)
        let clamped = try inRange(value, id.range, node: valueNode, what: id.rawValue, path: valuePath)
        steps.append(DynamicParameter(id, value: clamped, at: start))
        stepItems.append(item)
    }

    private mutating func readCurve(_ node: Int, item: Int, path: AHAPPath) throws(AHAPError) {
        try expect(node, .object, path)
        var seen = KeySet()
        var id: DynamicParameterID?
        var idMissing = true
        var time: Double?
        var timeNode = node
        var pointsNode: Int?
        var pointsPath = path.name(.parameterCurveControlPoints)
        for member in tree.members(node) {
            guard let key = try match(member.key, AHAPObjectSchema.curve, aliases: [.parameterTime], in: path, seen: &seen)
            else { continue }
            let memberPath = path.key(member.key)
            switch key {
            case .parameterID:
                try expect(member.value, .string, memberPath)
                idMissing = false
                id = try resolve(member.value, AHAPNames.dynamicParameters, what: "ParameterID", path: memberPath,
                                 skipping: "curve skipped")
            case .time:
                time = try number(member.value, memberPath)
                timeNode = member.value
            default:
                try expect(member.value, .array, memberPath)
                pointsNode = member.value
                pointsPath = memberPath
            }
        }
        if idMissing {
            try reject(node, path, "missing key ParameterID", or: .skipped, "no ParameterID; curve skipped")
            return
        }
        guard let id else { return }
        guard let pointsNode else {
            try reject(node, path, "missing key ParameterCurveControlPoints", or: .skipped, "no control points; curve skipped")
            return
        }
        let start = try startTime(time, node: time == nil ? node : timeNode, path: path)
        let points = try readControlPoints(pointsNode, id: id, path: pointsPath)
        if points.isEmpty {
            try reject(pointsNode, pointsPath, "a curve needs at least one control point",
                       or: .skipped, "no control points; curve skipped")
            return
        }
        curves.append(ParameterCurve(id, at: start, points: points))
        curveItems.append(item)
    }

    private mutating func readControlPoints(_ node: Int, id: DynamicParameterID, path: AHAPPath) throws(AHAPError) -> [ControlPoint] {
        var points: [ControlPoint] = []
        points.reserveCapacity(tree.count(node))
        var index = 0
        var child = node + 1
        let end = tree.next(after: node)
        while child < end {
            let entry = child
            let entryPath = path.index(index)
            child = tree.next(after: child)
            index += 1
            try expect(entry, .object, entryPath)
            var seen = KeySet()
            var time: Double?
            var timeNode = entry
            var timePath = entryPath.name(.time)
            var value: Double?
            var valueNode = entry
            var valuePath = entryPath.name(.parameterValue)
            for member in tree.members(entry) {
                guard let key = try match(member.key, AHAPObjectSchema.controlPoint, aliases: [.parameterTime],
                                          in: entryPath, seen: &seen) else { continue }
                let memberPath = entryPath.key(member.key)
                if key == .time {
                    time = try number(member.value, memberPath)
                    timeNode = member.value
                    timePath = memberPath
                } else {
                    value = try number(member.value, memberPath)
                    valueNode = member.value
                    valuePath = memberPath
                }
            }
            guard let time else {
                try reject(entry, entryPath, "missing key Time", or: .skipped, "no Time; control point skipped")
                continue
            }
            guard let value else {
                try reject(entry, entryPath, "missing key ParameterValue", or: .skipped, "no ParameterValue; control point skipped")
                continue
            }
            let pointTime = try nonNegative(time, node: timeNode, what: "Time", path: timePath)
            let pointValue = try inRange(value, id.range, node: valueNode, what: id.rawValue, path: valuePath)
            points.append(ControlPoint(time: pointTime, value: pointValue))
        }
        return points
    }

    // MARK: Values

    /// `Time` of an event, step or curve: required (strict) or 0 (lenient); never negative.
    private mutating func startTime(_ time: Double?, node: Int, path: AHAPPath) throws(AHAPError) -> Double {
        guard let time else {
            try reject(node, path, "missing key Time", or: .missingKey, "no Time; read as 0")
            return 0
        }
        return try nonNegative(time, node: node, what: "Time", path: path.name(.time))
    }

    /// Negative times and durations: an error (strict) or 0 with a warning (lenient).
    private mutating func nonNegative(_ value: Double, node: Int, what: String, path: AHAPPath) throws(AHAPError) -> Double {
        guard value < 0 else { return value }
        try reject(node, path, "\(what) \(AHAPText.number(value)) is negative",
                   or: .outOfRange, "\(what) \(AHAPText.number(value)) is negative; clamped to 0")
        return 0
    }

    /// Values outside their documented range: an error (strict) or clamped with a warning (lenient).
    private mutating func inRange(_ value: Double, _ range: ClosedRange<Double>, node: Int, what: String,
                                  path: AHAPPath) throws(AHAPError) -> Double {
        guard !range.contains(value) else { return value }
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        let bounds = "\(AHAPText.number(range.lowerBound))...\(AHAPText.number(range.upperBound))"
        try reject(node, path, "\(what) \(AHAPText.number(value)) is outside \(bounds)",
                   or: .outOfRange, "\(what) \(AHAPText.number(value)) is outside \(bounds); clamped to \(AHAPText.number(clamped))")
        return clamped
    }

    private func number(_ node: Int, _ path: AHAPPath) throws(AHAPError) -> Double {
        try expect(node, .number, path)
        return tree.number(node)
    }

    /// Wrong JSON types are errors in both modes: there is no safe guess for them.
    private func expect(_ node: Int, _ kind: JSONTree.Kind, _ path: AHAPPath) throws(AHAPError) {
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
    private mutating func match(_ keyNode: Int, _ allowed: [AHAPKey], aliases: [AHAPAlias] = [],
                                in path: AHAPPath, seen: inout KeySet) throws(AHAPError) -> AHAPKey? {
        var found: AHAPKey?
        for key in allowed where tree.stringEquals(keyNode, key.bytes) {
            found = key
            break
        }
        if found == nil {
            let keyPath = path.key(keyNode)
            let written = AHAPText.quoted(tree.string(keyNode))
            if let key = allowed.first(where: { tree.stringEquals(keyNode, $0.bytes, ignoringCase: true) }) {
                try reject(keyNode, keyPath, "unknown key \(written) (did you mean \(key.name)?)",
                           or: .nameCase, "key \(written) read as \(key.name)")
                found = key
            } else if let alias = aliases.first(where: { tree.stringEquals(keyNode, $0.bytes, ignoringCase: true) }) {
                try reject(keyNode, keyPath, "unknown key \(written) (AHAP spells it \(alias.key.name))",
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

    /// Resolves an enum name (event type, parameter ID): exact; lenient mode also ignores letter case.
    /// Unknown names: an error (strict) or nil with a warning (lenient), and the caller skips the value.
    private mutating func resolve<Value>(_ node: Int, _ table: AHAPNameTable<Value>, what: String,
                                         path: AHAPPath, skipping: String) throws(AHAPError) -> Value? {
        for index in table.utf8.indices where tree.stringEquals(node, table.utf8[index]) {
            return table.cases[index]
        }
        let written = AHAPText.quoted(tree.string(node))
        for index in table.utf8.indices where tree.stringEquals(node, table.utf8[index], ignoringCase: true) {
            let value = table.cases[index]
            try reject(node, path, "unknown \(what) \(written) (did you mean \(value.rawValue)?)",
                       or: .nameCase, "\(what) \(written) read as \(value.rawValue)")
            return value
        }
        try reject(node, path, "unknown \(what) \(written)", or: .skipped, "unknown \(what) \(written); \(skipping)")
        return nil
    }

    // MARK: Diagnostics

    mutating func warn(_ kind: AHAPWarning.Kind, _ path: AHAPPath, _ message: String) {
        warnings.append(AHAPWarning(kind: kind, path: path.render(tree), message: message))
    }

    /// Strict mode: throw `strictMessage`. Lenient mode: record the repair as a warning and go on.
    private mutating func reject(_ node: Int, _ path: AHAPPath, _ strictMessage: String,
                                 or kind: AHAPWarning.Kind, _ lenientMessage: String) throws(AHAPError) {
        guard lenient else { throw error(node, path, strictMessage) }
        warn(kind, path, lenientMessage)
    }

    func error(_ node: Int, _ path: AHAPPath, _ message: String) -> AHAPError {
        let position = tree.lineColumn(atOffset: tree.offset(node))
        return AHAPError(file: file, path: path.render(tree), line: position.line, column: position.column, message: message)
    }

    /// Warnings for trailing commas (lenient mode only: strict mode fails in the parser).
    /// Descends only into subtrees that hold a flagged container, so the cost stays small even for
    /// a 50 MB file with one trailing comma.
    private func trailingCommaWarnings() -> [AHAPWarning] {
        var flagged: [Int] = []
        for (index, node) in tree.nodes.enumerated()
        where node.flags & JSONTree.trailingComma != 0 && (node.kind == .array || node.kind == .object) {
            flagged.append(index)
        }
        guard !flagged.isEmpty else { return [] }
        var result: [AHAPWarning] = []
        walk(tree.root, path: "", flagged: flagged, into: &result)
        return result
    }

    /// Recursive, bounded by the parser's depth limit.
    private func walk(_ node: Int, path: String, flagged: [Int], into result: inout [AHAPWarning]) {
        // Skip subtrees without a flagged container (binary search for the first index >= node).
        var low = 0
        var high = flagged.count
        while low < high {
            let middle = (low + high) / 2
            if flagged[middle] < node { low = middle + 1 } else { high = middle }
        }
        guard low < flagged.count, flagged[low] < tree.next(after: node) else { return }
        if tree.hasTrailingComma(node) {
            result.append(AHAPWarning(kind: .trailingComma, path: path.isEmpty ? "(root)" : path, message: "trailing comma ignored"))
        }
        switch tree.kind(node) {
        case .array:
            for (index, element) in tree.elements(node).enumerated() {
                walk(element, path: "\(path)[\(index)]", flagged: flagged, into: &result)
            }
        case .object:
            for member in tree.members(node) {
                let component = AHAPText.component(tree.string(member.key))
                let childPath = path.isEmpty && component.hasPrefix(".") ? String(component.dropFirst()) : path + component
                walk(member.value, path: childPath, flagged: flagged, into: &result)
            }
        default:
            break
        }
    }
}
