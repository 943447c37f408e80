// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import HapticPattern
    import HapticTransport
    import DeviceTestSupport
    import SerialBridge
    import TestSupport
    import Testing

    /// The simulated ATmega328P (the real firmware in simavr, in real time) behind a fault-injecting
    /// pseudo-terminal (`NoisyLineProxy`: drops, bit flips, inserted bytes and bursts, both ways):
    /// every play is reported as the board played it (PROTOCOL.md 2.19). Seeded noise; assertions on
    /// outcomes, not timings.
    @Suite(.serialized) struct NoisyBoardTests {
        @Test func everyPlayIsReportedAsTheBoardPlayedIt() async throws {
            let served = try ServedBoard()
            served.start()
            defer { served.stop() }
            try await Task.sleep(nanoseconds: 200_000_000)  // booted
            let profile = FaultProfile(drop: 0.01, corrupt: 0.01)
            let noise = (
                LineNoise(profile: profile, insert: 0.002, burst: 0.001, burstLength: 6, seed: 29),
                LineNoise(profile: profile, insert: 0.002, burst: 0.001, burstLength: 6, seed: 30)
            )
            let run = try LossyLineRun(devicePath: served.pty.slavePath, noise: noise, baudRate: SerialConfiguration.referenceBaudRate)
            let patterns =
                ["impact.medium", "notification.success", "impact.heavy"].compactMap { Preset.named($0)?.pattern }
                + [HapticPattern(events: [.continuous(at: 0, duration: 1.5, intensity: 0.5, sharpness: 0.3)])]
            let tally = await run.run(patterns, count: 6)
            run.proxy.stop()
            print("noisy line, simulated ATmega328P: \(tally)")
            #expect(tally.plays == 6)
            #expect(tally.misreported == 0, "\(tally.messages)")
            #expect(tally.finished >= 4, "\(tally.messages)")
            #expect(tally.messages.allSatisfy { !$0.contains("\n") })
        }
    }
#endif
