import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal pair: a stand-in serial line inside one machine. The master end is a
/// `Transport` (the virtual device serves on it); the slave end is a path (`/dev/pts/N`,
/// `/dev/ttysNNN` on macOS) that any serial client opens like a port, e.g. through
/// `openTransport(path:configuration:)`.
///
/// Both ends are in raw mode, so every byte value passes unchanged in both directions (the line
/// discipline sits between them and is set up by `Termios.makeRaw`).
///
/// Master-side behaviour (Linux, measured in the tests): before any client opens the slave, reads
/// time out normally and writes are buffered by the kernel; when the last client closes the slave,
/// the master reads what it sent and then gets `.disconnected` until a new client opens the slave,
/// after which the link works again. A virtual device that wants to serve successive clients
/// treats `.disconnected` as "no client now", not as the end.
public final class PseudoTerminal: Sendable {
    /// The master end.
    public let master: PosixTTY
    /// The path of the slave end, for the client.
    public let slavePath: String

    public init() throws(TransportError) {
        let fd = PTY.openMaster(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw TransportError(errno: errno, operation: "posix_openpt", name: "pty") }
        do throws(TransportError) {
            // O_CLOEXEC again by fcntl: not every system's posix_openpt takes it.
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
            guard PTY.grant(fd) == 0 else { throw TransportError(errno: errno, operation: "grantpt", name: "pty") }
            guard PTY.unlock(fd) == 0 else { throw TransportError(errno: errno, operation: "unlockpt", name: "pty") }
            guard let path = PTY.slaveName(fd) else { throw TransportError(errno: errno, operation: "ptsname", name: "pty") }
            // termios settings live with the pair: raw on the master means raw for the slave's client.
            try Termios.configure(fd, SerialConfiguration(), name: path)
            slavePath = path
        } catch {
            SystemCall.close(fd)
            throw error
        }
        master = PosixTTY(adopting: fd, name: "pty master of \(slavePath)")
    }

    /// Closes the master: clients of the slave see `.disconnected`.
    public func close() {
        master.close()
    }
}

extension TransportError {
    package init(errno code: Int32, operation: String, name: String) {
        self.init(errno: code, operation: operation, name: name, opening: true)
    }
}

/// posix_openpt, grantpt, unlockpt, ptsname. glibc declares them only under _XOPEN_SOURCE, which
/// Swift's Glibc module is not built with; they are in libc all the same, so on Linux they are
/// looked up by name once. Darwin declares them.
private enum PTY {
    #if os(Linux)
        private typealias IntFunction = @convention(c) (CInt) -> CInt
        private typealias NameFunction = @convention(c) (CInt, UnsafeMutablePointer<CChar>?, Int) -> CInt
        private static func symbol<F>(_ name: String, as type: F.Type) -> F {
            guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { preconditionFailure("libc has no \(name)") }
            return unsafeBitCast(address, to: type)
        }

        private static let posixOpenpt = symbol("posix_openpt", as: IntFunction.self)
        private static let grantpt = symbol("grantpt", as: IntFunction.self)
        private static let unlockpt = symbol("unlockpt", as: IntFunction.self)
        private static let ptsnameR = symbol("ptsname_r", as: NameFunction.self)

        package static func openMaster(_ flags: CInt) -> CInt { posixOpenpt(flags) }
        package static func grant(_ fd: CInt) -> CInt { grantpt(fd) }
        package static func unlock(_ fd: CInt) -> CInt { unlockpt(fd) }
        package static func slaveName(_ fd: CInt) -> String? {
            var buffer = [CChar](repeating: 0, count: 128)
            guard ptsnameR(fd, &buffer, buffer.count) == 0 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    #else
        package static func openMaster(_ flags: CInt) -> CInt { posix_openpt(flags) }
        package static func grant(_ fd: CInt) -> CInt { grantpt(fd) }
        package static func unlock(_ fd: CInt) -> CInt { unlockpt(fd) }
        /// ptsname's static buffer is shared: serialise its use.
        private static let nameLock = NSLock()
        package static func slaveName(_ fd: CInt) -> String? {
            nameLock.withLock { ptsname(fd).map { String(cString: $0) } }
        }
    #endif
}
