/// One direction of a UART at 8N1: a byte occupies the line for 10 bit times, and a byte handed
/// over while the line is busy waits for the one before it. Times in seconds; a baud rate of 0
/// means an ideal line (no line time).
struct UARTLine {
    let byteTime: Double
    private(set) var busyUntil = -Double.infinity
    private var queue: [(byte: UInt8, due: Double)] = []
    private var head = 0

    init(baudRate: Int) {
        byteTime = baudRate > 0 ? 10 / Double(baudRate) : 0
    }

    /// Queues bytes that become available to send at `time`; each is delivered when its last bit
    /// has crossed the line.
    mutating func enqueue(_ bytes: some Sequence<UInt8>, at time: Double) {
        for byte in bytes {
            let done = max(time, busyUntil) + byteTime
            busyUntil = done
            queue.append((byte, done))
        }
    }

    /// Bytes delivered by `time`, in order.
    mutating func deliver(upTo time: Double) -> [(byte: UInt8, due: Double)] {
        var out: [(byte: UInt8, due: Double)] = []
        while head < queue.count, queue[head].due <= time {
            out.append(queue[head])
            head += 1
        }
        if head > 1024 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return out
    }

    /// When the next queued byte is delivered, if any.
    var nextDue: Double? { head < queue.count ? queue[head].due : nil }

    mutating func clear() {
        queue.removeAll()
        head = 0
        busyUntil = -.infinity
    }
}
