/// Streaming frame decoder: feed received bytes in any chunking, get frames and typed errors.
///
/// Same state machine as the C `hb_frame_decoder` (firmware/core/src/hb_frame.c): COBS is undone
/// byte by byte into a buffer bounded by `Frame.maxRawCount`, a 0x00 ends the frame, and anything
/// malformed is dropped up to the next 0x00, where decoding resynchronises. Empty chunks (0x00
/// right after 0x00) are ignored, so a sender may lead with 0x00 to flush a receiver's garbage.
public struct FrameDecoder: Sendable {
    /// Counts of every outcome since `init`.
    public struct Statistics: Equatable, Sendable {
        public var frames = 0
        public var tooLong = 0
        public var cobs = 0
        public var short = 0
        public var checksum = 0
        public var unsupportedVersion = 0
        public var errors: Int { tooLong + cobs + short + checksum + unsupportedVersion }
        public init() {}
    }

    public private(set) var statistics = Statistics()

    private var buffer: [UInt8] = []
    private var blockRemaining = 0
    private var zeroPending = false
    private var discarding = false
    private var started = false

    public init() {
        buffer.reserveCapacity(Frame.maxRawCount)
    }

    /// Whether bytes of an unfinished frame are waiting for their delimiter.
    public var hasPartialFrame: Bool { started }

    /// Forgets any partial frame (statistics are kept).
    public mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        blockRemaining = 0
        zeroPending = false
        discarding = false
        started = false
    }

    /// Feeds one byte; returns a result when the byte was a delimiter ending a non-empty chunk.
    public mutating func push(_ byte: UInt8) -> Result<Frame, FrameDecodeError>? {
        if byte == 0 {
            defer { reset() }
            return started ? finish() : nil
        }
        started = true
        if discarding { return nil }
        if blockRemaining == 0 {
            // A code byte: the previous block's implied 0x00 is real, since another block follows.
            if zeroPending { append(0) }
            blockRemaining = Int(byte) - 1
            zeroPending = byte != 0xFF
        } else {
            append(byte)
            blockRemaining -= 1
        }
        return nil
    }

    /// Feeds bytes; returns the results in arrival order.
    public mutating func push<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Result<Frame, FrameDecodeError>] {
        var results: [Result<Frame, FrameDecodeError>] = []
        for byte in bytes {
            if let result = push(byte) { results.append(result) }
        }
        return results
    }

    private mutating func append(_ byte: UInt8) {
        guard buffer.count < Frame.maxRawCount else {
            discarding = true
            return
        }
        buffer.append(byte)
    }

    private mutating func finish() -> Result<Frame, FrameDecodeError> {
        if discarding {
            statistics.tooLong += 1
            return .failure(.tooLong)
        }
        if blockRemaining != 0 {
            statistics.cobs += 1
            return .failure(.cobs)
        }
        if buffer.count < Frame.minRawCount {
            statistics.short += 1
            return .failure(.short(count: buffer.count))
        }
        let bodyCount = buffer.count - Frame.checksumCount
        let computed = CRC16.checksum(buffer[..<bodyCount])
        let received = UInt16(buffer[bodyCount]) | UInt16(buffer[bodyCount + 1]) << 8
        if computed != received {
            statistics.checksum += 1
            return .failure(.checksum(computed: computed, received: received))
        }
        if buffer[0] != Frame.version {
            statistics.unsupportedVersion += 1
            return .failure(.unsupportedVersion(buffer[0]))
        }
        statistics.frames += 1
        return .success(
            Frame(
                messageType: buffer[1], sequence: buffer[2], flags: buffer[3],
                payload: Array(buffer[Frame.headerCount..<bodyCount]), version: buffer[0]))
    }
}
