/// A byte pipe to a device: a real serial port (libserialport), a pseudo-terminal (POSIX termios),
/// or an in-memory link with fault injection for tests. Sessions speak the wire protocol over it
/// and never care which one it is.
public protocol Transport: Sendable {
    /// Human-readable name (the port path, or a description for in-memory links).
    var name: String { get }
    /// Writes all bytes or throws; blocks at most `timeout` seconds.
    func write(_ bytes: [UInt8], timeout: Double) throws
    /// Returns the bytes available within `timeout` seconds (empty when none arrived); throws when the link is gone.
    func read(maxCount: Int, timeout: Double) throws -> [UInt8]
    /// Closes the link; further calls throw. Closing twice is harmless.
    func close()
}
