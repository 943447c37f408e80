import HapticProtocol
import HapticSession
import HapticTransport
import Testing

@testable import FirmwareModel

/// The host session against protocol 3.0's device model (PROTOCOL-3.md 3.11, 3.14) and, for the
/// way back, against 2.0's, in virtual time over the memory link: negotiation both ways, the
/// device's description, and the plays, stops, records and notices of 3.0 (the pty-served 3.0
/// virtual device comes with the vdev3 work).
@Suite struct Session3Tests {
    static let timing = FaultTests.timing

    /// Two channels that differ: an LRA on a PWM stage and an ERM, four players.
    static let configuration: DeviceModel3.Configuration = {
        var erm = DeviceModel3.Channel()
        erm.actuator = 2
        erm.profileID = 9
        erm.profileName = "erm-test"
        erm.brakeTicks = 12
        erm.wakeTicks = 5
        return DeviceModel3.Configuration(channels: [DeviceModel3.Channel(), erm])
    }()

    static func link3(_ configuration: DeviceModel3.Configuration = configuration) throws -> VirtualLink<DeviceModel3> {
        let link = VirtualLink(device: DeviceModel3(configuration: configuration), fault: .none, seed: 3, timing: timing)
        let handshake: Result<Message.Info, SessionError>? = link.run { HandshakeOperation(completion: $0) }
        _ = try #require(try handshake?.get())
        return link
    }

    /// A format 3 program: a level for `ticks`, END (no loops, so rule (f) holds).
    static func program(level: UInt8 = 200, ticks: UInt32 = 30) -> [UInt8] {
        Program(instructions: [.setA(level), .end(delay: ticks)], sharpness: false, version: ProgramHeader.formatVersion3).bytes
    }

    static func upload(_ program: [UInt8], slot: UInt8, on link: VirtualLink<DeviceModel3>) throws -> UInt32 {
        let result: Result<UInt32, SessionError>? = link.run { UploadOperation(slot: slot, program: program, completion: $0) }
        return try #require(try result?.get())
    }

    static func play(_ play: Message3.Play, on link: VirtualLink<DeviceModel3>) throws -> UInt32 {
        let result: Result<UInt32, SessionError>? = link.run { CommandOperation(.play(play), completion: $0) }
        return try #require(try result?.get())
    }

    static func ends(_ link: VirtualLink<DeviceModel3>) -> [DeviceEvent] { link.events.filter(\.endsPlay) }

    @Test func aThreeZeroDeviceIsSpokenToInThreeZeroAndDescribedChannelByChannel() throws {
        let link = try Self.link3()
        #expect(link.engine.protocolVersion == .version3)
        let device = try #require(link.engine.device)
        #expect(device.version == .version3 && device.info.version == .version3)
        #expect(device.channels.count == 2 && device.players == 4 && device.programFormat == 3)
        #expect(device.channels.map(\.channel) == [0, 1])
        #expect(device.channels[1].actuator == .erm && device.channels[1].profileNameString == "erm-test")
        #expect(device.channels[1].profileID == 9 && device.channels[1].brakeTicks == 12 && device.channels[1].wakeTicks == 5)
        #expect(device.channels[0].profileNameString == "lra-test" && device.channels[0].ratedMillivolts == 2000)
        #expect(device.info3?.workBudget == 36 && device.info3?.fadeTicks == 8)
        #expect(device.seeks)  // the reference's capabilities have bit 9 SEEK (3.13)
        #expect(!link.events.contains { if case .protocolFallback = $0 { true } else { false } })
        #expect(link.events.contains(.connected(device.info)))
    }

    @Test func withoutBitNineTheDeviceDoesNotSeek() throws {
        var configuration = Self.configuration
        configuration.base.capabilities.remove(.seek)
        #expect(try Self.link3(configuration).engine.device?.seeks == false)
    }

    @Test func aTwoZeroDeviceIsSpokenToInTwoZeroAndTheUserIsToldOnce() throws {
        let link = VirtualTimeLink(fault: .none, seed: 1, timing: Self.timing)
        let handshake: Result<Message.Info, SessionError>? = link.run { HandshakeOperation(completion: $0) }
        let info = try #require(try handshake?.get())
        #expect(info.version == ProtocolVersion(major: 2, minor: 0))
        #expect(link.engine.protocolVersion.major == 2 && link.engine.device?.channels.count == 1)
        #expect(link.engine.device?.programFormat == ProgramHeader.formatVersion)
        let notices = { link.events.filter { if case .protocolFallback = $0 { true } else { false } } }
        #expect(notices() == [.protocolFallback(device: info.version, unavailable: DeviceDescription.unavailableOn2)])
        let notice = try #require(link.events.firstIndex { if case .protocolFallback = $0 { true } else { false } })
        #expect(notice < (link.events.firstIndex(of: .connected(info)) ?? -1))
        #expect(link.engine.device?.seeks == false)  // 2.0's bit 9 is not SEEK
        // 2.0 as before: upload, play, its end on play 0, channel 0.
        let program = smallPrograms(count: 1, seed: 4)[0]
        let upload: Result<UInt32, SessionError>? = link.run { UploadOperation(slot: 0, program: program, completion: $0) }
        let ticks = try #require(try upload?.get())
        let play: Result<UInt32, SessionError>? = link.run { CommandOperation(.play(Message.Play(slot: 0)), completion: $0) }
        let start = try #require(try play?.get())
        for _ in 0..<Int(ticks + 40) { link.tick() }
        #expect(link.events.contains(.finished(slot: 0, tick: start &+ ticks, on: .single)))
        // A recovery after a reset does not tell again.
        link.rebootDevice()
        for _ in 0..<200 { link.tick() }
        #expect(link.events.contains(.recovered(slots: 1)))
        #expect(notices().count == 1)
        // What 2.0 cannot say is refused, and nothing is sent.
        let sent = link.engine.bytesSent
        let other = Message3.Play(play: 1, channels: 0b10, slot: 0)
        let refused: Result<UInt32, SessionError>? = link.run { CommandOperation(.play(other), completion: $0) }
        #expect(refused.map { if case .failure(.unavailable(_, let version)) = $0 { version.major == 2 } else { false } } == true)
        #expect(link.engine.bytesSent == sent)
    }

    @Test func uploadCommitPlayAndTheNoticesOfEachChannel() throws {
        let link = try Self.link3()
        let program = Self.program()
        #expect(try Self.upload(program, slot: 1, on: link) == 30)
        #expect(link.device.programs.program(1) == program)
        // 2.0's PLAY as the single-actuator calls send it: play 0 on channel 0.
        link.clearSamples()
        let start = try Self.play(Message3.Play(play: 0, channels: 1, slot: 1), on: link)
        for _ in 0..<60 { link.tick() }
        #expect(link.events.contains(.started(slot: 1, tick: start, on: .single)))
        #expect(link.events.contains(.firstOutput(slot: 1, tick: start, on: .single)))
        #expect(Self.ends(link) == [.finished(slot: 1, tick: start &+ 30, on: .single)])
        let offset = Int(start &- link.firstSampleTick)
        #expect(link.channelSamples[offset].map(\.amplitude) == [200, 0])
        #expect(link.channelSamples[offset + 29].map(\.amplitude) == [200, 0])
        // One PLAY on both channels: the same start tick on each, one end on each.
        let group = try Self.play(Message3.Play(play: 7, channels: 0b11, slot: 1), on: link)
        for _ in 0..<60 { link.tick() }
        for channel: UInt8 in [0, 1] {
            let on = PlayChannel(play: 7, channel: channel)
            #expect(link.events.contains(.started(slot: 1, tick: group, on: on)))
            #expect(link.events.contains(.finished(slot: 1, tick: group &+ 30, on: on)))
        }
        // Each from its own notice, on a clean line: no play record was needed.
        #expect(Self.ends(link).count == 3 && link.engine.tracker.queries == 0 && link.engine.tracker.isEmpty)
    }

    @Test func aStopOfOnePlayLeavesTheOtherPlaying() throws {
        let link = try Self.link3()
        _ = try Self.upload(Self.program(ticks: 20), slot: 0, on: link)
        _ = try Self.play(Message3.Play(play: 1, channels: 0b01, slot: 0, loops: 0), on: link)
        _ = try Self.play(Message3.Play(play: 2, channels: 0b10, slot: 0, loops: 0), on: link)
        for _ in 0..<50 { link.tick() }
        let stop: Result<UInt32, SessionError>? = link.run {
            CommandOperation(.stop(Message3.Stop(play: 1, flags: Message3.Stop.brakeFlag)), completion: $0)
        }
        let tick = try #require(try stop?.get())
        link.clearSamples()
        for _ in 0..<100 { link.tick() }
        #expect(Self.ends(link) == [.stopped(slot: 0, tick: tick, replaced: false, on: PlayChannel(play: 1, channel: 0))])
        #expect(link.channelSamples.suffix(50).allSatisfy { $0[0].amplitude == 0 && $0[1].amplitude == 200 })
        // 2.0's STOP, every play on every channel: the other ends too.
        let all: Result<UInt32, SessionError>? = link.run { CommandOperation(.stop(Message.Stop(brake: true)), completion: $0) }
        _ = try #require(try all?.get())
        for _ in 0..<20 { link.tick() }
        #expect(Self.ends(link).count == 2 && Self.ends(link).last?.playChannel == PlayChannel(play: 2, channel: 1))
    }

    @Test func aLostEndIsLearnedFromThePlayRecordOfItsChannel() throws {
        let link = try Self.link3()
        _ = try Self.upload(Self.program(ticks: 25), slot: 0, on: link)
        // Every TELEMETRY is lost: the end comes from QUERY play 3, channel 1 and its STATUS (2.19).
        link.noticeFilter = { withoutTelemetry($0) }
        let start = try Self.play(Message3.Play(play: 3, channels: 0b10, slot: 0), on: link)
        for _ in 0..<300 { link.tick() }
        let on = PlayChannel(play: 3, channel: 1)
        #expect(link.events.contains(.started(slot: 0, tick: start, on: on)))
        #expect(link.events.contains(.firstOutput(slot: 0, tick: start, on: on)))
        #expect(Self.ends(link) == [.finished(slot: 0, tick: start &+ 25, on: on)])
        #expect(link.engine.tracker.queries >= 1 && link.engine.tracker.isEmpty)
    }

    @Test func pingAndTheRefusalOfAFormatTwoProgramOnThreeZero() throws {
        let link = try Self.link3()
        var sample: Result<PingSample, SessionError>?
        link.engine.ping(now: link.time) { sample = $0 }
        for _ in 0..<10 where sample == nil { link.tick() }
        let pong = try #require(try sample?.get()).pong
        #expect(Int(link.device.now) - Int(pong.tick) <= 3)
        // 3.14: a 3.0 device takes format 3 only; a host compiles for the device's major.
        let format2 = Program(instructions: [.setA(9), .end(delay: 5)]).bytes
        let refused: Result<UInt32, SessionError>? = link.run { UploadOperation(slot: 0, program: format2, completion: $0) }
        #expect(refused.map { if case .failure(.rejected(_, let code, _)) = $0 { code.rawValue == 3 } else { false } } == true)
    }
}

/// `bytes` (whole frames) without the TELEMETRY frames.
func withoutTelemetry(_ bytes: [UInt8]) -> [UInt8] {
    var kept: [UInt8] = []
    var frame: [UInt8] = []
    for byte in bytes {
        frame.append(byte)
        guard byte == 0 else { continue }
        var decoder = FrameDecoder()
        if case .success(let decoded)? = decoder.push(frame).first, decoded.messageType == MessageType.telemetry.rawValue {
            frame = []
            continue
        }
        kept += frame
        frame = []
    }
    return kept + frame
}
