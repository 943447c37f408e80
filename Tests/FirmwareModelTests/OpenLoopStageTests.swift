import Testing

@testable import FirmwareModel

/// The open-loop stage's per-tick edges (hardware/README.md, "PWM drive synthesis"), with the
/// figures of lra-170hz-10mm on a 5 V bridge: rated duty 102, ceiling 127, tau 22.469 ms, kick 36 ms,
/// brake 13 ms at B = 1.25.
struct OpenLoopStageTests {
    static func constants(_ kick: KickRule) -> OpenLoopStage.Constants {
        OpenLoopStage.Constants(
            ratedDuty: 102, overdriveDuty: 127, alphaDriven: OpenLoopStage.alpha(tauMicroseconds: 22_469),
            alphaCoast: OpenLoopStage.alpha(tauMicroseconds: 22_469), kickTicks: 36, brakeTicks: 13, brakeRatioQ8: 320,
            minimumEdgeQ8: 256, bidirectional: true, kick: kick)
    }

    static func run(_ kick: KickRule, _ amplitudes: [UInt8]) -> (duties: [Int], envelopes: [Int]) {
        var stage = OpenLoopStage(constants: constants(kick))
        var duties: [Int] = [], envelopes: [Int] = []
        for a in amplitudes {
            let drive = stage.tick(OutputSample(amplitude: a, sharpness: 128))
            duties.append(drive.inverted ? -Int(drive.duty) : Int(drive.duty))
            envelopes.append(stage.envelope)
        }
        return (duties, envelopes)
    }

    @Test func constantsAreTheBoards() {
        let c = Self.constants(.ceiling)
        #expect(c.alphaDriven == 2_853)  // 2 / (2 x 22.469 + 1) x 65536, rounded
        #expect(c.inverseAlphaQ8 == 5_881)  // 65536 x 256 / 2853, rounded
    }

    /// Full scale from rest: the ceiling is k x the level, so both rules kick at 127 for the whole
    /// window, 36 ticks (the prediction is then at 97 % of the level: kickMs is tau ln(k / (k - 1))
    /// for the profile's k = 1.25, and the duties give 127 / 102 = 1.245).
    @Test func fullScaleKicksAtTheCeilingForTheWindow() {
        for rule in [KickRule.ceiling, .proportional] {
            let duties = Self.run(rule, Array(repeating: 255, count: 60)).duties
            #expect(duties[0..<36].allSatisfy { $0 == 127 } && duties[36...].allSatisfy { $0 == 102 }, "\(rule)")
        }
    }

    /// A quarter of rated drive (code 64: steady duty 26): the ceiling kick drives 127, not
    /// 64 x 127 / 255 = 32, and its last tick is eased so that the prediction lands on the level
    /// (26 x 128 = 3,328) instead of passing it.
    @Test func aLowLevelIsReachedInAFewTicksAndNotPassed() {
        let (duties, envelopes) = Self.run(.ceiling, Array(repeating: 64, count: 100))
        let kick = duties.prefix { $0 > 26 }.count
        #expect(kick == 6)
        #expect(duties[0..<5].allSatisfy { $0 == 127 } && duties[5] == 41)
        #expect(duties[6...].allSatisfy { $0 == 26 })
        #expect(envelopes[5] >= 3_328 && envelopes[5] < 3_328 + 128)
        #expect(envelopes.allSatisfy { $0 < 3_328 + 128 })
        // The proportional rule it replaced: 32 for the whole window, still under the level at its end.
        let (old, oldEnvelopes) = Self.run(.proportional, Array(repeating: 64, count: 100))
        #expect(old[0..<36].allSatisfy { $0 == 32 } && old[36...].allSatisfy { $0 == 26 })
        #expect(oldEnvelopes[35] < 3_328)
    }

    /// The window stays open for a level that rises within it: a burst that starts at code 10
    /// (steady 4, reached in one eased tick) and jumps to full scale at tick 3 is kicked again
    /// until the window's 36 ticks are over; the proportional rule's kick had ended at the first level.
    @Test func aLevelRisingWithinTheWindowIsKickedToo() {
        let amplitudes: [UInt8] = [10, 10, 10] + Array(repeating: 255, count: 60)
        let duties = Self.run(.ceiling, amplitudes).duties
        #expect(duties[0] == 92 && duties[1] == 4 && duties[2] == 4)
        #expect(duties[3..<36].allSatisfy { $0 == 127 } && duties[36] == 102)
    }

    /// The lowest code moves the actuator: code 1 under the rated duty 102 rounds to duty 0
    /// ((102 + 127) / 255), so a pattern that opens softly (six corpus files open at code 1 for
    /// 100 ms and more on the LRAs) drove nothing; at least one duty step, it is kicked onto
    /// that step (duty 1, the prediction 128) and held there. Code 0 stays silent.
    @Test func theLowestCodeDrivesOneDutyStep() {
        #expect(OpenLoopStage.scaled(1, 102) == 1 && OpenLoopStage.scaled(2, 102) == 1 && OpenLoopStage.scaled(3, 102) == 1)
        #expect(OpenLoopStage.scaled(4, 102) == 2 && OpenLoopStage.scaled(255, 102) == 102)
        #expect(OpenLoopStage.scaled(0, 102) == 0 && OpenLoopStage.scaled(1, 0) == 0 && OpenLoopStage.scaled(255, 1) == 1)
        let (duties, envelopes) = Self.run(.ceiling, Array(repeating: 1, count: 100))
        #expect(duties[0] > 1 && duties[0] <= 127 && duties[1...].allSatisfy { $0 == 1 }, "\(duties.prefix(5))")
        #expect(envelopes[0] >= 128 && envelopes[0] < 256 && envelopes.allSatisfy { $0 > 0 })
        #expect(Self.run(.ceiling, Array(repeating: 0, count: 10)).duties.allSatisfy { $0 == 0 })
    }

    /// The brake after a fall is the same under both rules: B x the predicted motion, at most the
    /// ceiling, for brakeMs, against the motion.
    @Test func theBrakeFollowsTheFall() {
        for rule in [KickRule.ceiling, .proportional] {
            let duties = Self.run(rule, Array(repeating: 255, count: 300) + Array(repeating: 0, count: 30)).duties
            // The motion at the fall is the level (102 x 128): B = 1.25 of it is 127.5, capped at 127.
            #expect(duties[300..<313].allSatisfy { $0 == -127 } && duties[313...].allSatisfy { $0 == 0 }, "\(rule)")
        }
    }
}
