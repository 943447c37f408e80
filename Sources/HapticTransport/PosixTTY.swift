import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal device through plain POSIX: open(2), termios raw mode, poll(2) for timeouts.
///
/// Used for what libserialport cannot open (pseudo-terminals: it looks ports up in /sys/class/tty
/// and reads modem lines, which ptys lack) and as the master side of a `PseudoTerminal`.
/// `openTransport(path:configuration:)` chooses between this and `SerialPort`.
///
/// The port is held exclusively: `flock(LOCK_EX)` (honoured by other HapticBridge processes,
/// pyserial's `exclusive=True` and anything else that locks, root included) plus `TIOCEXCL`
/// (makes other non-root `open`s fail with EBUSY).
public final class PosixTTY: Transport, @unchecked Sendable {
    public let name: String
    private let gate: IOGate<Int32>
    private let writeLock = NSLock()
    private let readLock = NSLock()

    /// Opens `path` with O_NOCTTY | O_NONBLOCK and applies raw 8N1 at `configuration`.
    public convenience init(path: String, configuration: SerialConfiguration = SerialConfiguration()) throws(TransportError) {
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw TransportError(errno: errno, operation: "open", name: path, opening: true) }
        do throws(TransportError) {
            guard isatty(fd) == 1 else { throw TransportError(.notASerialPort, name: path, detail: "isatty: not a terminal", code: ENOTTY) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                throw TransportError(errno: errno, operation: "flock (another program has the port open exclusively)", name: path, opening: true)
            }
            _ = ioctl(fd, UInt(TIOCEXCL))
            try Termios.configure(fd, configuration, name: path)
        } catch {
            SystemCall.close(fd)
            throw error
        }
        self.init(adopting: fd, name: path)
    }

    /// Takes ownership of an open, already configured terminal descriptor.
    package init(adopting fd: Int32, name: String) {
        self.name = name
        self.gate = IOGate(fd, name: name) { fd in SystemCall.close(fd) }
    }

    /// The descriptor, for tests that inspect termios state.
    package func withDescriptor<T>(_ body: (Int32) throws(TransportError) -> T) throws(TransportError) -> T {
        try gate.use(body)
    }

    public func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        try gate.use(holding: writeLock, timeout: timeout) { fd, deadline throws(TransportError) in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { SystemCall.write(fd, $0.baseAddress, $0.count) }
                if written > 0 {
                    offset += written
                    continue
                }
                let error = errno
                guard written < 0, error == EAGAIN || error == EINTR else {
                    throw TransportError(errno: written == 0 ? EIO : error, operation: "write", name: name, opening: false)
                }
                let now = monotonicSeconds()
                guard now < deadline else {
                    throw TransportError(.timedOut, name: name, detail: "\(offset) of \(bytes.count) bytes written in \(timeout) s")
                }
                try wait(fd, for: Int16(POLLOUT), seconds: deadline - now)
            }
        }
    }

    public func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8] {
        guard maxCount > 0 else { return [] }
        return try gate.use(holding: readLock, timeout: timeout) { fd, deadline throws(TransportError) -> [UInt8] in
            var buffer = [UInt8](repeating: 0, count: maxCount)
            while true {
                let count = buffer.withUnsafeMutableBytes { SystemCall.read(fd, $0.baseAddress, maxCount) }
                if count > 0 { return Array(buffer[..<count]) }
                // read() of 0 on a terminal: hung up (the pty master closed, the USB device left),
                // confirmed by poll in case a driver returns 0 for "no data" despite VMIN = 1.
                if count == 0 && hungUp(fd) {
                    throw TransportError(.disconnected, name: name, detail: "read: end of file (hangup)")
                }
                let error = count == 0 ? EAGAIN : errno
                guard error == EAGAIN || error == EINTR else {
                    throw TransportError(errno: error, operation: "read", name: name, opening: false)
                }
                let now = monotonicSeconds()
                if now >= deadline { return [] }
                try wait(fd, for: Int16(POLLIN), seconds: deadline - now)
            }
        }
    }

    /// Waits at most one gate slice for `events`; returns on readiness, hangup (the next read or
    /// write reports it) or time-out of the slice, and throws `.closed` once `close()` was called.
    private func wait(_ fd: Int32, for events: Int16, seconds: Double) throws(TransportError) {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = Int32((min(seconds, IOGate<Int32>.slice) * 1000).rounded(.up))
        let result = poll(&descriptor, 1, milliseconds)
        if result < 0 && errno != EINTR {
            throw TransportError(errno: errno, operation: "poll", name: name, opening: false)
        }
        if descriptor.revents & Int16(POLLNVAL) != 0 {
            throw TransportError(.system, name: name, detail: "poll: descriptor not open")
        }
        if gate.isClosed { throw TransportError(.closed, name: name) }
        // POLLHUP without POLLIN: nothing left to read, the far end is gone. (With POLLIN, the
        // read drains what the far end sent before closing, then reports the hangup.)
        let hangup = descriptor.revents & Int16(POLLHUP | POLLERR) != 0
        if hangup && descriptor.revents & Int16(POLLIN) == 0 {
            throw TransportError(.disconnected, name: name, detail: "poll: hangup")
        }
    }

    private func hungUp(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP | POLLERR) != 0
    }

    public func discardInput() throws(TransportError) {
        try gate.use { fd throws(TransportError) in
            guard tcflush(fd, TCIFLUSH) == 0 else {
                throw TransportError(errno: errno, operation: "tcflush", name: name, opening: false)
            }
        }
    }

    public func close() {
        gate.close()
    }
}
