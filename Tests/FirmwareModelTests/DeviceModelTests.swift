import FirmwareModel
import HapticProtocol
import Testing

/// The Swift device's interface as the virtual device uses it, with values worked out from
/// PROTOCOL.md part 2 by hand (the vectors and the differential tests cover the rest).
struct DeviceModelTests {
    /// Decodes everything in `bytes` into messages with their sequence numbers.
    func messages(_ bytes: [UInt8]) -> [(sequence: UInt8, message: Message)] {
        var decoder = FrameDecoder()
        return decoder.push(bytes).compactMap { result in
            guard case .success(let frame) = result, let message = try? Message(frame: frame) else { return nil }
            return (frame.sequence, message)
        }
    }

    func send(_ message: Message, _ sequence: UInt8, to device: inout DeviceModel, subtick: UInt16 = 0) -> [Message] {
        messages(device.receive(try! message.encoded(sequence: sequence), subtick: subtick)).map(\.message)
    }

    static let buzz = Program(instructions: [.setA(200), .setA(0, delay: 5), .end(delay: 3)]).bytes

    @Test func bootSendsResetOnce() {
        var device = DeviceModel(configuration: .init(resetReason: .powerOn, bootCount: 9))
        let boot = messages(device.takeOutput())
        #expect(boot.count == 1)
        #expect(boot.first?.sequence == 0)
        #expect(boot.first?.message == .reset(.init(reasonCode: 1, bootCount: 9)))
        #expect(device.takeOutput().isEmpty)
        #expect(device.step().sent.isEmpty)
    }

    @Test func helloAnswersInfoFromTheConfiguration() {
        var device = DeviceModel(
            configuration: .init(
                slotCount: 3, slotCapacity: 200, streamCapacity: 0,
                actuator: .erm, profileName: "erm-10mm",
                capabilities: [.stream, .activeBrake]))
        _ = device.takeOutput()
        let reply = send(.hello(.init()), 4, to: &device)
        guard case .info(let info)? = reply.first else {
            Issue.record("no INFO: \(reply)")
            return
        }
        #expect(info.slotCount == 3 && info.slotCapacity == 200 && info.programMemory == 600)
        #expect(info.capabilities == [.activeBrake, .status])  // STREAM follows the ring, which is absent; STATUS always (2.19)
        #expect(info.actuator == .erm && info.profileNameString == "erm-10mm")
        #expect(info.wakeTicks == 20 && info.idleTicks == 2000 && info.watchdog == 1000 && info.rate == 1000)
    }

    /// Cold stage: ACK value = now + W; STARTED at that tick; PREPARE first removes the delay.
    @Test func coldStartVersusPrepared() {
        var device = DeviceModel()
        _ = device.takeOutput()
        _ = send(.upload(.init(slot: 0, offset: 0, data: Self.buzz)), 1, to: &device)
        #expect(send(.commit(.init(slot: 0, program: Self.buzz)), 2, to: &device) == [.ack(.init(type: .commit, value: 8))])
        for _ in 0..<10 { _ = device.step() }
        #expect(send(.play(.init(slot: 0)), 3, to: &device) == [.ack(.init(type: .play, value: 30))])
        var started: UInt32?
        for _ in 0..<40 {
            let tick = device.now
            let step = device.step()
            if messages(step.sent).contains(where: { if case .telemetry(let t) = $0.message { t.event == .started } else { false } }) {
                started = tick
                #expect(step.sample == OutputSample(amplitude: 200, sharpness: 0))
            }
        }
        #expect(started == 30)
        // Now warm (used within the last 2000 ticks): a PLAY starts at the next step.
        #expect(send(.play(.init(slot: 0)), 4, to: &device) == [.ack(.init(type: .play, value: device.now))])
        #expect(send(.prepare(.init()), 5, to: &device) == [.ack(.init(type: .prepare, value: device.now))])
        #expect(device.stage.state == .warm)
    }

    @Test func pongCarriesTickAndSubtick() {
        var device = DeviceModel()
        for _ in 0..<1234 { _ = device.step() }
        let reply = send(.ping(.init(echo: 0xABCD)), 9, to: &device, subtick: 0x4000)
        #expect(reply == [.pong(.init(echo: 0xABCD, tick: 1234, subtick: 0x4000))])
    }

    /// A value type: a copy is an independent device (the virtual device can fork a session).
    @Test func copiesAreIndependent() {
        var a = DeviceModel(configuration: .init(wakeTicks: 0))
        _ = send(.upload(.init(slot: 0, offset: 0, data: Self.buzz)), 1, to: &a)
        _ = send(.commit(.init(slot: 0, program: Self.buzz)), 2, to: &a)
        var b = a
        _ = send(.play(.init(slot: 0)), 3, to: &a)
        #expect(a.step().sample.amplitude == 200)
        #expect(b.step().sample.amplitude == 0)
        #expect(a.slotIsReady(0) && b.slotIsReady(0) && b.slotFill(0) == UInt32(Self.buzz.count))
    }

    /// The watchdog's tick, by hand: the last frame before step 100, watchdog 50: brake at 150.
    @Test func watchdogFiresAtTheExactTick() {
        var device = DeviceModel(configuration: .init(wakeTicks: 0, watchdog: 50))
        let long = Program(instructions: [.setA(90), .end(delay: 5000)]).bytes
        _ = send(.upload(.init(slot: 1, offset: 0, data: long)), 1, to: &device)
        _ = send(.commit(.init(slot: 1, program: long)), 2, to: &device)
        for _ in 0..<100 { _ = device.step() }
        _ = send(.play(.init(slot: 1)), 3, to: &device)
        var samples: [OutputSample] = []
        var fault: Message.Telemetry?
        for _ in 0..<60 {
            let step = device.step()
            samples.append(step.sample)
            for (_, m) in messages(step.sent) { if case .telemetry(let t) = m, t.event == .fault { fault = t } }
        }
        #expect(samples[49] == OutputSample(amplitude: 90, sharpness: 0))
        #expect(samples[50].isBraking)
        #expect(fault == Message.Telemetry(event: .fault, slot: 1, code: 50, tick: 150))
    }
}

/// 2.19: the model keeps two play records; record 1 is the play before the most recent one.
@Suite struct DeviceModelPlayRecordTests {
    @Test func recordOneIsThePlayBefore() throws {
        var device = DeviceModel(configuration: .default)
        _ = device.takeOutput()
        var builder = ProgramBuilder(sharpness: false)
        builder.setA(200, at: 0)
        let program = builder.program(endingAt: 5).bytes
        var seq: UInt8 = 1
        func command(_ message: Message) throws {
            _ = device.receive(try message.encoded(sequence: seq))
            seq &+= 1
        }
        func status(_ index: UInt8) throws -> Message.Status? {
            let out = device.receive(try Message.query(.init(index: index)).encoded(sequence: 99))
            var decoder = FrameDecoder()
            for case .success(let frame) in decoder.push(out) {
                if case .status(let status) = try Message(frame: frame) { return status }
            }
            return nil
        }
        try command(.upload(.init(slot: 0, offset: 0, data: program)))
        try command(.commit(.init(slot: 0, program: program)))
        try command(.play(.init(slot: 0, loops: 0)))  // seq 3: loops until replaced
        for _ in 0..<40 { _ = device.step() }
        try command(.play(.init(slot: 0)))  // seq 4 replaces it
        for _ in 0..<20 { _ = device.step() }
        let older = try #require(try status(1)).record
        #expect(older.sequence == 3 && older.endEvent == .stopped && older.code == Message.Telemetry.stoppedByReplacement)
        let newer = try #require(try status(0)).record
        #expect(newer.sequence == 4 && newer.endEvent == .finished && newer.start == older.end)
        #expect(try #require(try status(2)).record.isEmpty)
    }
}
