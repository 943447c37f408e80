import HapticProtocol

/// One PING/PONG exchange, host times in seconds (the runner's monotonic clock).
public struct PingSample: Sendable, Hashable {
    public var sent: Double
    public var received: Double
    public var pong: Message.Pong

    public init(sent: Double, received: Double, pong: Message.Pong) {
        self.sent = sent
        self.received = received
        self.pong = pong
    }

    public var roundTrip: Double { received - sent }
}
