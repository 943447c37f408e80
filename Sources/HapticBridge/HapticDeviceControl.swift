import HapticProtocol
import HapticSession

/// CONTROL of a running or pending play (PROTOCOL-3.md 3.7, 3.11): its time, gain and priority
/// changed at a device tick, on a 3.0 device only.
extension HapticDevice {
    /// One CONTROL op and its value (3.11's table).
    public enum PlayControl: Sendable, Hashable {
        /// Paused: the gain falls over the device's fade (3.7); the position holds.
        case pause
        /// Not paused: the gain rises from where the pause left it.
        case resume
        /// Continue from program tick k (3.5; needs INFO capability bit 9).
        case seek(toTick: UInt32)
        /// Rate code r, 64...1024 (256: 1x; 3.4: r / 256 program ticks a device tick).
        case rate(code: UInt16)
        /// Iterations left, the current one included (0: until stopped).
        case loops(UInt16)
        /// Loop end L in program ticks, 0...T (0: T).
        case loopEnd(tick: UInt32)
        case mute(Bool)
        /// Priority and duck (3.6).
        case priority(UInt8, duck: UInt8)

        var op: Message3.Control.Op {
            switch self {
            case .pause: .pause
            case .resume: .resume
            case .seek: .seek
            case .rate: .rate
            case .loops: .loops
            case .loopEnd: .loopEnd
            case .mute: .mute
            case .priority: .priority
            }
        }

        var value: UInt32 {
            switch self {
            case .pause, .resume: 0
            case .seek(let tick), .loopEnd(let tick): tick
            case .rate(let code): UInt32(code)
            case .loops(let count): UInt32(count)
            case .mute(let muted): muted ? 1 : 0
            case .priority(let priority, let duck): UInt32(priority) | UInt32(duck) << 8
            }
        }
    }

    /// Sends CONTROL `control` for play `id` on `channels`, at device tick `atTick` (PAUSE and
    /// RESUME only; others apply at once). Returns its ACK value: the tick it takes effect (SEEK:
    /// the tick program tick k is output). A 2.0 device: `SessionError.unavailable`; a SEEK to a
    /// device without SEEK: `SessionError.missingCapability`; nothing is sent either way.
    @discardableResult
    public func control(
        play id: UInt8, channels: UInt16 = Message3.allChannels, _ control: PlayControl, atTick: UInt32? = nil
    ) async throws -> UInt32 {
        if case .seek = control, let description = deviceDescription, description.version.major >= 3, !description.seeks {
            throw SessionError.missingCapability(feature: "CONTROL SEEK", capability: "SEEK (INFO capability bit 9)")
        }
        let message = Message3.Control(play: id, channels: channels, op: control.op, value: control.value, at: atTick)
        return try await perform { CommandOperation(.control(message), completion: $0) }
    }
}
