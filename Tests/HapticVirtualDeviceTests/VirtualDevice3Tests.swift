import FirmwareModel
import Foundation
import HapticCompiler
import HapticProtocol
import HapticTransport
import Testing

@testable import HapticVirtualDevice

/// The protocol 3.0 virtual device through a raw client on its real pty, every frame built and
/// read with the host's codec (`Message3`): what it answers, with values.
@Suite(.serialized) struct VirtualDevice3Tests {
    /// 3,000 ticks at amplitude 200, format 3: long enough that every control below lands while
    /// it plays, however late a loaded machine runs the client.
    static let program: [UInt8] = {
        var builder = ProgramBuilder(sharpness: false)
        builder.setA(200, at: 0)
        var program = builder.program(endingAt: 3000)
        program.header.version = ProgramHeader.formatVersion3
        return program.bytes
    }()

    @Test func speaksProtocol3OnTwoChannels() throws {
        let options = VirtualDevice.Options()
        let profile = options.profile
        let device = try VirtualDevice3(options: options, channels: 2, players: 4)
        var client = try Client3(path: device.path)  // open before the boot: its RESET arrives
        device.start()
        defer {
            client.close()
            device.stop()
        }
        let reset = try client.take { message -> Message.Reset? in
            if case .reset(let reset) = message { return reset }
            return nil
        }
        #expect(reset?.version == .version3)
        #expect(reset?.reason == .powerOn)
        #expect(reset?.bootCount == 0)

        // HELLO 3.0: INFO with the channels, the pool and the identity.
        try client.send(.hello(.init(version: .version3)))
        let info = try #require(
            try client.take { message -> Message3.Info? in
                if case .info(let info) = message { return info }
                return nil
            })
        #expect(info.channelCount == 2)
        #expect(info.players == 4)
        #expect(info.workBudget == 36)
        #expect(info.fadeTicks == 8)
        #expect(info.trim == 0)
        #expect(info.base.deviceID == VirtualDevice.deviceID)
        #expect(info.base.rate == 1000)
        #expect(info.base.slotCount == 4)
        #expect(info.base.capabilities.isSuperset(of: [.subtick, .status, .trim, .stream]))
        let reference = DeviceModel3.Configuration.defaultBase.capabilities.subtracting([.sharpness, .activeBrake])
        #expect(info.base.capabilities.isSuperset(of: reference))
        #expect(info.base.capabilities.contains(.activeBrake) == (profile.brakeTicks() > 0))
        #expect(info.base.capabilities.contains(.sharpness) == profile.rendersSharpness)
        #expect(info.base.profileNameString == String(profile.name.prefix(Message.Info.maxProfileNameCount)))

        // DESCRIBE: each channel's CHANNEL_INFO, the profile's actuator on both.
        let brake = UInt16(profile.brakeTicks())
        for channel: UInt8 in [0, 1] {
            try client.send(.describe(.init(channel: channel)))
            let described = try #require(
                try client.take { message -> Message3.ChannelInfo? in
                    if case .channelInfo(let c) = message, c.channel == channel { return c }
                    return nil
                })
            #expect(described.actuator == .lra)
            #expect(described.stageCode == 0)
            #expect(described.brakeTicks == brake)
            #expect(described.capabilities.contains(.activeBrake) == (brake > 0))
            #expect(described.safetyThreshold == 224)
            #expect(described.safetyTicks == 30_000)
            #expect(described.ratedMillivolts == UInt16((profile.drive.ratedVolts * 1000).rounded()))
            #expect(described.limitMillivolts == UInt16((profile.drive.overdriveVolts * 1000).rounded()))
            #expect(described.profileNameString == info.base.profileNameString)
        }

        // UPLOAD and COMMIT: the bytes held, then T.
        let program = Self.program
        try client.send(.upload(.init(slot: 0, offset: 0, data: program)))
        #expect(try client.response(to: .upload) == .ack(UInt32(program.count)))
        try client.send(.commit(.init(slot: 0, program: program)))
        #expect(try client.response(to: .commit) == .ack(3000))

        // PLAY id 7 on channels 0 and 1: the start tick, and both channels start at it.
        try client.send(.play(.init(play: 7, channels: 0b11, slot: 0, flags: Message3.Play.sumFlag)))
        let start = try #require(try client.response(to: .play)?.ackValue)
        for channel: UInt8 in [0, 1] {
            let started = try #require(try client.telemetry(.started, channel: channel))
            #expect(started.play == 7 && started.slot == 0 && started.tick == start)
        }
        #expect(device.waitForTick(start + 40, timeout: 2))
        let playing = device.samples(from: start + 20, count: 1)
        #expect(playing.first?.map(\.amplitude) == [200, 200], "\(playing)")
        #expect(device.samples(from: start &- 1, count: 1).first?.map(\.amplitude) == [0, 0])

        // CONTROL PAUSE: acknowledged at its tick; STATUS says paused and playing; the output fades to 0.
        try client.send(.control(.init(play: 7, channels: 0b11, op: .pause)))
        let paused = try #require(try client.response(to: .control)?.ackValue)
        #expect(paused > start)
        let whilePaused = try #require(try client.status(play: 7, channel: 1))
        #expect(whilePaused.flags & Message3.Status.pausedFlag != 0)
        #expect(whilePaused.record.state == Message.PlayRecord.playing)
        #expect(whilePaused.record.start == start)
        #expect(whilePaused.rate == Message3.normalRate)
        #expect(device.waitForTick(paused + 20, timeout: 2))
        #expect(device.samples(from: paused + 10, count: 1).first?.map(\.amplitude) == [0, 0])

        // RESUME: no longer paused, and sounding again.
        try client.send(.control(.init(play: 7, channels: 0b11, op: .resume)))
        let resumed = try #require(try client.response(to: .control)?.ackValue)
        #expect(resumed >= paused)
        let afterResume = try #require(try client.status(play: 7, channel: 0))
        #expect(afterResume.flags & Message3.Status.pausedFlag == 0)
        #expect(device.waitForTick(resumed + 30, timeout: 2))
        #expect(device.samples(from: resumed + 20, count: 1).first?.map(\.amplitude) == [200, 200])

        // STOP with brake: acknowledged at tick t, STOPPED (by the host) on both channels at t.
        try client.send(.stop(.init(play: 7, channels: 0b11, flags: Message3.Stop.brakeFlag)))
        let stopped = try #require(try client.response(to: .stop)?.ackValue)
        for channel: UInt8 in [0, 1] {
            let end = try #require(try client.telemetry(.stopped, channel: channel))
            #expect(end.play == 7 && end.code == Message3.Telemetry.stoppedByHost && end.tick == stopped)
        }

        // QUERY: the record of the play on each channel.
        for channel: UInt8 in [0, 1] {
            let record = try #require(try client.status(play: 7, channel: channel))
            #expect(record.record.state == Message.Telemetry.Event.stopped.rawValue)
            #expect(record.record.start == start)
            #expect(record.record.end == stopped)
            #expect(record.record.slot == 0)
            #expect(record.flags == 0)
            #expect(record.now >= stopped)
        }
        #expect(device.counters.boots == 1)
    }

    /// PONG's subtick is measured from the host's clock, as on 2.0's device; SET_CONFIG TRIM is
    /// taken (INFO reports it, the schedule applies it: TickScheduleTests), and a reboot boots a
    /// 3.0 device again without it.
    @Test func measuresSubticksTakesTheTrimAndReboots() throws {
        let device = try VirtualDevice3()
        var client = try Client3(path: device.path)
        device.start()
        defer {
            client.close()
            device.stop()
        }
        var subticks: Set<UInt16> = []
        for echo: UInt32 in 1...5 {
            try client.send(.ping(.init(echo: echo)))
            let pong = try client.take { message -> Message.Pong? in
                if case .pong(let pong) = message, pong.echo == echo { return pong }
                return nil
            }
            #expect(pong != nil)
            if let pong { subticks.insert(pong.subtick) }
            Thread.sleep(forTimeInterval: 0.0037)
        }
        #expect(subticks.count > 1, "\(subticks)")

        #expect(device.waitForTick(10, timeout: 2))
        #expect(abs(device.lock.withLock { device.tickLength ?? 0 } - 0.001) < 1e-9)
        try client.send(.setConfig(Message3.ConfigKey.trim(ppm: 10_000)))
        #expect(try client.response(to: .setConfig) == .ack(10_000))
        #expect(device.modelSnapshot.trimPPM == 10_000)
        // Every tick from the next one on is 1 % short.
        #expect(device.waitForTick(device.now + 2, timeout: 2))
        #expect(abs(device.lock.withLock { device.tickLength ?? 0 } - 0.00099) < 1e-9)
        try client.send(.hello(.init(version: .version3)))
        let info = try client.take { message -> Message3.Info? in
            if case .info(let info) = message { return info }
            return nil
        }
        #expect(info?.trim == 10_000)
        try client.send(.setConfig(Message3.ConfigKey.trim(ppm: 10_001)))
        #expect(try client.response(to: .setConfig) == .nack(Message.Nack(type: .setConfig, code: .badParam)))

        device.reboot(reason: .hardwareWatchdog)
        let reset = try client.take { message -> Message.Reset? in
            if case .reset(let reset) = message, reset.bootCount == 1 { return reset }
            return nil
        }
        #expect(reset?.version == .version3)
        #expect(reset?.reason == .hardwareWatchdog)
        #expect(device.modelSnapshot.trimPPM == 0)
        #expect(device.counters.boots == 2)
    }
}
