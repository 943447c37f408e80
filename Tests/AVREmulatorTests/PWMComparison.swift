// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import Testing

    /// The board's PWM output against the model's: the updates the firmware wrote in each device tick
    /// and what `PWMSynthesis` makes of the model's samples (the default LRA build's stage settings).
    enum PWMComparison {
        /// The PWM updates of everything the board has run so far.
        static func trace(of board: AVRBoard) throws -> PWMTrace {
            try #require(PWMTrace(events: board.events(), updatesPerTick: 8, cyclesPerTick: board.cyclesPerTick, until: board.cycle))
        }

        /// `count` silent samples: the ticks before a play starts.
        static func silent(_ count: Int) -> [OutputSample] { Array(repeating: .silent, count: count) }

        /// How many device ticks differ, `samples[k]` being the model's output of device tick k; the
        /// first three are recorded as issues, named by `tick` (e.g. "device tick 12").
        static func mismatches(_ trace: PWMTrace, _ samples: [OutputSample], tick: (Int) -> String) throws -> Int {
            var synthesis = PWMSynthesis(settings: try AVRFirmwareBuild().pwmSettings())
            var mismatches = 0
            for (k, sample) in samples.enumerated() {
                let expected = synthesis.tick(sample)
                let recorded = Array(trace.updates(ofDeviceTick: k))
                if recorded != expected {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("\(tick(k)): board \(recorded), model \(expected) from \(sample)") }
                }
            }
            return mismatches
        }
    }
#endif
