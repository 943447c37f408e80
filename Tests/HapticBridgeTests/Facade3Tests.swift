import DeviceTestSupport
import FirmwareModel
import HapticBridge
import HapticProtocol
import HapticSession
import HapticTransport
import HapticVirtualDevice
import Synchronization
import TestSupport
import Testing

/// `HapticDevice` on a protocol 3.0 device (PROTOCOL-3.md 3.14): the 3.0 virtual device on a real
/// pty, and the 3.0 device model served in real time over the memory link (its samples per channel).
@Suite struct Facade3Tests {
    /// DeviceModel3 stepped at 1 kHz of host time on its own thread, answering what arrives.
    final class Served3: Sendable {
        let host: MemoryTransport
        private let serving: ServingThread
        /// Every channel's amplitude, tick by tick from tick 0.
        final class Log: Sendable {
            let amplitudes = Mutex<[[UInt8]]>([])
        }
        let log = Log()

        init(configuration: DeviceModel3.Configuration = DeviceModel3.Configuration()) {
            let (host, wire) = MemoryTransport.pair(aToB: .none, bToA: .none, seed: 1)
            self.host = host
            let log = log
            serving = ServingThread { goOn in
                var model = DeviceModel3(configuration: configuration)
                try wire.write(model.takeOutput(), timeout: 0)
                let start = monotonicSeconds()
                var steps = 0
                while goOn() {
                    let bytes = try wire.read(maxCount: 4096, timeout: 0.001)
                    if !bytes.isEmpty { try wire.write(model.receive(bytes), timeout: 0) }
                    while Double(steps) < (monotonicSeconds() - start) * 1000 {
                        let step = model.step()
                        log.amplitudes.withLock { $0.append(step.samples.map(\.amplitude)) }
                        try wire.write(step.sent, timeout: 0)
                        steps += 1
                    }
                }
            }
        }

        func stop() { serving.stop() }
    }

    @Test func theThreeZeroVirtualDeviceOnItsPtyIsSpokenToInThreeZero() async throws {
        let virtual = try VirtualDevice3(channels: 3, players: 4)
        virtual.start()
        defer { virtual.stop() }
        let device = try await HapticDevice.open(path: virtual.path, options: HapticDevice.Options(timing: DeviceFixture.timing))
        let description = try #require(await device.deviceDescription)
        #expect(description.version == .version3 && description.channels.count == 3 && description.players == 4)
        let prepared = try await device.prepare(preset: "impact.heavy")
        let placed = try await device.play(prepared, as: .play(4, on: [2]))
        let end = try await device.waitForEnd(of: placed, timeout: 5)
        #expect(end == .finished(slot: placed.slot, tick: placed.startTick &+ prepared.totalTicks, on: PlayChannel(play: 4, channel: 2)))
        let samples = virtual.samples(from: placed.startTick, count: Int(prepared.totalTicks))
        #expect(samples.contains { $0[2].amplitude > 0 } && samples.allSatisfy { $0[0].amplitude == 0 && $0[1].amplitude == 0 })
        await device.close()
    }

    @Test func theSingleActuatorCallsPlayOnChannelZeroAndPlacedPlaysWhereAsked() async throws {
        let served = Served3()
        defer { served.stop() }
        let device = HapticDevice(transport: served.host, options: HapticDevice.Options(timing: DeviceFixture.timing))
        let info = try await device.connect()
        #expect(info.version == .version3)
        let description = try #require(await device.deviceDescription)
        #expect(description.channels.count == 2 && description.players == 4)
        // Compiled for the device's major: format 3, committed by the 3.0 device.
        let prepared = try await device.prepare(preset: "impact.medium")
        #expect(prepared.program.header.version == ProgramHeader.formatVersion3 && prepared.slot != nil)
        let receipt = try await device.play(prepared)
        let end = try await device.waitForEnd(of: receipt, timeout: 5)
        #expect(end == .finished(slot: receipt.slot, tick: receipt.startTick &+ prepared.totalTicks, on: .single))
        // Placed: play 5 on channel 1 sounds there and not on channel 0.
        let placed = try await device.play(prepared, as: .play(5, on: [1]))
        let placedEnd = try await device.waitForEnd(of: placed, timeout: 5)
        #expect(placedEnd == .finished(slot: placed.slot, tick: placed.startTick &+ prepared.totalTicks, on: PlayChannel(play: 5, channel: 1)))
        let window = served.log.amplitudes.withLock { Array($0[Int(placed.startTick)..<Int(placed.startTick &+ prepared.totalTicks)]) }
        #expect(window.contains { $0[1] > 0 } && window.allSatisfy { $0[0] == 0 })
        // A STOP of one play: the other, looping on channel 0, goes on.
        let looping = try await device.play(prepared, as: .play(1, on: [0]), loops: 0)
        let stopped = try await device.play(prepared, as: .play(9, on: [1]), loops: 0)
        // Started, not pending: a STOP cancels a pending play without a notice (3.11).
        _ = try await device.waitForFirstOutput(of: stopped, timeout: 5)
        let tick = try await device.stop(play: 9)
        let stoppedEnd = try await device.waitForEnd(of: stopped, timeout: 5)
        #expect(stoppedEnd == .stopped(slot: stopped.slot, tick: tick, replaced: false, on: PlayChannel(play: 9, channel: 1)))
        await #expect(throws: SessionError.self) { try await device.waitForEnd(of: looping, timeout: 0.2) }
        try await device.stop()
        _ = try await device.waitForEnd(of: looping, timeout: 5)
        await device.close()
    }
}
