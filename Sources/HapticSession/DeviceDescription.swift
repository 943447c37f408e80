import HapticProtocol

/// What the device is, as the handshake read it (PROTOCOL.md 2.6; PROTOCOL-3.md 3.2, 3.11): the
/// protocol the session speaks with it, INFO, and on a 3.0 device its device-wide figures and
/// each channel's CHANNEL_INFO. A 2.0 device is one channel and one player, described from INFO.
public struct DeviceDescription: Hashable, Sendable {
    /// The version the session negotiated (`SessionEngine.wire`).
    public var version: ProtocolVersion
    /// 2.6's fields; on a 3.0 device the per-channel ones are channel 0's.
    public var info: Message.Info
    /// 3.0's device-wide fields (channel count, players, work budget, fade, trim, sync); nil on 2.0.
    public var info3: Message3.Info?
    /// Every channel, in order: CHANNEL_INFO on 3.0, INFO's figures on 2.0.
    public var channels: [Message3.ChannelInfo]

    public init(version: ProtocolVersion, info: Message.Info, info3: Message3.Info? = nil, channels: [Message3.ChannelInfo]? = nil) {
        self.version = version
        self.info = info
        self.info3 = info3
        self.channels = channels ?? [Self.channel0(of: info)]
    }

    /// Players in the pool: how many plays sound at once (3.3); 1 on 2.0.
    public var players: Int { info3.map { Int($0.players) } ?? 1 }
    public var capabilities: Message.Info.Capabilities { info.capabilities }

    /// The program format the device takes (PROTOCOL-3.md 3.14): 3 on 3.0, 2 on 2.0.
    public var programFormat: UInt8 { version.programFormat }

    /// INFO capability bit 9 SEEK (PROTOCOL-3.md 3.13): PLAY `from` and CONTROL SEEK work; without it
    /// a host compiles the pattern from the offset and plays that from 0 (3.16).
    public var seeks: Bool { version.major >= 3 && capabilities.contains(.seek) }

    /// Channel 0 as a 2.0 INFO describes it (no stage code, drive levels or per-channel wake-up).
    static func channel0(of info: Message.Info) -> Message3.ChannelInfo {
        var caps = Message3.ChannelInfo.Capabilities()
        if info.capabilities.contains(.sharpness) { caps.insert(.sharpness) }
        if info.capabilities.contains(.activeBrake) { caps.insert(.activeBrake) }
        if info.capabilities.contains(.diag) { caps.insert(.diag) }
        return Message3.ChannelInfo(
            channel: 0, actuatorCode: info.actuatorCode, stageCode: 0, capabilities: caps, profileID: info.profileID,
            brakeTicks: info.brakeTicks, safetyThreshold: info.safetyThreshold, safetyTicks: info.safetyTicks,
            ratedMillivolts: 0, limitMillivolts: 0, wakeTicks: info.wakeTicks, profileName: info.profileName)
    }

    /// What a 3.0 host cannot do with a 2.0 device (3.14), for the fallback notice.
    public static let unavailableOn2 = [
        "channels other than channel 0", "several plays at once", "play controls (pause, resume, seek, rate, loop range, mute)",
        "tick trim and the sync wire",
    ]
}
