import HapticProtocol
import HapticTransport

/// Why a device session could not do what was asked, in words a user can act on.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The link failed: unplugged, closed, or an OS error (the transport's own error, with its hint).
    case transport(TransportError)
    /// No response to a command after every retransmission (PROTOCOL.md 2.4: 100 ms, 5 times).
    case notResponding(command: String, attempts: Int)
    /// No intact response to a command after every retransmission, but `damaged` frames arrived
    /// that could not be read (CRC, COBS): the device answers, the line spoils it.
    case damagedReplies(command: String, attempts: Int, damaged: Int)
    /// The device speaks another protocol major version (2.6): the host must stop talking to it.
    case incompatibleVersion(device: ProtocolVersion, host: ProtocolVersion)
    /// The device's protocol has no such thing (a 2.0 device: one channel, one play, no controls,
    /// PROTOCOL-3.md 3.14); nothing was sent.
    case unavailable(feature: String, device: ProtocolVersion)
    /// The device speaks 3.0 but lacks an optional capability (PROTOCOL-3.md 3.13), named with its
    /// INFO bit; nothing was sent.
    case missingCapability(feature: String, capability: String)
    /// The device refused a command (NACK, 2.15).
    case rejected(command: String, code: MessageErrorCode, value: UInt32)
    /// The device reset while this request was in flight; the session has recovered (or is
    /// recovering) its prepared programs, but this request did not take effect.
    case deviceReset
    /// The program does not fit the device (slot and stream both too small, or no stream).
    case doesNotFit(bytes: Int, reason: String)
    /// The rate limiter refused the play (the haptic rate guidelines, docs/presets.md); retry after this many seconds.
    case rateLimited(retryAfter: Double)
    /// A request that needs a handshake came before `connect()`, or after `close()`.
    case notConnected
    /// The pattern could not be compiled for the device's actuator.
    case compile(String)
    /// A PONG, a telemetry event or a stream credit did not come in time.
    case timedOut(String)
    /// A command may or may not have taken effect and the device could not be asked (a PLAY whose
    /// acknowledgements and play record were all lost): neither success nor failure can be claimed.
    case outcomeUnknown(String)

    public var description: String {
        switch self {
        case .transport(let error):
            return error.description
        case .notResponding(let command, let attempts):
            if command.hasPrefix("HELLO") {
                return "the device did not answer \(command) after \(attempts) attempts; check the port, the baud rate and that the firmware runs"
            }
            return
                "the device did not answer \(command) after \(attempts) attempts, though it answered the handshake: it stopped, or the line loses every frame"
        case .damagedReplies(let command, let attempts, let damaged):
            return
                "no intact answer to \(command) after \(attempts) attempts: \(damaged) replies arrived damaged (CRC): the line is noisy or the baud rate is wrong"
        case .incompatibleVersion(let device, let host):
            return
                "the device speaks protocol \(device), this host speaks \(host): major versions differ, so they cannot talk; update the firmware or the host"
        case .unavailable(let feature, let device):
            return "the device speaks protocol \(device), which has no \(feature): nothing was sent; a protocol 3 device has it"
        case .missingCapability(let feature, let capability):
            return
                "the device has no \(capability): \(feature) was not sent; compile the pattern from the offset and play that from 0 (PROTOCOL-3.md 3.16)"
        case .rejected(let command, let code, let value):
            return "the device refused \(command): \(code)" + (value != 0 ? " (value \(value))" : "")
        case .deviceReset:
            return "the device reset while the request was in flight; prepared patterns are restored automatically, send the request again"
        case .doesNotFit(let bytes, let reason):
            return "program of \(bytes) bytes does not fit the device: \(reason)"
        case .rateLimited(let retryAfter):
            return
                "rate limited: the guidelines allow at most 10 haptics a second and 5 in 500 ms; next play possible in \(Int((retryAfter * 1000).rounded(.up))) ms"
        case .notConnected:
            return "not connected: call connect() first"
        case .compile(let reason):
            return "cannot compile the pattern for this device: \(reason)"
        case .timedOut(let what):
            return "timed out waiting for \(what)"
        case .outcomeUnknown(let what):
            return "outcome unknown: \(what)"
        }
    }

    /// True when the link itself is gone (nothing more will work on this session).
    /// `damagedReplies` when damaged frames arrived, else `notResponding`.
    package static func noAnswer(command: String, attempts: Int, damaged: Int) -> SessionError {
        damaged > 0
            ? .damagedReplies(command: command, attempts: attempts, damaged: damaged)
            : .notResponding(command: command, attempts: attempts)
    }

    public var isFatal: Bool {
        switch self {
        case .transport(let error): return [.disconnected, .closed, .notFound, .system].contains(error.kind)
        case .incompatibleVersion: return true
        default: return false
        }
    }
}
