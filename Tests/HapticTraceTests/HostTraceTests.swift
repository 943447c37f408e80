import FirmwareModel
import Foundation
import HapticProtocol
import HapticSession
import HapticTrace
import HapticTransport
import Testing

/// The host's trace (`RecordingTransport`) and the knobs of a served device (`EmulatorKnobs`).
@Suite struct HostTraceTests {
    static let info = Message.Info(
        firmwareMajor: 0, firmwareMinor: 3, firmwarePatch: 1, actuatorCode: 1, profileID: 42, deviceID: 1,
        capabilities: [.stream], rate: 1000, brakeTicks: 20, safetyThreshold: 224, slotCount: 4, safetyTicks: 30000,
        maxBody: 4096, slotCapacity: 1024, streamCapacity: 256, rxBuffer: 256, wakeTicks: 20, idleTicks: 2000,
        watchdog: 1000, profileName: Array("lra-170".utf8))

    @Test func framesBothWaysLandOnTheDeviceTicks() throws {
        let (host, device) = MemoryTransport.pair()
        let recorder = RecordingTransport(host)
        let start = monotonicSeconds()
        try recorder.write(try Message.ping(.init(echo: 1)).encoded(sequence: 4), timeout: 1)
        let ping = try device.read(maxCount: 64, timeout: 1)
        #expect(!ping.isEmpty)
        try device.write(try Message.pong(.init(echo: 1, tick: 500, subtick: 0)).encoded(sequence: 4), timeout: 1)
        var received: [UInt8] = []
        while received.last != 0 { received += try recorder.read(maxCount: 64, timeout: 1) }
        // Tick 1000 ran at `start`: every frame since is at or after it, well within a minute.
        let clock = ClockEstimate(
            sample: PingSample(sent: start, received: start, pong: .init(echo: 0, tick: 1000, subtick: 0)), rate: 1000,
            measuredSubtick: true)
        let frames = recorder.frames(clock: clock)
        #expect(frames.map(\.type) == ["PING", "PONG"])
        #expect(frames.map(\.frame) == [.in, .out])
        #expect(frames.allSatisfy { $0.tick >= 1000 && $0.tick < 61_000 })

        let (header, records) = recorder.trace(clock: clock, info: Self.info, profile: "lra-170hz-10mm", samples: nil)
        #expect(header.source == "host" && header.tickRate == 1000 && header.brakeTicks == 20 && header.outputs == false)
        let file = try DeviceTrace.read(DeviceTrace.text(header: header, records: records))
        #expect(file.records.filter { if case .frame = $0 { true } else { false } }.count == 2)
    }

    @Test func knobsOrderTheirActionsAndWriteTheTrace() throws {
        let knobs = EmulatorKnobs(unplugAfter: 0.5)
        #expect(knobs.timers(rebootAfter: 2).map(\.at) == [0.5, 2])
        #expect(knobs.timers(rebootAfter: 0.1).map(\.action) == [.reboot, .unplug])
        #expect(EmulatorKnobs().timers(rebootAfter: nil).isEmpty)

        let header = DeviceTrace.Header(source: "test", profile: "lra-170hz-10mm", tickRate: 1000, brakeTicks: 20)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("knobs-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lines: [String] = []
        try knobs.write(path, header: header, records: [], log: { lines.append($0) })
        #expect(lines == ["trace: 0 records in \(path)"])
        #expect(try DeviceTrace.read(contentsOf: path).header == header)

        let missing = "/nonexistent-folder/trace.jsonl"
        #expect {
            try knobs.write(missing, header: header, records: [], log: { _ in })
        } throws: { error in
            "\(error)".hasPrefix("cannot write the trace \(missing): ")
        }
    }
}
