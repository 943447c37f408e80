/// The JSON path of a value in an AHAP file, e.g. `Pattern[3].Event.EventParameters[1].ParameterValue`.
///
/// Stored inline (up to 8 components, no heap) and rendered to text only when a warning or an
/// error needs it: decoding a million valid events builds no path strings. Key components refer
/// to the key as spelled in the file (its node in the tape), so a path points at what the user wrote.
struct AHAPPath: Sendable {
    private var slots: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Bit k set: slot k is a key (a key node index, or -(AHAPKey.rawValue + 1) for a canonical name);
    /// clear: an array index.
    private var keyBits: UInt8 = 0
    private(set) var count = 0

    static let root = AHAPPath()
    static let capacity = 8

    func key(_ keyNode: Int) -> AHAPPath { appending(keyNode, isKey: true) }

    /// A component by its canonical name, for values whose key node is not at hand.
    func name(_ key: AHAPKey) -> AHAPPath { appending(-(key.rawValue + 1), isKey: true) }

    func index(_ index: Int) -> AHAPPath { appending(index, isKey: false) }

    private func appending(_ value: Int, isKey: Bool) -> AHAPPath {
        // AHAP nests at most 6 levels below the root; deeper values are never addressed.
        guard count < Self.capacity else { return self }
        var copy = self
        copy.set(count, value)
        if isKey { copy.keyBits |= 1 << UInt8(count) }
        copy.count += 1
        return copy
    }

    private func get(_ slot: Int) -> Int {
        switch slot {
        case 0: return slots.0
        case 1: return slots.1
        case 2: return slots.2
        case 3: return slots.3
        case 4: return slots.4
        case 5: return slots.5
        case 6: return slots.6
        default: return slots.7
        }
    }

    private mutating func set(_ slot: Int, _ value: Int) {
        switch slot {
        case 0: slots.0 = value
        case 1: slots.1 = value
        case 2: slots.2 = value
        case 3: slots.3 = value
        case 4: slots.4 = value
        case 5: slots.5 = value
        case 6: slots.6 = value
        default: slots.7 = value
        }
    }

    /// `Pattern[3].Event.Time`; `(root)` for the root object; odd keys as `["key"]`.
    func render(_ tree: JSONTree) -> String {
        guard count > 0 else { return "(root)" }
        var text = ""
        for slot in 0..<count {
            let value = get(slot)
            guard keyBits & (1 << UInt8(slot)) != 0 else {
                text += "[\(value)]"
                continue
            }
            let name = value >= 0 ? tree.string(value) : AHAPKey.names[-value - 1]
            let component = AHAPText.component(name)
            text += text.isEmpty && component.hasPrefix(".") ? String(component.dropFirst()) : component
        }
        return text
    }
}
