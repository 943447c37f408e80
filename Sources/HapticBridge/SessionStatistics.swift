/// Bytes and retransmissions of a session.
public struct SessionStatistics: Sendable, Hashable {
    public var bytesSent: Int
    public var bytesReceived: Int
    public var retransmissions: Int
}
