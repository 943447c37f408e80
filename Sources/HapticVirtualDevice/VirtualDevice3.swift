import FirmwareModel
import HapticCompiler
import HapticProtocol
import HapticTransport

/// The Swift device model of protocol 3.0 (`FirmwareModel.DeviceModel3`: channels, a pool of
/// players, mixing, controls; bit-exact with the C core and vectors/v3) served on a real
/// pseudo-terminal like `VirtualDevice` (`VirtualDeviceEngine`: the same clock, UART, drift,
/// faults and reboot), with the tick trim of PROTOCOL-3.md 3.10 applied to its real-time ticks.
/// Its samples are one per channel and tick.
public final class VirtualDevice3: VirtualDeviceEngine<DeviceModel3>, @unchecked Sendable {
    /// The channel counts and pool sizes `haptic emulate --protocol 3` takes (3.2, 3.3: a mask of
    /// 16 bits; the pool as large as 16 one-shot plays on as many channels).
    public static let channelRange = 1...16
    public static let playerRange = 1...16
    /// The reference's device shape (vectors/v3 `Config3`): 2 channels, 4 players.
    public static let defaultChannels = 2
    public static let defaultPlayers = 4

    /// A device of `channels` channels, each with `options.profile`'s actuator, and `players`
    /// players, on `options.configuration`'s device-wide figures (`configuration(options:channels:players:)`).
    public convenience init(
        options: Options = Options(), channels: Int = defaultChannels, players: Int = defaultPlayers
    ) throws(TransportError) {
        try self.init(configuration: Self.configuration(options: options, channels: channels, players: players), options: options)
    }

    /// A device of exactly `configuration` (the vectors' devices); `options` serves it.
    public init(configuration: DeviceModel3.Configuration, options: Options) throws(TransportError) {
        try super.init(model: DeviceModel3(configuration: configuration), options: options)
    }

    /// The 3.0 configuration of a virtual device: the identity of `options.identifiedConfiguration`
    /// with the reference device's device-wide capabilities (`DeviceModel3.Configuration.defaultBase`:
    /// TRIM, which the engine applies to its real-time ticks, and whatever else it has), SHARPNESS
    /// and ACTIVE_BRAKE as channel 0 has them; the reference's work budget E and fade R; and
    /// `channels` channels (clamped to 1...16) of `options.profile`.
    public static func configuration(options: Options, channels: Int, players: Int) -> DeviceModel3.Configuration {
        var base = options.identifiedConfiguration
        base.capabilities.formUnion(DeviceModel3.Configuration.defaultBase.capabilities.subtracting([.sharpness, .activeBrake]))
        if base.core.brakeTicks > 0 { base.capabilities.insert(.activeBrake) }
        let channel = Self.channel(options.profile, base: base)
        let count = min(max(channels, channelRange.lowerBound), channelRange.upperBound)
        let pool = UInt8(min(max(players, playerRange.lowerBound), playerRange.upperBound))
        return DeviceModel3.Configuration(base: base, channels: Array(repeating: channel, count: count), players: pool)
    }

    /// One channel (CHANNEL_INFO, 3.11) driving `profile`'s actuator: no output stage behind the
    /// model (stage 0), brake and limiter as `base` has them, the profile's rated and overdrive
    /// volts, SHARPNESS when the profile renders it and ACTIVE_BRAKE when its stage brakes.
    static func channel(_ profile: ActuatorProfile, base: DeviceModel.Configuration) -> DeviceModel3.Channel {
        var channel = DeviceModel3.Channel()
        channel.actuator = base.actuator.rawValue
        channel.stage = 0
        channel.profileID = base.profileID
        channel.profileName = base.profileName
        channel.brakeTicks = base.core.brakeTicks
        channel.safetyThreshold = base.core.safetyThreshold
        channel.safetyTicks = base.core.safetyTicks
        channel.ratedMillivolts = UInt16(clamping: Int((profile.drive.ratedVolts * 1000).rounded()))
        channel.limitMillivolts = UInt16(clamping: Int((profile.drive.overdriveVolts * 1000).rounded()))
        channel.wakeTicks = base.wakeTicks
        var capabilities = Message3.ChannelInfo.Capabilities()
        if profile.rendersSharpness { capabilities.insert(.sharpness) }
        if base.core.brakeTicks > 0 { capabilities.insert(.activeBrake) }
        channel.capabilities = capabilities.rawValue
        return channel
    }

    /// The configuration the model runs.
    public var deviceConfiguration: DeviceModel3.Configuration { lock.withLock { model.configuration } }

    /// The board reports `channel`'s output-stage fault (0: none; 2.18, 3.2). Returns the tick
    /// whose step sees it first.
    @discardableResult
    public func setStageFault(channel: Int, code: UInt8) -> UInt32 {
        lock.withLock {
            model.setStageFault(channel: channel, code: code)
            return model.now
        }
    }
}
