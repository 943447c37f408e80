import HapticProtocol

/// The host side of the wire protocol against a simulated board: encodes messages into the
/// board's UART and decodes the frames it sends back, with the cycle each one completed.
public struct HostLink {
    public struct Received {
        public var message: Message
        public var sequence: UInt8
        /// Cycle at which the frame's delimiter completed on the line.
        public var cycle: UInt64
    }

    public let board: AVRBoard
    private var decoder = FrameDecoder()
    private var sequence: UInt8 = 0
    /// Everything received, in order.
    public private(set) var received: [Received] = []
    /// Every byte received, in order (frames and anything else).
    public private(set) var allBytes: [UInt8] = []

    public struct SentFrame {
        public var sequence: UInt8
        /// Cycle at which the frame's last byte completes.
        public var lastByteCycle: UInt64
    }

    public init(board: AVRBoard) {
        self.board = board
    }

    /// Sends a message; returns its sequence number and the cycle its last byte will complete.
    @discardableResult
    public mutating func send(_ message: Message) throws -> SentFrame {
        sequence &+= 1
        let bytes = try message.encoded(sequence: sequence)
        let perByte = UInt64(board.uartCyclesPerByte)
        let queued = UInt64(board.pendingInput)
        board.send(bytes)
        // Bytes go out back to back from now (after any still queued).
        let last = board.cycle + (queued + UInt64(bytes.count)) * perByte
        return SentFrame(sequence: sequence, lastByteCycle: last)
    }

    /// Runs the board until a message matching `match` arrives (returned) or `ticks` pass.
    public mutating func await(ticks: Int, _ match: (Message) -> Bool) throws -> Received? {
        let deadline = board.cycle + UInt64(ticks) * board.cyclesPerTick
        var seen = received.count
        while board.cycle < deadline {
            try board.run(until: min(deadline, board.cycle + 2_000))
            pump()
            while seen < received.count {
                if match(received[seen].message) { return received[seen] }
                seen += 1
            }
        }
        return nil
    }

    /// The response to command `sequence`: ACK, NACK, or INFO for HELLO.
    public mutating func response(to sequence: UInt8, ticks: Int = 50) throws -> Received? {
        let start = received.count
        let deadline = board.cycle + UInt64(ticks) * board.cyclesPerTick
        while board.cycle < deadline {
            try board.run(until: min(deadline, board.cycle + 2_000))
            pump()
            if let r = received[start...].first(where: { $0.sequence == sequence && $0.isResponse }) {
                return r
            }
        }
        return nil
    }

    /// Decodes what the board sent so far.
    public mutating func pump() {
        for byte in board.takeOutput() {
            allBytes.append(byte.value)
            guard let result = decoder.push(byte.value) else { continue }
            if case .success(let frame) = result, let message = try? Message(frame: frame) {
                received.append(Received(message: message, sequence: frame.sequence, cycle: byte.cycle))
            }
        }
    }
}

extension HostLink.Received {
    public var isAck: Bool { message.ackValue != nil }
    public var isNack: Bool { if case .nack = message { true } else { false } }
    public var isResponse: Bool { message.isResponse }
    public var ackValue: UInt32? { message.ackValue }
}
