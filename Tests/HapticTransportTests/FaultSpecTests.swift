import HapticTransport
import Testing

/// `--faults` as written on a command line: every key into the profile, the defaults, and one line
/// naming what is wrong.
@Suite struct FaultSpecTests {
    @Test func everyKeyReachesTheProfile() throws {
        let spec = try FaultSpec("drop=0.01,corrupt=0.02,duplicate=0.03,delay=5,delay-rate=0.25,seed=7")
        #expect(spec.profile.drop == 0.01)
        #expect(spec.profile.corrupt == 0.02)
        #expect(spec.profile.duplicate == 0.03)
        #expect(spec.profile.maxDelay == 0.005)
        #expect(spec.profile.delay == 0.25)
        #expect(spec.seed == 7)
        #expect(spec.text == "drop=0.01,corrupt=0.02,duplicate=0.03,delay=5,delay-rate=0.25,seed=7")
    }

    @Test func aDelayWithoutARateUsesTheDefault() throws {
        let spec = try FaultSpec("delay=20")
        #expect(spec.profile.delay == FaultSpec.defaultDelayRate)
        #expect(spec.profile.maxDelay == 0.02)
        #expect(spec.profile.drop == 0 && spec.seed == 0)
    }

    @Test func badSpecsAreOneLineEach() {
        let cases: [(String, String)] = [
            ("drop", "'drop' is not KEY=VALUE (keys: drop, corrupt, duplicate, delay, delay-rate, seed)"),
            ("drop=2", "drop=2 must be a probability 0...1"),
            ("delay=0", "delay=0 must be milliseconds, more than 0, at most 10000"),
            ("seed=-1", "seed=-1 must be a whole number 0...\(UInt64.max)"),
            ("jitter=1", "unknown key 'jitter' (keys: drop, corrupt, duplicate, delay, delay-rate, seed)"),
            ("delay-rate=0.5", "delay-rate needs delay=MS"),
        ]
        for (text, message) in cases {
            #expect(throws: FaultSpec.Problem(description: message)) { try FaultSpec(text) }
        }
    }

    @Test func theSummaryCountsEachFault() {
        var counts = FaultCounts()
        counts.bytes = 100
        counts.dropped = 1
        counts.corrupted = 2
        counts.duplicated = 3
        counts.delayed = 4
        #expect(FaultSpec.summary(counts) == "100 bytes, 1 dropped, 2 corrupted, 3 duplicated, 4 delayed")
    }
}
