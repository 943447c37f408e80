#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A transport failure, typed by what the user can do about it, with a one-line hint.
public struct TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Equatable, Sendable {
        /// The path does not exist (or names no device: ENXIO/ENODEV at open).
        case notFound
        /// The OS refused access (EACCES/EPERM).
        case permissionDenied
        /// Another program holds the port (EBUSY, or our exclusive lock is taken).
        case busy
        /// The path exists but is not a terminal device (ENOTTY).
        case notASerialPort
        /// The device went away during I/O: unplugged, or the far end of a pty or memory link closed.
        case disconnected
        /// A write could not hand its bytes over in time.
        case timedOut
        /// This transport was closed by its owner.
        case closed
        /// Baud rate or another setting the device or driver does not accept.
        case unsupportedConfiguration
        /// Any other OS failure; `code` and `detail` say which.
        case system
    }

    public var kind: Kind
    /// The port path or transport name.
    public var name: String
    /// What was being done, and the OS's words for what went wrong.
    public var detail: String
    /// errno, when the failure came from the OS.
    public var code: Int32?

    public init(_ kind: Kind, name: String, detail: String = "", code: Int32? = nil) {
        self.kind = kind
        self.name = name
        self.detail = detail
        self.code = code
    }

    /// Maps an errno from `operation` on `name`. During I/O (`opening: false`) a vanished device
    /// (EIO, ENXIO, ENODEV, EPIPE) is `.disconnected`; at open, ENXIO/ENODEV mean `.notFound`.
    public init(errno code: Int32, operation: String, name: String, opening: Bool) {
        let kind: Kind
        switch code {
        case ENOENT: kind = .notFound
        case ENXIO, ENODEV: kind = opening ? .notFound : .disconnected
        case EIO, EPIPE: kind = opening ? .system : .disconnected
        case EACCES, EPERM: kind = .permissionDenied
        case EBUSY, EWOULDBLOCK: kind = .busy
        case ENOTTY: kind = .notASerialPort
        case EINVAL where operation.hasPrefix("tcsetattr") || operation.hasPrefix("set"): kind = .unsupportedConfiguration
        default: kind = .system
        }
        self.init(kind, name: name, detail: "\(operation): \(String(cString: strerror(code)))", code: code)
    }

    /// What to do about it, or nil when there is nothing general to say.
    public var hint: String? {
        switch kind {
        case .notFound:
            "check the path with `haptic ports`; a USB adapter may come back under another name after replugging"
        case .permissionDenied:
            #if os(Linux)
                "add yourself to the group that owns the port (usually `dialout`: sudo usermod -aG dialout $USER), then log in again"
            #else
                "check the device's permissions (ls -l \(name))"
            #endif
        case .busy:
            "another program holds the port (a serial monitor, ModemManager, another haptic); close it and retry"
        case .notASerialPort:
            "the path is not a terminal device; pass a serial port (`haptic ports`) or a pseudo-terminal"
        case .disconnected:
            "the device was unplugged or reset, or the far end closed the link; reconnect and retry"
        case .timedOut:
            "the device is not reading: check the baud rate, flow control and that the firmware runs"
        case .unsupportedConfiguration:
            "use a standard baud rate (e.g. 115200, 500000, 1000000) and flow control the adapter supports"
        case .closed, .system:
            nil
        }
    }

    public var description: String {
        let what: String
        switch kind {
        case .notFound: what = "no such port"
        case .permissionDenied: what = "permission denied"
        case .busy: what = "port busy"
        case .notASerialPort: what = "not a serial port"
        case .disconnected: what = "disconnected"
        case .timedOut: what = "write timed out"
        case .closed: what = "transport closed"
        case .unsupportedConfiguration: what = "unsupported configuration"
        case .system: what = "I/O error"
        }
        var text = "\(name): \(what)"
        if !detail.isEmpty { text += " (\(detail))" }
        if let hint { text += "; \(hint)" }
        return text
    }
}
