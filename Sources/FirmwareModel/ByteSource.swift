import HapticProtocol

/// Where the interpreter reads a program body from (firmware-protocol/PROTOCOL.md 1.14): a flat
/// buffer holding the whole validated body, or a ring buffer a transport fills while the program
/// plays. Offsets are body offsets (0 = first byte after the header) for both.
///
/// One concrete type for both kinds, like the firmware's `hb_source`: a flat buffer is a "ring"
/// whose offsets map straight through and whose bytes are all written, so reading a byte is the
/// same two comparisons and one index either way, with no dispatch.
///
/// Ring rules: the capacity is a power of two; the writer may be at most `capacity` bytes ahead
/// of the reader's released offset (a byte may be overwritten once the reader is past it).
public struct ByteSource: BodyBytes, Sendable {
    private var storage: [UInt8]
    /// Index in `storage` of body offset 0 (flat: 16 when `storage` is a whole program).
    private let base: Int
    /// Ring: capacity - 1. Flat: all ones, so `offset & mask == offset`.
    private let mask: UInt32
    /// Ring: storage size. Flat: body length.
    public let capacity: UInt32
    /// True for a ring (written while playing), false for a flat buffer.
    public let isRing: Bool
    /// Body bytes available so far (flat: all of them).
    public private(set) var written: UInt32
    /// Ring: the reader is done with every byte below this offset.
    public private(set) var released: UInt32 = 0

    private init(storage: [UInt8], base: Int, mask: UInt32, capacity: UInt32, isRing: Bool, written: UInt32) {
        self.storage = storage
        self.base = base
        self.mask = mask
        self.capacity = capacity
        self.isRing = isRing
        self.written = written
    }

    /// A flat source over a whole body, every byte available.
    public static func flat(body: [UInt8]) -> ByteSource {
        flat(bytes: body, bodyStart: 0)
    }

    /// A flat source over the body inside `bytes`, from index `bodyStart` to the end (a whole
    /// program: `bodyStart` = 16), without copying it.
    public static func flat(bytes: [UInt8], bodyStart: Int) -> ByteSource {
        let length = UInt32(bytes.count - bodyStart)
        return ByteSource(storage: bytes, base: bodyStart, mask: .max, capacity: length, isRing: false, written: length)
    }

    /// An empty ring of `capacity` bytes, or nil if `capacity` is not a power of two.
    public static func ring(capacity: Int) -> ByteSource? {
        guard capacity > 0, capacity & (capacity - 1) == 0, capacity <= 1 << 31 else { return nil }
        return ByteSource(
            storage: Array(repeating: 0, count: capacity), base: 0, mask: UInt32(capacity - 1),
            capacity: UInt32(capacity), isRing: true, written: 0)
    }

    /// How many bytes a writer may add now (ring); 0 for a flat source.
    public var space: Int {
        isRing ? Int(capacity - (written &- released)) : 0
    }

    /// Ring: appends as many of `bytes` as fit (no more than `space`), in order; returns how many
    /// it took. A flat source takes none.
    @discardableResult
    public mutating func write(_ bytes: some Collection<UInt8>) -> Int {
        let count = min(bytes.count, space)
        for byte in bytes.prefix(count) {
            storage[Int(written & mask)] = byte
            written &+= 1
        }
        return count
    }

    /// The byte at body offset `offset`, or nil if it has not been written yet.
    public func byte(at offset: UInt32) -> UInt8? {
        offset < written ? storage[base + Int(offset & mask)] : nil
    }

    /// The reader will not read below `offset` again: a ring may overwrite those bytes.
    public mutating func release(upTo offset: UInt32) {
        if offset > released && offset <= written { released = offset }
    }
}
