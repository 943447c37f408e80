/// Up to four values stored inline, in order: the firmware's fixed-size arrays (loop stacks of
/// depth 4, 4 pulse voices) without a heap allocation or a copy-on-write check per tick.
struct FourSlots<Element> {
    static var capacity: Int { 4 }

    private var slots: (Element, Element, Element, Element)
    private(set) var count = 0

    /// Empty; `filler` only initializes the unused storage.
    init(filler: Element) {
        slots = (filler, filler, filler, filler)
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == Self.capacity }

    subscript(index: Int) -> Element {
        get {
            switch index {
            case 0: slots.0
            case 1: slots.1
            case 2: slots.2
            default: slots.3
            }
        }
        set {
            switch index {
            case 0: slots.0 = newValue
            case 1: slots.1 = newValue
            case 2: slots.2 = newValue
            default: slots.3 = newValue
            }
        }
    }

    /// The most recently appended value.
    var last: Element {
        get { self[count - 1] }
        set { self[count - 1] = newValue }
    }

    mutating func append(_ element: Element) {
        precondition(count < Self.capacity, "FourSlots is full")
        self[count] = element
        count += 1
    }

    mutating func removeLast() {
        precondition(count > 0, "FourSlots is empty")
        count -= 1
    }

    /// Removes the first (oldest) value, keeping the order of the rest.
    mutating func removeFirst() {
        precondition(count > 0, "FourSlots is empty")
        for index in 1..<count { self[index - 1] = self[index] }
        count -= 1
    }

    mutating func removeAll() {
        count = 0
    }

    /// Removes the values `shouldRemove` picks, keeping the order of the rest.
    mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        var kept = 0
        for index in 0..<count where !shouldRemove(self[index]) {
            self[kept] = self[index]
            kept += 1
        }
        count = kept
    }
}

extension FourSlots: Sendable where Element: Sendable {}
