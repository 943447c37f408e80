/// A byte pipe to a device: a real serial port (`SerialPort`, libserialport), a terminal such as a
/// pseudo-terminal (`PosixTTY`, termios), or an in-memory link with fault injection
/// (`MemoryTransport`). Sessions speak the wire protocol over it and never care which one it is;
/// `openTransport(path:configuration:)` picks the right one for a path.
///
/// Every call is synchronous and bounded by its timeout (seconds; 0 = do not wait). All errors are
/// `TransportError`s. Reads and writes may run concurrently on two threads; `close()` from any
/// thread makes a blocked call return `.closed` promptly (within about 25 ms).
public protocol Transport: AnyObject, Sendable {
    /// Human-readable name: the port path, or a description for in-memory links.
    var name: String { get }

    /// Hands all bytes to the link within `timeout` seconds, or throws (`.timedOut` when the peer
    /// does not drain them in time: some bytes may have gone out; the frame layer resynchronises).
    func write(_ bytes: [UInt8], timeout: Double) throws(TransportError)

    /// Waits up to `timeout` seconds for at least one byte, then returns what is available at once
    /// (1...maxCount bytes) without waiting for more. Returns [] when nothing arrived in time;
    /// throws `.disconnected` when the far end is gone (after any bytes it sent have been read).
    func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8]

    /// Drops bytes received but not read yet: boot noise, stale replies from a previous session.
    func discardInput() throws(TransportError)

    /// Releases the link. Further calls throw `.closed`; closing twice is harmless.
    func close()
}
