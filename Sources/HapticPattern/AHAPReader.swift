/// Walks a parsed AHAP file and collects events, parameter steps and curves, applying the
/// per-value rules of docs/ahap.md (names, types, ranges, required keys). The value checks are in
/// AHAPReaderValues.swift, the diagnostics in AHAPReaderDiagnostics.swift; whole-pattern repairs
/// (sorting, splitting long events, absolute curve times) are in AHAPRepairs.swift.
struct AHAPReader {
    let tree: JSONTree
    let mode: AHAPMode
    let file: String?
    /// The node of the AHAP object: the tree's root for a file, a value inside it for a pattern
    /// written inline in a haptic set (docs/channels.md). Paths are relative to it.
    let root: Int
    var warnings: [AHAPWarning] = []

    /// Collected items, each with the index of the `Pattern` item it came from (for diagnostics).
    var events: [HapticEvent] = []
    var eventItems: [Int] = []
    var steps: [DynamicParameter] = []
    var stepItems: [Int] = []
    var curves: [ParameterCurve] = []
    var curveItems: [Int] = []
    var metadata: [String: JSONValue] = [:]

    init(tree: JSONTree, mode: AHAPMode, file: String?, root: Int = 0) {
        self.tree = tree
        self.mode = mode
        self.file = file
        self.root = root
    }

    var lenient: Bool { mode == .lenient }

    mutating func read() throws(AHAPError) -> AHAPDocument {
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
            if nullIsAbsent(member.value, key, path) { continue }
            switch key {
            case .version:
                versionSeen = true
                try readVersion(member.value, path)
            case .metadata:
                if tree.kind(member.value) == .object, case .object(let object) = tree.value(at: member.value) {
                    metadata = object
                } else {
                    let found = tree.kind(member.value).article
                    try reject(
                        member.value, path, "expected an object, found \(found)",
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
        for (item, child) in tree.elements(patternNode).enumerated() {
            try readItem(child, index: item, path: patternPath.index(item))
        }
        var repairs = AHAPRepairs(reader: self)
        let pattern = try repairs.run()
        var all = repairs.warnings
        // An inline pattern's trailing commas are reported with the whole set file's.
        if lenient && root == tree.root { all += trailingCommaWarnings() }
        return AHAPDocument(pattern: pattern, warnings: all)
    }

    // MARK: Items

    private mutating func readVersion(_ node: Int, _ path: AHAPPath) throws(AHAPError) {
        guard tree.kind(node) == .number else {
            let found = tree.kind(node).article
            try reject(
                node, path, "expected a number, found \(found)",
                or: .version, "Version is \(found), not a number; read as 1.0")
            return
        }
        let version = AHAPText.number(tree.number(node))
        if tree.number(node) != 1 {
            try reject(
                node, path, "Version \(version) is not supported (AHAP 1.0 only)",
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
            let valuePath = path.key(member.key)
            if nullIsAbsent(member.value, key, valuePath) { continue }
            kinds += 1
            switch key {
            case .event: try readEvent(member.value, item: index, path: valuePath)
            case .parameter: try readParameter(member.value, item: index, path: valuePath)
            case .parameterCurve: try readCurve(member.value, item: index, path: valuePath)
            default: break
            }
        }
        if kinds == 0 && unknown == 0 {
            try reject(
                node, path, "an item needs one of Event, Parameter, ParameterCurve",
                or: .skipped, "no Event, Parameter or ParameterCurve; item skipped")
        }
        if kinds > 1 {
            try reject(
                node, path, "an item holds exactly one of Event, Parameter, ParameterCurve",
                or: .multipleItemKinds, "more than one of Event, Parameter, ParameterCurve; each is loaded")
        }
    }

    private mutating func readEvent(_ node: Int, item: Int, path: AHAPPath) throws(AHAPError) {
        try expect(node, .object, path)
        var seen = KeySet()
        var time = Field<Double>(node, path.name(.time))
        var type = Field<HapticEventType>(node, path.name(.eventType))
        var duration = Field<Double>(node, path.name(.eventDuration))
        var parameters: [EventParameterID: Double] = [:]
        var waveformPath: String?
        var useVolumeEnvelope: Bool?
        var loopEnabled: Bool?
        for member in tree.members(node) {
            guard let key = try match(member.key, AHAPObjectSchema.event, aliases: [.eventTime], in: path, seen: &seen)
            else { continue }
            let valuePath = path.key(member.key)
            if nullIsAbsent(member.value, key, valuePath) { continue }
            let value = member.value
            switch key {
            case .time:
                try time.set(number(value, valuePath), value, valuePath)
            case .eventType:
                try type.set(
                    resolve(
                        value, AHAPNames.eventTypes, what: "EventType", path: valuePath,
                        skipping: "event skipped"), value, valuePath)
            case .eventDuration:
                try duration.set(number(value, valuePath), value, valuePath)
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
        guard let type = try required(type, .eventType, in: node, path, skipping: "event") else { return }
        let start = try startTime(time, path: path)
        var length = 0.0
        if type == .hapticTransient {
            if duration.written {
                warn(.ignoredValue, duration.path, "EventDuration has no effect on a HapticTransient; ignored")
            }
        } else if let value = duration.value {
            length = try nonNegative(value, node: duration.node, what: "EventDuration", path: duration.path)
            if length > AHAPDecoder.maximumContinuousDuration && type != .audioCustom && !lenient {
                throw error(
                    duration.node, duration.path,
                    "EventDuration \(AHAPText.number(length)) s exceeds the 30 s limit of continuous events")
            }
        } else if type != .audioCustom {
            try reject(
                node, path, "missing key EventDuration (required for \(type.rawValue))",
                or: .skipped, "no EventDuration on a \(type.rawValue); event skipped")
            return
        }
        if type == .audioCustom && waveformPath == nil {
            try reject(
                node, path, "missing key EventWaveformPath (required for AudioCustom)",
                or: .missingKey, "no EventWaveformPath on an AudioCustom event; kept without one")
        }
        if type.isHaptic {
            for id in [EventParameterID.hapticIntensity, .hapticSharpness] where parameters[id] == nil {
                warn(.missingParameter, path, "no \(id.rawValue); kept absent, readers apply the default (docs/ahap.md)")
            }
        }
        events.append(
            HapticEvent(
                type: type, time: start, duration: length, parameters: parameters,
                waveformPath: waveformPath, waveformUseVolumeEnvelope: useVolumeEnvelope, waveformLoopEnabled: loopEnabled
            ))
        eventItems.append(item)
    }

    private mutating func readEventParameters(_ node: Int, path: AHAPPath) throws(AHAPError) -> [EventParameterID: Double] {
        try expect(node, .array, path)
        var parameters: [EventParameterID: Double] = [:]
        for (index, entry) in tree.elements(node).enumerated() {
            let entryPath = path.index(index)
            try expect(entry, .object, entryPath)
            var seen = KeySet()
            var id = Field<EventParameterID>(entry, entryPath.name(.parameterID))
            var value = Field<Double>(entry, entryPath.name(.parameterValue))
            for member in tree.members(entry) {
                guard let key = try match(member.key, AHAPObjectSchema.eventParameter, in: entryPath, seen: &seen)
                else { continue }
                let memberPath = entryPath.key(member.key)
                if nullIsAbsent(member.value, key, memberPath) { continue }
                if key == .parameterID {
                    try id.set(
                        resolve(
                            member.value, AHAPNames.eventParameters, what: "ParameterID", path: memberPath,
                            skipping: "parameter skipped"), member.value, memberPath)
                } else {
                    try value.set(number(member.value, memberPath), member.value, memberPath)
                }
            }
            guard let id = try required(id, .parameterID, in: entry, entryPath, skipping: "parameter"),
                let rawValue = try required(value, .parameterValue, in: entry, entryPath, skipping: "parameter")
            else { continue }
            if parameters[id] != nil {
                warn(.duplicateKey, entryPath, "\(id.rawValue) given more than once; the last value is used")
            }
            parameters[id] = try inRange(rawValue, id.range, node: value.node, what: id.rawValue, path: value.path)
        }
        return parameters
    }

    private mutating func readParameter(_ node: Int, item: Int, path: AHAPPath) throws(AHAPError) {
        guard
            let (id, start, valueNode, valuePath) = try readParameterObject(
                node, path: path, schema: AHAPObjectSchema.parameter, valueKey: .parameterValue, kind: .number,
                skipping: "parameter step"
            )
        else { return }
        let clamped = try inRange(tree.number(valueNode), id.range, node: valueNode, what: id.rawValue, path: valuePath)
        steps.append(DynamicParameter(id, value: clamped, at: start))
        stepItems.append(item)
    }

    private mutating func readCurve(_ node: Int, item: Int, path: AHAPPath) throws(AHAPError) {
        guard
            let (id, start, pointsNode, pointsPath) = try readParameterObject(
                node, path: path, schema: AHAPObjectSchema.curve, valueKey: .parameterCurveControlPoints, kind: .array,
                skipping: "curve", called: "control points"
            )
        else { return }
        let points = try readControlPoints(pointsNode, id: id, path: pointsPath)
        if points.isEmpty {
            try reject(
                pointsNode, pointsPath, "a curve needs at least one control point",
                or: .skipped, "no control points; curve skipped")
            return
        }
        curves.append(ParameterCurve(id, at: start, points: points))
        curveItems.append(item)
    }

    /// What a `Parameter` and a `ParameterCurve` have in common: a `ParameterID`, a `Time`, and one
    /// more key, `valueKey` (a number for a step, an array of control points for a curve), returned as
    /// its node. Nil when the object is skipped (lenient mode) for a missing or unknown key.
    private mutating func readParameterObject(
        _ node: Int, path: AHAPPath, schema: [AHAPKey], valueKey: AHAPKey, kind: JSONTree.Kind,
        skipping thing: String, called label: String? = nil
    ) throws(AHAPError) -> (id: DynamicParameterID, time: Double, valueNode: Int, valuePath: AHAPPath)? {
        try expect(node, .object, path)
        var seen = KeySet()
        var id = Field<DynamicParameterID>(node, path.name(.parameterID))
        var time = Field<Double>(node, path.name(.time))
        var value = Field<Int>(node, path.name(valueKey))
        for member in tree.members(node) {
            guard let key = try match(member.key, schema, aliases: [.parameterTime], in: path, seen: &seen)
            else { continue }
            let memberPath = path.key(member.key)
            if nullIsAbsent(member.value, key, memberPath) { continue }
            switch key {
            case .parameterID:
                try id.set(
                    resolve(
                        member.value, AHAPNames.dynamicParameters, what: "ParameterID", path: memberPath,
                        skipping: "\(thing) skipped"), member.value, memberPath)
            case .time:
                try time.set(number(member.value, memberPath), member.value, memberPath)
            default:
                try expect(member.value, kind, memberPath)
                value.set(member.value, member.value, memberPath)
            }
        }
        guard let id = try required(id, .parameterID, in: node, path, skipping: thing),
            let valueNode = try required(value, valueKey, in: node, path, skipping: thing, called: label)
        else { return nil }
        return (id, try startTime(time, path: path), valueNode, value.path)
    }

    private mutating func readControlPoints(_ node: Int, id: DynamicParameterID, path: AHAPPath) throws(AHAPError) -> [ControlPoint] {
        var points: [ControlPoint] = []
        points.reserveCapacity(tree.count(node))
        for (index, entry) in tree.elements(node).enumerated() {
            let entryPath = path.index(index)
            try expect(entry, .object, entryPath)
            var seen = KeySet()
            var time = Field<Double>(entry, entryPath.name(.time))
            var value = Field<Double>(entry, entryPath.name(.parameterValue))
            for member in tree.members(entry) {
                guard
                    let key = try match(
                        member.key, AHAPObjectSchema.controlPoint, aliases: [.parameterTime],
                        in: entryPath, seen: &seen)
                else { continue }
                let memberPath = entryPath.key(member.key)
                if nullIsAbsent(member.value, key, memberPath) { continue }
                if key == .time {
                    try time.set(number(member.value, memberPath), member.value, memberPath)
                } else {
                    try value.set(number(member.value, memberPath), member.value, memberPath)
                }
            }
            guard let rawTime = try required(time, .time, in: entry, entryPath, skipping: "control point"),
                let rawValue = try required(value, .parameterValue, in: entry, entryPath, skipping: "control point")
            else { continue }
            let pointTime = try nonNegative(rawTime, node: time.node, what: "Time", path: time.path)
            let pointValue = try inRange(rawValue, id.range, node: value.node, what: id.rawValue, path: value.path)
            points.append(ControlPoint(time: pointTime, value: pointValue))
        }
        return points
    }
}
