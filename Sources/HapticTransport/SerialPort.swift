import CLibSerialPort
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real serial port (USB CDC, FTDI/CH340/CP210x bridge, native UART) through libserialport,
/// 8N1 at the configured baud rate and flow control.
///
/// I/O uses libserialport's blocking calls (`sp_blocking_read_next`, `sp_blocking_write`) in slices
/// of at most `IOGate.slice`, so `close()` stops a blocked call promptly, and looks at the
/// descriptor's poll flags between slices: a hung-up tty (USB device unplugged) makes reads return
/// 0 bytes forever, which libserialport alone cannot tell from silence.
///
/// Opening an Arduino Uno/Nano asserts DTR, which resets the board: its bootloader runs for about
/// 1-2 s before the firmware answers. Sessions must retry their handshake (see PROTOCOL.md).
public final class SerialPort: Transport, @unchecked Sendable {
    public let name: String
    public let configuration: SerialConfiguration
    private let gate: IOGate<OpaquePointer>
    private let descriptor: Int32
    private let writeLock = NSLock()
    private let readLock = NSLock()

    public init(path: String, configuration: SerialConfiguration = SerialConfiguration()) throws(TransportError) {
        // libserialport reports a missing port only as "invalid argument": check existence first.
        var status = stat()
        guard stat(path, &status) == 0 else { throw TransportError(errno: errno, operation: "stat", name: path, opening: true) }

        var found: OpaquePointer?
        let lookup = sp_get_port_by_name(path, &found)
        guard lookup == SP_OK, let port = found else {
            if lookup == SP_ERR_FAIL { throw Self.lastError(operation: "sp_get_port_by_name", name: path, opening: true) }
            throw TransportError(.notASerialPort, name: path, detail: "libserialport does not list this device")
        }
        let opened = sp_open(port, SP_MODE_READ_WRITE)
        guard opened == SP_OK else {
            let error =
                opened == SP_ERR_FAIL
                ? Self.lastError(operation: "sp_open", name: path, opening: true)
                : TransportError(.notASerialPort, name: path, detail: "sp_open: \(opened.rawValue)")
            sp_free_port(port)
            throw error
        }
        let release: (OpaquePointer) -> Void = { port in
            sp_close(port)
            sp_free_port(port)
        }
        var fd: Int32 = -1
        do throws(TransportError) {
            guard sp_get_port_handle(port, &fd) == SP_OK, fd >= 0 else {
                throw TransportError(.system, name: path, detail: "sp_get_port_handle failed")
            }
            // Same exclusivity as PosixTTY: one HapticBridge (or other locking program) per port.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                throw TransportError(errno: errno, operation: "flock (another program has the port open exclusively)", name: path, opening: true)
            }
            _ = ioctl(fd, UInt(TIOCEXCL))
            try Self.apply(configuration, to: port, name: path)
        } catch {
            release(port)
            throw error
        }
        self.name = path
        self.configuration = configuration
        self.descriptor = fd
        self.gate = IOGate(port, name: path, release: release)
    }

    private static func apply(_ configuration: SerialConfiguration, to port: OpaquePointer, name: String) throws(TransportError) {
        var created: OpaquePointer?
        guard sp_new_config(&created) == SP_OK, let config = created else {
            throw TransportError(.system, name: name, detail: "sp_new_config: out of memory")
        }
        defer { sp_free_config(config) }
        let flow: sp_flowcontrol
        switch configuration.flowControl {
        case .none: flow = SP_FLOWCONTROL_NONE
        case .xonXoff: flow = SP_FLOWCONTROL_XONXOFF
        case .rtsCts: flow = SP_FLOWCONTROL_RTSCTS
        }
        guard configuration.baudRate > 0, configuration.baudRate <= Int(Int32.max),
            sp_set_config_baudrate(config, Int32(configuration.baudRate)) == SP_OK,
            sp_set_config_bits(config, 8) == SP_OK,
            sp_set_config_parity(config, SP_PARITY_NONE) == SP_OK,
            sp_set_config_stopbits(config, 1) == SP_OK,
            sp_set_config_flowcontrol(config, flow) == SP_OK
        else {
            throw TransportError(.unsupportedConfiguration, name: name, detail: "\(configuration.baudRate) baud")
        }
        let result = sp_set_config(port, config)
        switch result {
        case SP_OK: return
        case SP_ERR_FAIL: throw lastError(operation: "set \(configuration.baudRate) baud 8N1", name: name, opening: true)
        default:
            throw TransportError(
                .unsupportedConfiguration, name: name,
                detail: "sp_set_config: \(configuration.baudRate) baud, \(configuration.flowControl) flow control")
        }
    }

    /// errno after a libserialport call returned SP_ERR_FAIL.
    private static func lastError(operation: String, name: String, opening: Bool) -> TransportError {
        TransportError(errno: sp_last_error_code(), operation: operation, name: name, opening: opening)
    }

    /// Hangup or error flagged on the descriptor, without waiting.
    private func hungUp() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN | POLLOUT), revents: 0)
        return poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    private static func milliseconds(_ seconds: Double) -> UInt32 {
        UInt32(max(1, (min(seconds, IOGate<OpaquePointer>.slice) * 1000).rounded(.up)))
    }

    public func read(maxCount: Int, timeout: Double) throws(TransportError) -> [UInt8] {
        guard maxCount > 0 else { return [] }
        return try gate.use(holding: readLock, timeout: timeout) { port, deadline throws(TransportError) -> [UInt8] in
            var buffer = [UInt8](repeating: 0, count: maxCount)
            while true {
                let remaining = deadline - monotonicSeconds()
                let hangup = hungUp()
                // sp_blocking_read_next takes 0 ms as "forever": never pass it 0.
                let result = buffer.withUnsafeMutableBytes { bytes in
                    hangup || remaining <= 0
                        ? sp_nonblocking_read(port, bytes.baseAddress, maxCount)
                        : sp_blocking_read_next(port, bytes.baseAddress, maxCount, Self.milliseconds(remaining))
                }
                if result.rawValue > 0 { return Array(buffer[..<Int(result.rawValue)]) }
                if result.rawValue < 0 {
                    throw result == SP_ERR_FAIL
                        ? Self.lastError(operation: "read", name: name, opening: false)
                        : TransportError(.system, name: name, detail: "read: libserialport error \(result.rawValue)")
                }
                if hangup { throw TransportError(.disconnected, name: name, detail: "poll: hangup") }
                if gate.isClosed { throw TransportError(.closed, name: name) }
                if monotonicSeconds() >= deadline { return [] }
            }
        }
    }

    public func write(_ bytes: [UInt8], timeout: Double) throws(TransportError) {
        try gate.use(holding: writeLock, timeout: timeout) { port, deadline throws(TransportError) in
            var offset = 0
            while offset < bytes.count {
                if hungUp() { throw TransportError(.disconnected, name: name, detail: "poll: hangup") }
                let remaining = deadline - monotonicSeconds()
                let result = bytes[offset...].withUnsafeBytes { chunk in
                    remaining <= 0
                        ? sp_nonblocking_write(port, chunk.baseAddress, chunk.count)
                        : sp_blocking_write(port, chunk.baseAddress, chunk.count, Self.milliseconds(remaining))
                }
                if result.rawValue < 0 {
                    throw result == SP_ERR_FAIL
                        ? Self.lastError(operation: "write", name: name, opening: false)
                        : TransportError(.system, name: name, detail: "write: libserialport error \(result.rawValue)")
                }
                offset += Int(result.rawValue)
                if offset == bytes.count { return }
                if gate.isClosed { throw TransportError(.closed, name: name) }
                if monotonicSeconds() >= deadline {
                    throw TransportError(.timedOut, name: name, detail: "\(offset) of \(bytes.count) bytes written in \(timeout) s")
                }
            }
        }
    }

    public func discardInput() throws(TransportError) {
        try gate.use { port throws(TransportError) in
            guard sp_flush(port, SP_BUF_INPUT) == SP_OK else {
                throw Self.lastError(operation: "flush", name: name, opening: false)
            }
        }
    }

    public func close() {
        gate.close()
    }
}
