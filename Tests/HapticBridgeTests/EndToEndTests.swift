import DeviceTestSupport
import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticVirtualDevice
import Testing

@testable import HapticBridge

/// Every corpus pattern through the whole chain: AHAP -> compiler (for the actuator the device
/// reports) -> session -> real pty -> virtual device, whose output must equal the interpreter run
/// offline on the same program, tick for tick.
@Suite(.serialized) struct EndToEndTests {
    @Test func everyCorpusPatternPlaysExactlyAsTheModelPredicts() async throws {
        let files = corpusFiles()
        try #require(!files.isEmpty)
        // 10 times real time (ticks and line alike) so that the corpus's three minutes of
        // patterns take 20 s; the device sees the same bytes at the same ticks. Its watchdog is
        // off: the host paces keep-alives by the rate INFO reports, which this device runs 10
        // times faster (WatchdogTests cover it in real time).
        let speed = 10.0
        var configuration = DeviceModel.Configuration.default
        configuration.watchdog = 0
        let fixture = try await DeviceFixture.start(configuration: configuration, speed: speed)
        defer { Task { await fixture.stop() } }
        let device = fixture.device
        let info = try #require(await device.info)
        let profile = try #require(await device.profile)
        // Compiled for this device as `HapticDevice.compile` does, except that the host's answer
        // to a CREDIT takes 10 times as many of its faster ticks: a long streamed file (over
        // 100 s, larger than any slot) is paced for that, or it would underrun on a busy machine.
        var capabilities = DeviceCapabilities(info: info, baudRate: 115_200)
        capabilities.streamLatencyTicks *= Int(speed)
        var options = CompileOptions(device: capabilities)
        options.tickRate = info.rate
        var streamed = 0, played = 0
        for file in files {
            let pattern = try AHAPDecoder().decode(contentsOfFile: file).pattern
            let program = try PatternCompiler.compile(pattern, profile: profile, options: options).program
            let prepared = try await device.prepare(program: program)
            if prepared.isStreamed {
                streamed += 1
                #expect(program.bytes.count > Int(info.slotCapacity) || program.body.count > Int(info.maxBody))
            }
            let receipt = try await device.play(prepared)
            let end = try await device.waitForEnd(of: receipt, timeout: prepared.duration + 2)
            #expect(end == .finished(slot: receipt.slot, tick: receipt.startTick &+ prepared.totalTicks), "\(file)")
            let expected = offlineOutput(program.bytes)
            let recorded = fixture.recorded(receipt, count: expected.count)
            let mismatch = recorded.indices.first { recorded[$0] != expected[$0] }
            #expect(
                recorded.count == expected.count && mismatch == nil,
                "\(file): \(recorded.count) samples recorded, \(expected.count) expected, first difference at tick \(mismatch ?? -1)")
            played += 1
        }
        #expect(played == files.count)
        print("end to end: \(played) patterns, \(streamed) streamed")
    }
}
