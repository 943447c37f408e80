import Foundation
import HapticProtocol
import HapticTransport

/// A raw protocol 3.0 client on a virtual device's pty: frames built and read with the host's
/// codec (`Message3`). Messages it has read and not yet taken wait in arrival order.
struct Client3 {
    let transport: any Transport
    private var decoder = FrameDecoder()
    private var waiting: [Message3] = []
    private var sequence: UInt8 = 1
    /// Every byte read from the pty, in order.
    private(set) var bytes: [UInt8] = []

    init(path: String) throws {
        transport = try openTransport(path: path)
    }

    /// Sends `message` with the next sequence number (a leading delimiter first: 2.1's resync).
    mutating func send(_ message: Message3) throws {
        try transport.write([0] + message.encoded(sequence: sequence), timeout: 1)
        sequence &+= 1
    }

    /// Takes the first message `matching` accepts, reading until `timeout` seconds pass.
    mutating func take<T>(timeout: Double = 2, _ matching: (Message3) -> T?) throws -> T? {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let index = waiting.firstIndex(where: { matching($0) != nil }) { return matching(waiting.remove(at: index)) }
            guard monotonicSeconds() < deadline else { return nil }
            let read = try transport.read(maxCount: 512, timeout: 0.005)
            bytes += read
            for case .success(let frame) in decoder.push(read) {
                if let message = try? Message3(frame: frame) { waiting.append(message) }
            }
        }
    }

    /// A command's response: ACK with its value, or NACK.
    enum Response: Hashable {
        case ack(UInt32)
        case nack(Message.Nack)

        var ackValue: UInt32? {
            if case .ack(let value) = self { return value }
            return nil
        }
    }

    /// The response (ACK or NACK) to the last command of `type`.
    mutating func response(to type: MessageType) throws -> Response? {
        try take { message -> Response? in
            switch message {
            case .ack(let ack) where ack.type == type.rawValue: .ack(ack.value)
            case .nack(let nack) where nack.type == type.rawValue: .nack(nack)
            default: nil
            }
        }
    }

    /// The next TELEMETRY of `event` on `channel`.
    mutating func telemetry(_ event: Message.Telemetry.Event, channel: UInt8) throws -> Message3.Telemetry? {
        try take { message -> Message3.Telemetry? in
            guard case .telemetry(let t) = message, t.event == event, t.channel == channel else { return nil }
            return t
        }
    }

    /// QUERY `play` on `channel`, and its STATUS.
    mutating func status(play: UInt8, channel: UInt8) throws -> Message3.Status? {
        try send(.query(.init(play: play, channel: channel)))
        return try take { message -> Message3.Status? in
            guard case .status(let status) = message, status.play == play, status.channel == channel else { return nil }
            return status
        }
    }

    func close() { transport.close() }
}
