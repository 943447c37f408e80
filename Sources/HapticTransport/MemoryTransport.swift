import Foundation

/// One end of an in-memory serial link: two byte queues, each with its own `FaultInjector`.
/// Made for tests of everything above the transport (sessions, the virtual device): faults are
/// reproducible from a seed, and `cut()` or a profile's `cutAfter` simulates an unplug.
///
/// Closing one end is like closing a pty: the other end reads what was already sent, then gets
/// `.disconnected`. Cutting the link is the same for both ends at once: writes fail from then on,
/// reads return the bytes sent before the cut and then fail, so a cut after N bytes delivers
/// exactly N bytes (minus dropped ones) whatever the timing.
public final class MemoryTransport: Transport, @unchecked Sendable {
    public let name: String
    private let link: MemoryLink
    private let side: Int

    /// A connected pair. `aToB` applies to bytes `a` writes, `bToA` to bytes `b` writes; the two
    /// directions draw from independent streams derived from `seed`. `capacity` bounds each queue:
    /// a writer blocks (and times out) while its queue is full, as with a peer that stops reading.
    public static func pair(
        names: (String, String) = ("memory-a", "memory-b"),
        aToB: FaultProfile = .none, bToA: FaultProfile = .none,
        seed: UInt64 = 0, capacity: Int = 1 << 16
    ) -> (a: MemoryTransport, b: MemoryTransport) {
        var seeds = SeededGenerator(seed: seed)
        let link = MemoryLink(
            injectors: [FaultInjector(profile: aToB, seed: seeds.next()), FaultInjector(profile: bToA, seed: seeds.next())],
            capacity: max(1, capacity))
        return (MemoryTransport(name: names.0, link: link, side: 0), MemoryTransport(name: names.1, link: link, side: 1))
    }

    private init(name: String, link: MemoryLink, side: Int) {
        self.name = name
        self.link = link
        self.side = side
    }

    /// Faults applied so far to the bytes this end wrote.
    public var faultCounts: FaultCounts { link.counts(from: side) }

    /// Cuts the link: writes on both ends get `.disconnected` from now on; reads get it once the
    /// bytes sent before the cut are read.
    public func cut() { link.cut() }

    public func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        try link.write(bytes, from: side, timeout: timeout, name: name)
    }

    public func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8] {
        try link.read(maxCount: maxCount, to: side, timeout: timeout, name: name)
    }

    public func discardInput() throws(TransportError) {
        try link.discard(to: side, name: name)
    }

    public func close() { link.close(side) }

    deinit { link.close(side) }
}

/// The shared state of a memory link, under one condition variable.
private final class MemoryLink: @unchecked Sendable {
    private struct Queued {
        var byte: UInt8
        var due: Double  // monotonic seconds at which it may be read
    }

    private let condition = NSCondition()
    private var queues: [[Queued]] = [[], []]  // queues[s]: bytes written by side s
    private var heads = [0, 0]  // read position in each queue (amortised removal)
    private var injectors: [FaultInjector]
    private let capacity: Int
    private var closed = [false, false]
    private var isCut = false

    package init(injectors: [FaultInjector], capacity: Int) {
        self.injectors = injectors
        self.capacity = capacity
    }

    package func counts(from side: Int) -> FaultCounts { condition.locked { injectors[side].counts } }

    package func cut() {
        condition.locked {
            isCut = true
            condition.broadcast()
        }
    }

    package func close(_ side: Int) {
        condition.locked {
            closed[side] = true
            condition.broadcast()
        }
    }

    private func pending(_ queue: Int) -> Int { queues[queue].count - heads[queue] }

    /// Waits until `deadline` or a broadcast; false when the deadline has passed.
    private func wait(until deadline: Double) -> Bool {
        let now = monotonicSeconds()
        guard now < deadline else { return false }
        _ = condition.wait(until: Date(timeIntervalSinceNow: deadline - now))
        return true
    }

    package func write(_ bytes: [UInt8], from side: Int, timeout: Double, name: String) throws(TransportError) {
        try condition.locked { () throws(TransportError) in
            let deadline = monotonicSeconds() + max(0, timeout)
            for (index, byte) in bytes.enumerated() {
                while true {
                    if closed[side] { throw TransportError(.closed, name: name) }
                    if isCut || closed[1 - side] { throw TransportError(.disconnected, name: name, detail: isCut ? "link cut" : "peer closed") }
                    if pending(side) < capacity { break }
                    guard wait(until: deadline) else {
                        throw TransportError(
                            .timedOut, name: name, detail: "\(index) of \(bytes.count) bytes written in \(timeout) s: peer not reading")
                    }
                }
                let now = monotonicSeconds()
                for (value, delay) in injectors[side].apply(byte) {
                    // A held-back byte holds back everything after it: a line does not reorder.
                    let due = max(queues[side].last?.due ?? 0, now + delay)
                    queues[side].append(Queued(byte: value, due: due))
                }
                if injectors[side].isCut {
                    isCut = true
                    condition.broadcast()
                    throw TransportError(.disconnected, name: name, detail: "link cut after \(injectors[side].counts.bytes) bytes")
                }
            }
            condition.broadcast()
        }
    }

    package func read(maxCount: Int, to side: Int, timeout: Double, name: String) throws(TransportError) -> [UInt8] {
        guard maxCount > 0 else { return [] }
        let source = 1 - side
        return try condition.locked { () throws(TransportError) -> [UInt8] in
            let deadline = monotonicSeconds() + max(0, timeout)
            while true {
                if closed[side] { throw TransportError(.closed, name: name) }
                let now = monotonicSeconds()
                var output: [UInt8] = []
                while output.count < maxCount, heads[source] < queues[source].count, queues[source][heads[source]].due <= now {
                    output.append(queues[source][heads[source]].byte)
                    heads[source] += 1
                }
                if !output.isEmpty {
                    compact(source)
                    condition.broadcast()  // room for a blocked writer
                    return output
                }
                if pending(source) == 0 && (closed[source] || isCut) {
                    throw TransportError(.disconnected, name: name, detail: isCut ? "link cut" : "peer closed")
                }
                // Wake for the next delayed byte, a write, a close, or the deadline.
                let nextDue = heads[source] < queues[source].count ? queues[source][heads[source]].due : deadline
                if now >= deadline { return [] }
                _ = wait(until: min(deadline, max(nextDue, now + 0.0005)))
            }
        }
    }

    package func discard(to side: Int, name: String) throws(TransportError) {
        try condition.locked { () throws(TransportError) in
            if closed[side] { throw TransportError(.closed, name: name) }
            let source = 1 - side
            let now = monotonicSeconds()
            // Only what has arrived: delayed bytes are still on the wire.
            while heads[source] < queues[source].count, queues[source][heads[source]].due <= now { heads[source] += 1 }
            compact(source)
            condition.broadcast()
        }
    }

    private func compact(_ queue: Int) {
        if heads[queue] > 4096 && heads[queue] * 2 > queues[queue].count {
            queues[queue].removeFirst(heads[queue])
            heads[queue] = 0
        }
    }
}

extension NSCondition {
    package func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
