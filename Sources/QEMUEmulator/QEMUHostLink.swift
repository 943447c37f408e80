import HapticProtocol

/// The host side of the wire protocol against a lockstep `QEMUBoard`: encodes messages into the
/// board's UART and decodes the frames it sends back, with the step after which each arrived.
/// Time is the board's steps: `await` and `response` grant them a few at a time.
public struct QEMUHostLink {
    public struct Received {
        public var message: Message
        public var sequence: UInt8
        /// Steps the board had run when the frame was read.
        public var step: Int
    }

    public let board: QEMUBoard
    /// Steps granted per round while waiting (1: the host answers within the step it reads a frame).
    public var stepsPerRound: Int
    private var decoder = FrameDecoder()
    private var sequence: UInt8 = 0
    /// Everything received, in order.
    public private(set) var received: [Received] = []

    public init(board: QEMUBoard, stepsPerRound: Int = 1) {
        self.board = board
        self.stepsPerRound = stepsPerRound
    }

    /// Sends a message; returns its sequence number.
    @discardableResult
    public mutating func send(_ message: Message) throws -> UInt8 {
        sequence &+= 1
        try board.send(try message.encoded(sequence: sequence))
        return sequence
    }

    /// Runs the board until a message matching `match` arrives (returned) or `steps` pass.
    public mutating func await(steps: Int, _ match: (Message) -> Bool) throws -> Received? {
        try run(upTo: steps) { match($0.message) }
    }

    /// The response to command `sequence`: ACK, NACK, or INFO for HELLO.
    public mutating func response(to sequence: UInt8, steps: Int = 100) throws -> Received? {
        try run(upTo: steps) { $0.sequence == sequence && $0.isResponse }
    }

    /// Runs up to `steps` steps until a frame matching `match` arrives (returned).
    private mutating func run(upTo steps: Int, until match: (Received) -> Bool) throws -> Received? {
        var seen = received.count
        let deadline = board.steps.count + steps
        while board.steps.count < deadline {
            try run(min(stepsPerRound, deadline - board.steps.count))
            while seen < received.count {
                if match(received[seen]) { return received[seen] }
                seen += 1
            }
        }
        return nil
    }

    /// UPLOAD data per frame: the largest payload (128 bytes) less UPLOAD's slot and offset.
    public static let uploadChunk = Frame.maxPayloadCount - 5

    /// Uploads `program` to `slot` and commits it; throws unless every frame is acknowledged.
    public mutating func upload(_ program: [UInt8], slot: UInt8) throws {
        var offset = 0
        while offset < program.count {
            let chunk = Array(program[offset..<min(program.count, offset + Self.uploadChunk)])
            let sent = try send(.upload(.init(slot: slot, offset: UInt32(offset), data: chunk)))
            guard try response(to: sent)?.isAck == true else { throw QEMUBoardError.stopped("UPLOAD at \(offset) not acknowledged") }
            offset += chunk.count
        }
        let commit = try send(.commit(.init(slot: slot, program: program)))
        guard try response(to: commit)?.ackValue != nil else { throw QEMUBoardError.stopped("COMMIT not acknowledged") }
    }

    /// Runs `count` steps and decodes what the board sent meanwhile.
    public mutating func run(_ count: Int) throws {
        try board.run(steps: count)
        pump()
    }

    /// Decodes what the board sent so far.
    public mutating func pump() {
        for byte in board.takeOutput() {
            guard case .success(let frame)? = decoder.push(byte), let message = try? Message(frame: frame) else { continue }
            received.append(Received(message: message, sequence: frame.sequence, step: board.steps.count))
        }
    }
}

extension QEMUHostLink.Received {
    public var isAck: Bool { message.ackValue != nil }
    public var isResponse: Bool { message.isResponse }
    public var ackValue: UInt32? { message.ackValue }
}
