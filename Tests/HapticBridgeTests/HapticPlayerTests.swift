import DeviceTestSupport
import Foundation
import HapticBridge
import HapticPattern
import HapticSession
import HapticVirtualDevice
import Synchronization
import Testing

/// `HapticPlayer` (Core Haptics' advanced player) on the 3.0 virtual device on a real pty: each
/// control's effect on the recorded samples of channel 0 (PROTOCOL-3.md 3.4, 3.5, 3.7), against the
/// same play without it.
@Suite struct HapticPlayerTests {
    /// A ramp then a hold, so that a shift or a seek shows in the samples.
    static let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.6, intensity: 0.8, attack: 0.3)])
    static let fade = 8  // R, the virtual device's fade_ticks (3.7)

    struct Bench {
        let virtual: VirtualDevice3
        let device: HapticDevice
        let prepared: PreparedPattern
        var ticks: Int { Int(prepared.totalTicks) }

        static func open() async throws -> Bench {
            let virtual = try VirtualDevice3()
            virtual.start()
            let device = try await HapticDevice.open(path: virtual.path, options: HapticDevice.Options(timing: DeviceFixture.timing))
            return Bench(virtual: virtual, device: device, prepared: try await device.prepare(HapticPlayerTests.pattern))
        }

        func close() async {
            await device.close()
            virtual.stop()
        }

        /// Channel 0's amplitudes from `start`, `count` ticks (after waiting for them).
        func amplitudes(from start: UInt32, count: Int) -> [UInt8] {
            _ = virtual.waitForTick(start &+ UInt32(count), timeout: 5)
            return virtual.samples(from: start, count: count).map { $0[0].amplitude }
        }

        /// The play's end tick and channel 0's output over it, for the player as it is set.
        func run(_ player: HapticPlayer, atTime time: Double = 0) async throws -> (PlayReceipt, end: UInt32, [UInt8]) {
            let receipt = try await player.start(atTime: time)
            let end = try #require(try await device.waitForEnd(of: receipt, timeout: 10).playEvent?.tick)
            return (receipt, end, amplitudes(from: receipt.startTick, count: Int(end &- receipt.startTick)))
        }
    }

    /// Records every completion-handler call.
    final class Completions: Sendable {
        let calls = Mutex<[String?]>([])
        var handler: @Sendable (Error?) -> Void { { error in self.calls.withLock { $0.append(error.map { "\($0)" }) } } }

        func wait(for count: Int) async -> [String?] {
            for _ in 0..<500 where calls.withLock({ $0.count }) < count { try? await Task.sleep(for: .milliseconds(10)) }
            try? await Task.sleep(for: .milliseconds(100))  // a second call would come now
            return calls.withLock { $0 }
        }
    }

    @Test func pauseThenResumeShiftsTheOutputByThePausedTicksWithTheFades() async throws {
        let bench = try await Bench.open()
        let player = bench.device.makePlayer(bench.prepared, as: .play(1, on: [0]))
        let (_, referenceEnd, reference) = try await bench.run(player)
        #expect(reference.count == bench.ticks && referenceEnd != 0)
        let started = try await player.start()
        let host = HapticDevice.hostTime()
        let paused = try await player.pause(atTime: host + 0.15)
        let resumed = try await player.resume(atTime: host + 0.25)
        let end = try #require(try await bench.device.waitForEnd(of: started, timeout: 10).playEvent?.tick)
        let p = Int(paused &- started.startTick), d = Int(resumed &- paused), r = Self.fade
        #expect(p > r && p + r < 300 && d > 2 * r, "paused at program tick \(p) for \(d) ticks")
        #expect(Int(end &- started.startTick) == bench.ticks + d, "the end comes d ticks later")
        let out = bench.amplitudes(from: started.startTick, count: bench.ticks + d)
        #expect(Array(out[..<p]) == Array(reference[..<p]), "before the pause, as without it")
        #expect(out[p] < reference[p] && (0..<r).allSatisfy { out[p + $0 + 1] <= out[p + $0] }, "the gain falls")
        #expect(out[(p + r)..<(p + d)].allSatisfy { $0 == 0 }, "silent once faded, until the resume")
        #expect((0..<r).allSatisfy { out[p + d + $0] <= reference[p + $0] }, "the gain rises")
        #expect(Array(out[(p + d + r)...]) == Array(reference[(p + r)...]), "then the output without the pause, shifted by d")
        await bench.close()
    }

    @Test func seekLandsOnTheAskedProgramTick() async throws {
        let bench = try await Bench.open()
        let player = bench.device.makePlayer(bench.prepared, as: .play(2, on: [0]))
        let (_, _, reference) = try await bench.run(player)
        let started = try await player.start()
        #expect(bench.virtual.waitForTick(started.startTick &+ 30, timeout: 5))
        let k = 400
        let output = try await player.seek(toOffset: Double(k) / Double(bench.prepared.rate))
        let end = try #require(try await bench.device.waitForEnd(of: started, timeout: 10).playEvent?.tick)
        #expect(Int(end &- output) == bench.ticks - k, "program tick k is output at the ACK's tick")
        let out = bench.amplitudes(from: output, count: bench.ticks - k)
        #expect(Array(out[Self.fade...]) == Array(reference[(k + Self.fade)...]), "from tick k on, faded back in over R")
        await bench.close()
    }

    @Test func rateTwoHalvesThePlaysTicksAndMuteGivesSilence() async throws {
        let bench = try await Bench.open()
        let player = bench.device.makePlayer(bench.prepared, as: .play(3, on: [0]))
        let (_, _, reference) = try await bench.run(player)
        #expect(reference.contains { $0 > 0 })
        try await player.setPlaybackRate(2)
        // Started ahead: RATE reaches the PENDING player, which starts at 2x (3.11).
        let (fast, fastEnd, _) = try await bench.run(player, atTime: HapticDevice.hostTime() + 0.1)
        #expect(abs(Int(fastEnd &- fast.startTick) - bench.ticks / 2) <= 1)
        await #expect(throws: HapticPlayerError.rateOutOfRange(5)) { try await player.setPlaybackRate(5) }
        try await player.setPlaybackRate(1)
        try await player.setMuted(true)
        let (_, _, muted) = try await bench.run(player, atTime: HapticDevice.hostTime() + 0.1)
        #expect(muted.count == bench.ticks && muted.allSatisfy { $0 == 0 })
        await bench.close()
    }

    @Test func theCompletionHandlerFiresOnceWithNilOnANaturalEndAndWithTheErrorOnAStopOrAFault() async throws {
        let bench = try await Bench.open()
        let player = bench.device.makePlayer(bench.prepared, as: .play(4, on: [0, 1]))
        let finished = Completions()
        await player.setCompletionHandler(finished.handler)
        try await player.start()
        #expect(await finished.wait(for: 1) == [nil])

        let stopped = Completions()
        await player.setCompletionHandler(stopped.handler)
        try await player.setLoopEnabled(true)
        try await player.start()
        #expect(bench.virtual.waitForTick(bench.virtual.now &+ 50, timeout: 5))
        try await player.stop()
        let stops = await stopped.wait(for: 1)
        #expect(stops.count == 1 && stops[0]?.contains("stopped") == true)

        let faulted = Completions()
        await player.setCompletionHandler(faulted.handler)
        try await player.setLoopEnabled(false)  // channel 0 finishes, channel 1 faults: one call, the fault
        let started = try await player.start()
        #expect(bench.virtual.waitForTick(started.startTick &+ 20, timeout: 5))
        bench.virtual.setStageFault(channel: 1, code: 2)
        let faults = await faulted.wait(for: 1)
        #expect(faults.count == 1 && faults[0]?.contains("fault") == true)
        await bench.close()
    }
}
