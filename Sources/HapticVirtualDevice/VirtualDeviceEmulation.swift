import HapticTrace
import HapticTransport

/// What `haptic emulate` serves without `--mcu`, from its command line: a virtual device of
/// protocol 2.0 (`VirtualDevice`) or 3.0 (`VirtualDevice3`, `--channels`, `--players`), each
/// channel with `options.profile`, until stopped (docs/cli.md).
public struct VirtualDeviceEmulation: Sendable {
    /// The protocols `--protocol` takes; 2 by default while the host session speaks 2.0.
    public static let protocols = 2...3
    public static let defaultProtocol = 2

    public var protocolMajor: Int
    /// `--channels`, `--players` (protocol 3 only); nil: `VirtualDevice3`'s defaults.
    public var channels: Int?
    public var players: Int?
    public var options: VirtualDeviceOptions
    /// `--seconds` (nil: until stopped) and `--reboot-after` (nil: no reboot).
    public var seconds: Double?
    public var rebootAfter: Double?

    public init(
        protocolMajor: Int = defaultProtocol, channels: Int? = nil, players: Int? = nil, options: VirtualDeviceOptions,
        seconds: Double? = nil, rebootAfter: Double? = nil
    ) {
        self.protocolMajor = protocolMajor
        self.channels = channels
        self.players = players
        self.options = options
        self.seconds = seconds
        self.rebootAfter = rebootAfter
    }

    /// Why the command line cannot be served, in one line naming the flag and what it takes;
    /// nil when it can. `mcu`: `--mcu` (the simulated boards speak 2.0, have no reboot, and
    /// QEMU's runs on the host's clock); `knobs`: `--unplug-after`, and `--trace` (2.0's
    /// one-channel trace).
    public func problem(mcu: String?, knobs: EmulatorKnobs) -> String? {
        let drift = ClockDrift.range
        let driftPPM = options.driftPPM
        if !drift.contains(driftPPM) {
            return
                "--drift-ppm \(driftPPM) is out of range: \(Int(drift.lowerBound))...\(Int(drift.upperBound)) (a ceramic resonator is within +-5000)"
        }
        if driftPPM != 0, let mcu, mcu != "atmega328p" {
            return
                "--drift-ppm with --mcu \(mcu): QEMU runs the board on the host's clock; drift is simulated for the virtual device and --mcu atmega328p"
        }
        if let seconds, seconds <= 0 { return "--seconds must be positive" }
        if let rebootAfter, rebootAfter <= 0 { return "--reboot-after must be positive" }
        if let unplugAfter = knobs.unplugAfter, unplugAfter <= 0 { return "--unplug-after must be positive" }
        if mcu != nil, rebootAfter != nil {
            return "--reboot-after needs the virtual device (without --mcu): the simulated board has no reboot yet"
        }
        guard Self.protocols.contains(protocolMajor) else {
            return "--protocol must be \(Self.protocols.map(String.init).joined(separator: " or ")), not \(protocolMajor)"
        }
        let range = { (range: ClosedRange<Int>) in "\(range.lowerBound)...\(range.upperBound)" }
        if protocolMajor == 2 {
            if channels != nil || players != nil { return "--channels and --players need --protocol 3 (a 2.0 device has one channel and one player)" }
            return nil
        }
        if let mcu { return "--protocol 3 with --mcu \(mcu): the simulated boards' firmware speaks 2.0; --protocol 3 serves the virtual device" }
        if knobs.trace != nil { return VirtualDevice3.Refusal.trace.description }
        if let channels, !VirtualDevice3.channelRange.contains(channels) {
            return "--channels must be \(range(VirtualDevice3.channelRange)), not \(channels)"
        }
        if let players, !VirtualDevice3.playerRange.contains(players) {
            return "--players must be \(range(VirtualDevice3.playerRange)), not \(players)"
        }
        return nil
    }

    /// Serves the device (`VirtualDevice.serve`, `VirtualDevice3.serve`).
    public func serve(knobs: EmulatorKnobs, wait: (Double?) async -> Bool, log: (String) -> Void) async throws {
        if protocolMajor == 3 {
            try await VirtualDevice3.serve(
                options, channels: channels ?? VirtualDevice3.defaultChannels, players: players ?? VirtualDevice3.defaultPlayers,
                seconds: seconds, rebootAfter: rebootAfter, knobs: knobs, wait: wait, log: log)
        } else {
            try await VirtualDevice.serve(options, seconds: seconds, rebootAfter: rebootAfter, knobs: knobs, wait: wait, log: log)
        }
    }
}
