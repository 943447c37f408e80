/// The host's timing rules for a session (PROTOCOL.md 2.4, 2.6, 2.10, 2.13), in seconds.
public struct SessionTiming: Sendable, Hashable {
    /// Wait for a command's response before retransmitting: 100 ms (2.4: a response is due
    /// within about 50 ms on a 115200-baud USB-serial link; a factor of two on top).
    public var commandTimeout: Double
    /// Retransmissions after the first attempt before the device counts as not responding (2.4).
    public var retransmissions: Int
    /// How long `connect()` keeps sending HELLO: 3 s, because an emulator may lose the first
    /// bytes after an open (QEMU's pty character device polls for a connected client about once a second).
    public var handshakeTimeout: Double
    /// Interval between HELLO attempts during the handshake.
    public var handshakeInterval: Double
    /// Wait for a PONG.
    public var pingTimeout: Double
    /// Send a frame at least every watchdog / 4 while a play is pending or running (2.13).
    public var keepAlive: Bool
    /// With stream bytes outstanding and no CREDIT for this long, ask for one (empty STREAM_DATA).
    public var streamQueryInterval: Double
    /// Whole-program restarts of an upload after its COMMIT found a checksum mismatch.
    public var uploadAttempts: Int

    public init(
        commandTimeout: Double = 0.1, retransmissions: Int = 5, handshakeTimeout: Double = 3,
        handshakeInterval: Double = 0.1, pingTimeout: Double = 0.1, keepAlive: Bool = true,
        streamQueryInterval: Double = 0.05, uploadAttempts: Int = 3
    ) {
        self.commandTimeout = commandTimeout
        self.retransmissions = retransmissions
        self.handshakeTimeout = handshakeTimeout
        self.handshakeInterval = handshakeInterval
        self.pingTimeout = pingTimeout
        self.keepAlive = keepAlive
        self.streamQueryInterval = streamQueryInterval
        self.uploadAttempts = uploadAttempts
    }
}
