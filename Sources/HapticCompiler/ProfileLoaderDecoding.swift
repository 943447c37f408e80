import Foundation
import HapticPattern

/// Profile file (JSON) to `ActuatorProfile`, with every rule of hardware/actuators/README.md
/// checked and reported as "file: key.path: message".
enum ProfileDecoding {
    static func decode(_ bytes: [UInt8], file: String) throws(ProfileError) -> ActuatorProfile {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            var detail = context.debugDescription
            if let underlying = context.underlyingError { detail += " " + String(describing: underlying) }
            throw ProfileError(file: file, keyPath: nil, message: "not valid JSON: \(detail)")
        } catch {
            throw ProfileError(file: file, keyPath: nil, message: "not valid JSON: \(error)")
        }
        return try decode(value, file: file)
    }

    static let rootKeys = [
        "name", "kind", "part", "description", "drive", "lra", "erm", "voice-coil",
        "edges", "transfer", "sharpness", "sources",
    ]

    static func decode(_ value: JSONValue, file: String) throws(ProfileError) -> ActuatorProfile {
        let root = try ProfileFields(file: file, path: "", value: value, allowed: rootKeys)
        let name = try root.string("name")
        try root.check(
            !name.isEmpty && name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" },
            "name", "use lowercase letters, digits and dashes only ('\(name)')")
        let kindName = try root.choice("kind", ActuatorKind.allCases.map(\.rawValue))
        let kind = ActuatorKind(rawValue: kindName)!
        for other in ActuatorKind.allCases where other != kind && root.has(other.rawValue) {
            throw root.error(other.rawValue, "section for kind '\(other.rawValue)' in a profile of kind '\(kindName)'")
        }

        let drive = try decodeDrive(root, kind: kind)
        let mechanics = try decodeMechanics(root, kind: kind)
        let edges = try decodeEdges(root, drive: drive, mechanics: mechanics)
        let transfer = try decodeTransfer(root, mechanics: mechanics, drive: drive, edges: edges)
        let sharpness = try decodeSharpness(root, mechanics: mechanics)
        try checkStart(root, mechanics: mechanics, transfer: transfer, sharpness: sharpness, drive: drive, edges: edges)
        let sources = try decodeSources(root, document: value)

        return ActuatorProfile(
            name: name, part: try root.string("part"), description: try root.string("description"),
            drive: drive, mechanics: mechanics, edges: edges, transfer: transfer,
            sharpness: sharpness, sources: sources)
    }

    private static func decodeDrive(_ root: ProfileFields, kind: ActuatorKind) throws(ProfileError) -> ActuatorProfile.Drive {
        let d = try root.object("drive", allowed: ["ratedVolts", "overdriveVolts", "voltage"])
        let rated = try d.positive("ratedVolts")
        let overdrive = try d.number("overdriveVolts")
        try d.check(overdrive >= rated, "overdriveVolts", "must be at least ratedVolts (\(rated)); equal means no overdrive")
        let voltage = ActuatorProfile.Drive.Voltage(rawValue: try d.choice("voltage", ["rms", "dc"]))!
        let expected: ActuatorProfile.Drive.Voltage = kind == .erm ? .dc : .rms
        try d.check(voltage == expected, "voltage", "a \(kind.rawValue) is driven with \(expected.rawValue) volts")
        return ActuatorProfile.Drive(ratedVolts: rated, overdriveVolts: overdrive, voltage: voltage)
    }

    /// The resonance of an LRA or a voice coil: its frequency and a quality factor above 0.5
    /// (`why` says why, in the error).
    private static func resonance(_ s: ProfileFields, _ why: String) throws(ProfileError) -> (Double, Double) {
        let f0 = try s.positive("resonanceHz")
        let q = try s.number("qualityFactor")
        try s.check(q > 0.5, "qualityFactor", "must be above 0.5 (\(why))")
        return (f0, q)
    }

    private static func decodeMechanics(_ root: ProfileFields, kind: ActuatorKind) throws(ProfileError) -> ActuatorProfile.Mechanics {
        switch kind {
        case .lra:
            let s = try root.object("lra", allowed: ["resonanceHz", "qualityFactor", "closedLoop", "bandHz"])
            let (f0, q) = try resonance(s, "an underdamped resonator")
            let closed = try s.bool("closedLoop")
            var band: ClosedRange<Double>?
            if closed {
                try s.check(!s.has("bandHz"), "bandHz", "a closed-loop driver tracks the resonance: no band")
            } else {
                let b = try s.range("bandHz")
                try s.check(b.lowerBound > 0 && b.contains(f0), "bandHz", "must be positive and contain resonanceHz (\(f0))")
                band = b
            }
            return .lra(.init(resonanceHz: f0, qualityFactor: q, closedLoop: closed, bandHz: band))
        case .voiceCoil:
            let s = try root.object("voice-coil", allowed: ["resonanceHz", "qualityFactor", "bandHz", "referenceHz"])
            let (f0, q) = try resonance(s, "the model is an underdamped resonator")
            let band = try s.range("bandHz")
            try s.check(band.lowerBound > 0, "bandHz", "must be positive")
            let reference = try s.number("referenceHz")
            try s.check(band.contains(reference), "referenceHz", "must lie in bandHz")
            return .voiceCoil(.init(resonanceHz: f0, qualityFactor: q, bandHz: band, referenceHz: reference))
        case .erm:
            let s = try root.object(
                "erm",
                allowed: [
                    "timeConstantMs", "coastTimeConstantMs", "ratedSpeedRPM",
                    "startLevel", "minimumRunningLevel", "bidirectional",
                ])
            let tau = try s.positive("timeConstantMs")
            let coast = try s.positive("coastTimeConstantMs")
            let rpm = try s.positive("ratedSpeedRPM")
            let start = try s.number("startLevel")
            try s.check(start >= 0 && start <= 1, "startLevel", "must be a fraction of rated drive, 0...1")
            let running = try s.number("minimumRunningLevel")
            try s.check(running >= 0 && running <= start, "minimumRunningLevel", "must be in 0...startLevel (\(start))")
            return .erm(
                .init(
                    timeConstantMs: tau, coastTimeConstantMs: coast, ratedSpeedRPM: rpm, startLevel: start,
                    minimumRunningLevel: running, bidirectional: try s.bool("bidirectional")))
        }
    }

    private static func decodeEdges(
        _ root: ProfileFields, drive: ActuatorProfile.Drive,
        mechanics: ActuatorProfile.Mechanics
    ) throws(ProfileError) -> ActuatorProfile.Edges {
        let e = try root.object("edges", allowed: ["kickMs", "brakeMs", "brakeRatio"])
        let kick = try e.integer("kickMs")
        try e.check(kick >= 0 && kick <= 1000, "kickMs", "must be in 0...1000")
        try e.check(kick == 0 || drive.overdriveRatio > 1, "kickMs", "a kick needs overdriveVolts above ratedVolts")
        let brake = try e.integer("brakeMs")
        try e.check(brake >= 0 && brake <= 1000, "brakeMs", "must be in 0...1000")
        let ratio = try e.number("brakeRatio")
        try e.check(
            ratio >= 0 && ratio <= drive.overdriveRatio * (1 + 1e-9), "brakeRatio",
            "must be in 0...overdriveVolts/ratedVolts (\(drive.overdriveRatio)): the brake cannot exceed the overdrive")
        try e.check((brake == 0) == (ratio == 0), "brakeRatio", "brakeMs and brakeRatio are both zero or both positive")
        if case .erm(let erm) = mechanics, !erm.bidirectional {
            try e.check(brake == 0, "brakeMs", "a unidirectional ERM driver cannot brake: set 0 (or erm.bidirectional)")
        }
        return ActuatorProfile.Edges(kickMs: kick, brakeMs: brake, brakeRatio: ratio)
    }

    private static func decodeTransfer(
        _ root: ProfileFields, mechanics: ActuatorProfile.Mechanics, drive: ActuatorProfile.Drive,
        edges: ActuatorProfile.Edges
    ) throws(ProfileError) -> IntensityTransfer {
        let t = try root.object("transfer", allowed: ["curve", "exponent", "points", "floor"])
        let curveName = try t.choice("curve", ["power", "linear", "table"])
        try t.check(curveName == "power" || !t.has("exponent"), "exponent", "only curve 'power' takes an exponent")
        try t.check(curveName == "table" || !t.has("points"), "points", "only curve 'table' takes points")
        let curve: IntensityTransfer.Curve
        switch curveName {
        case "power":
            let exponent = try t.number("exponent")
            try t.check(exponent > 0 && exponent <= 16, "exponent", "must be in (0, 16]")
            curve = .power(exponent: exponent)
        case "linear":
            curve = .linear
        default:
            curve = .table(try decodeTable(t))
        }
        let floor = try t.number("floor")
        try t.check(floor >= 0 && floor < 1, "floor", "must be a fraction of rated drive in 0..<1")
        if case .erm(let erm) = mechanics {
            try t.check(
                floor >= erm.minimumRunningLevel, "floor",
                "below erm.minimumRunningLevel (\(erm.minimumRunningLevel)): low intensities would stall the motor")
        }
        return IntensityTransfer(curve: curve, floor: floor)
    }

    private static func decodeTable(_ t: ProfileFields) throws(ProfileError) -> [IntensityTransfer.Point] {
        guard let raw = t.fields["points"] else { throw t.error("points", "missing required [[intensity, level], ...] list") }
        guard case .array(let items) = raw, items.count >= 2 else {
            throw t.error("points", "expected at least two [intensity, level] pairs")
        }
        var points: [IntensityTransfer.Point] = []
        for (index, item) in items.enumerated() {
            guard case .array(let pair) = item, pair.count == 2, case .number(let i) = pair[0], case .number(let l) = pair[1] else {
                throw t.error("points", "item \(index): expected [intensity, level]")
            }
            try t.check((0...1).contains(i) && (0...1).contains(l), "points", "item \(index): both values in 0...1")
            if let last = points.last {
                try t.check(i > last.intensity, "points", "item \(index): intensities must increase")
                try t.check(l >= last.level, "points", "item \(index): levels must not decrease (the transfer must be monotone)")
            }
            points.append(.init(intensity: i, level: l))
        }
        try t.check(
            points.first! == .init(intensity: 0, level: 0) && points.last! == .init(intensity: 1, level: 1),
            "points", "must start at [0, 0] and end at [1, 1]")
        return points
    }

    private static func decodeSharpness(_ root: ProfileFields, mechanics: ActuatorProfile.Mechanics) throws(ProfileError) -> SharpnessRendering {
        let s = try root.object("sharpness", allowed: ["render", "minHz", "maxHz", "scale", "minimumEdge"])
        let render = try s.choice("render", ["frequency", "edges"])
        if render == "edges" {
            for key in ["minHz", "maxHz", "scale"] { try s.check(!s.has(key), key, "only render 'frequency' takes \(key)") }
            let minimum = try s.number("minimumEdge")
            try s.check((0...1).contains(minimum), "minimumEdge", "must be in 0...1")
            if case .voiceCoil = mechanics { throw s.error("render", "a voice coil renders sharpness as frequency") }
            return .edges(minimumEdge: minimum)
        }
        try s.check(!s.has("minimumEdge"), "minimumEdge", "only render 'edges' takes minimumEdge")
        let lo = try s.number("minHz"), hi = try s.number("maxHz")
        try s.check(lo > 0 && lo < hi, "maxHz", "need 0 < minHz < maxHz")
        let scale = SharpnessRendering.Scale(rawValue: try s.choice("scale", SharpnessRendering.Scale.allCases.map(\.rawValue)))!
        let band: ClosedRange<Double>
        switch mechanics {
        case .erm:
            throw s.error("render", "an ERM's frequency follows its speed: render 'edges'")
        case .lra(let lra):
            guard let b = lra.bandHz else {
                throw s.error("render", "a closed-loop LRA drives at its resonance: render 'edges'")
            }
            band = b
        case .voiceCoil(let coil):
            band = coil.bandHz
        }
        try s.check(band.contains(lo) && band.contains(hi), "minHz", "minHz...maxHz must lie in the band \(band.lowerBound)...\(band.upperBound) Hz")
        return .frequency(minHz: lo, maxHz: hi, scale: scale)
    }

    /// An ERM at rest starts only from startLevel: a floor under it must be lifted by a kick
    /// that every sharpness gets (minimumEdge > 0) and that reaches startLevel.
    private static func checkStart(
        _ root: ProfileFields, mechanics: ActuatorProfile.Mechanics, transfer: IntensityTransfer,
        sharpness: SharpnessRendering, drive: ActuatorProfile.Drive,
        edges: ActuatorProfile.Edges
    ) throws(ProfileError) {
        guard case .erm(let erm) = mechanics, transfer.floor < erm.startLevel else { return }
        let shortestKick = Double(edges.kickMs) * sharpness.edgeStrength(forCode: 0)
        guard shortestKick.rounded() >= 1, transfer.floor * drive.overdriveRatio >= erm.startLevel else {
            throw ProfileError(
                file: root.file, keyPath: "transfer.floor",
                message:
                    "under erm.startLevel (\(erm.startLevel)) and no kick lifts it there (floor x overdrive ratio = "
                    + "\(transfer.floor * drive.overdriveRatio), shortest kick \(shortestKick) ms): the motor would not start")
        }
    }

    /// "sources" maps key paths of this file's figures to where they come from.
    private static func decodeSources(_ root: ProfileFields, document: JSONValue) throws(ProfileError) -> [String: String] {
        guard let raw = root.fields["sources"] else { return [:] }
        guard case .object(let entries) = raw else { throw root.error("sources", "expected an object of \"key.path\": \"source\"") }
        let known = keyPaths(of: document).filter { !$0.hasPrefix("sources") }
        var sources: [String: String] = [:]
        for (key, value) in entries {
            guard case .string(let text) = value, !text.isEmpty else {
                throw root.error("sources", "'\(key)': expected a non-empty string")
            }
            guard known.contains(key) else {
                var message = "names no key of this file"
                if let hint = closestKey(to: key, among: known.sorted()) { message += " (did you mean '\(hint)'?)" }
                throw ProfileError(file: root.file, keyPath: "sources.\(key)", message: message)
            }
            sources[key] = text
        }
        return sources
    }

    /// Every dotted key path in a JSON document ("drive", "drive.ratedVolts", ...).
    static func keyPaths(of value: JSONValue, prefix: String = "") -> Set<String> {
        guard case .object(let fields) = value else { return [] }
        var paths: Set<String> = []
        for (key, child) in fields {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            paths.insert(path)
            paths.formUnion(keyPaths(of: child, prefix: path))
        }
        return paths
    }
}
