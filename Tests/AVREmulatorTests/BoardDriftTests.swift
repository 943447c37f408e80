// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import SerialBridge
    import TestSupport
    import Testing

    /// `haptic emulate --mcu atmega328p --drift-ppm`: the simulated board's clock runs that far off
    /// the host's, as the host's clock estimate measures it from PINGs over three seconds.
    @Suite struct BoardDriftTests {
        @Test func theHostMeasuresTheBoardsDrift() async throws {
            let served = try ServedBoard()
            served.server.driftPPM = 5_000
            served.start()
            defer { served.stop() }
            let device = try await HapticDevice.open(path: served.pty.slavePath)
            served.server.resetLongestLag()
            var estimate = try await device.synchronizeClock(samples: 4)
            let end = HapticDevice.hostTime() + 3
            while HapticDevice.hostTime() < end {
                try await Task.sleep(nanoseconds: 50_000_000)
                estimate = try await device.synchronizeClock(samples: 2)
            }
            // While the host was there (a write to a pty nobody reads can hold the server up later).
            let lag = served.server.longestLag
            await device.close()
            print(
                "REPORT board drift: set 5000 ppm, estimated \(String(format: "%.0f +- %.0f", estimate.ratePPM, estimate.ratePPMBound)) ppm; the simulation lagged the wall clock by up to \(String(format: "%.1f", lag * 1000)) ms"
            )
            // A simulation that fell behind the wall clock (a machine too loaded to run it in real
            // time) did not run at its clock's rate while it lagged: nothing to check then.
            guard lag < 0.002 else { return }
            #expect(abs(estimate.ratePPM - 5_000) <= estimate.ratePPMBound)
            #expect(estimate.ratePPMBound < 2_500)
        }
    }
#endif
