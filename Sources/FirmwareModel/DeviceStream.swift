import HapticProtocol

/// The device's stream (firmware-protocol/PROTOCOL.md 2.10), shared by the 2.0 and 3.0 models:
/// its stored header, its ring while OPEN (once PLAYING an interpreter owns the ring and is fed
/// through the device), the bytes written in order and the credit granted.
struct DeviceStream: Sendable {
    enum State: Sendable { case closed, open, playing }

    /// Ring bytes, a power of two; 0: no streaming.
    let capacity: UInt32
    var state = State.closed
    var header: [UInt8] = Array(repeating: 0, count: 16)
    /// The ring while OPEN.
    var ring: ByteSource
    /// Body bytes written in order (C: ring.written).
    var next: UInt32 = 0
    var granted: UInt32 = 0

    init(capacity: UInt32) {
        self.capacity = capacity
        ring = ByteSource.ring(capacity: Int(max(capacity, 1)))!
    }

    var bodyLength: UInt32 {
        header.u32(at: 6)
    }

    /// STREAM_OPEN accepted: a new ring, nothing written.
    mutating func open(header: [UInt8]) {
        self.header = header
        ring = ByteSource.ring(capacity: Int(capacity))!
        next = 0
        state = .open
    }

    /// The read position: bytes below it may be overwritten. `feedSpace`: the playing
    /// interpreter's free ring bytes.
    func released(feedSpace: Int) -> UInt32 {
        state == .playing ? next &- (capacity - UInt32(feedSpace)) : ring.released
    }

    /// What the host may send up to.
    func limit(feedSpace: Int) -> UInt32 {
        let released = released(feedSpace: feedSpace)
        return bodyLength - released <= capacity ? bodyLength : released + capacity
    }

    /// A CREDIT notice (2.10), remembered as granted.
    mutating func credit(feedSpace: Int) -> Message {
        granted = limit(feedSpace: feedSpace)
        return .credit(.init(next: next, limit: granted))
    }

    /// STREAM_DATA's checks: true when `count` bytes at `offset` are taken (the caller writes them
    /// where the ring is and calls `wrote`), false when the host is answered with a CREDIT.
    func accepts(offset: UInt32, count: UInt32, feedSpace: Int) -> Bool {
        count != 0 && offset == next && count <= limit(feedSpace: feedSpace) - next
    }

    /// A step's credit rule (2.10): a quarter of the ring released, or the whole body granted.
    func creditDue(feedSpace: Int) -> Bool {
        let limit = limit(feedSpace: feedSpace)
        return limit &- granted >= max(capacity / 4, 1) || (limit == bodyLength && granted < limit)
    }
}
