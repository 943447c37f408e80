import HapticSession

/// Why a `HapticPlayer` call did nothing, or how its play ended other than by finishing.
public enum HapticPlayerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `playbackRate` outside 0.25...4 (CONTROL RATE codes 64...1024, PROTOCOL-3.md 3.4).
    case rateOutOfRange(Double)
    /// A control before `start`: there is no play to control.
    case notStarted
    /// The play ended on a channel by STOPPED, FAULT or a device reset (the event says which):
    /// what the completion handler gets instead of nil.
    case ended(DeviceEvent)

    public var description: String {
        switch self {
        case .rateOutOfRange(let rate): "playback rate \(rate) is outside 0.25...4 (the device's rate codes 64...1024)"
        case .notStarted: "the player has not started: call start(atTime:) first"
        case .ended(let event): "the play did not finish: \(event)"
        }
    }
}
