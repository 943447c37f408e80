import HapticProtocol
import TestSupport
import Testing

@testable import FirmwareModel

/// The properties of firmware-protocol/vectors/v3/test_properties.py, checked on `DeviceModel3`
/// with random closed programs (each against the rule's own text, PROTOCOL-3.md 3.4-3.7).
struct PlayerPropertyTests {
    static let brake = 20
    static let fade = 8

    /// The samples of channel 0 of one play alone on a 1-channel device.
    static func solo(_ program: [UInt8], ticks: Int, from: UInt32 = 0, rate: UInt16 = 256, loops: UInt16 = 1) -> [OutputSample] {
        var s = Session3()
        s.upload(0, program)
        s.play(1, loops: loops, from: from, rate: rate)
        s.run(ticks)
        return s.samples[0]
    }

    /// The amplitude a player gives at gain g (3.6) for a source amplitude at scale 255.
    static func faded(_ amplitude: UInt8, gain: Int) -> UInt8 { UInt8((Int(amplitude) * 256 * gain + 32768) >> 16) }

    /// 3.5: the method's state at k equals the definition's (the interpreter stepped through
    /// ticks 0..k-1): the same samples from k on; and it executes at most X instructions.
    @Test func seekByInstructionsEqualsTheDefinitionWithinItsBound() throws {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<150 {
            let program = randomClosedProgram(&rng, maxTicks: 20_000)
            let checked = try Format3.validate(program, configuration: .default)
            let bound = checked.facts.seekBound
            let total = UInt32(totalTicks(program))
            var stepped = Interpreter(configuration: DeviceConfiguration(brakeTicks: 0, safetyTicks: .max))
            try stepped.load(checked.format2)
            var reference: [OutputSample] = []
            for _ in 0..<total { reference.append(stepped.step()) }
            for k in stride(from: 0, to: total, by: max(1, Int(total) / 40)) {
                var seeking = stepped
                try seeking.load(checked.format2)
                let cost = seeking.seek(to: k)
                #expect(cost <= Int(bound), "X \(bound) < \(cost) for k \(k) of \(Hex.encode(program))")
                let after = (k..<min(total, k + 60)).map { _ in seeking.step() }
                #expect(after == Array(reference[Int(k)..<min(Int(total), Int(k) + 60)]), "k \(k) of \(Hex.encode(program))")
            }
        }
    }

    /// 3.5: PLAY from k outputs the play from 0 with its first k ticks dropped.
    @Test func playFromKIsThePlayWithTheFirstKTicksDropped() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<60 {
            let program = randomClosedProgram(&rng)
            let total = totalTicks(program)
            let base = Self.solo(program, ticks: total + Self.brake + 5)
            for k in [1, 7, 17, 40, total / 2, total - 1] where k > 0 && k < total {
                let out = Self.solo(program, ticks: total - k + Self.brake + 5, from: UInt32(k))
                #expect(out == Array(base[k..<(k + out.count)]), "k \(k) of \(Hex.encode(program))")
            }
        }
    }

    /// 3.7: pause at t for d >= R ticks, then resume: ticks < t unchanged; the held sample fading
    /// out over t..t+d-1; from t+d the unpaused output of t on, fading in, exact after R ticks.
    @Test func pauseForDThenResumeIsTheOutputShiftedByDWithTheFades() {
        var rng = SeededGenerator(seed: 7)
        let step = Int(Player.fadeStep(fadeTicks: UInt8(Self.fade)))
        for _ in 0..<60 {
            let program = randomClosedProgram(&rng)
            let total = totalTicks(program)
            guard total > 2 else { continue }
            let t = rng.within(1...(total - 1))
            let d = rng.within(Self.fade...(Self.fade + 40))
            let length = total + d + Self.brake + 5
            let base = Self.solo(program, ticks: length)
            var s = Session3()
            s.upload(0, program)
            s.play(1)
            s.run(t)
            s.control(1, op: 1)
            s.run(d)
            s.control(1, op: 2)
            s.run(length - t - d)
            let out = s.samples[0]
            let name = "t \(t) d \(d) of \(Hex.encode(program))"
            #expect(Array(out[..<t]) == Array(base[..<t]), "\(name)")
            for i in 0..<d {
                let gain = max(0, 256 - step * (i + 1))
                #expect(out[t + i].amplitude == Self.faded(base[t - 1].amplitude, gain: gain), "\(name) paused \(i)")
            }
            for j in 0..<(length - t - d) {
                let want = base[t + j]
                let gain = min(256, step * (j + 1))
                #expect(out[t + d + j].amplitude == Self.faded(want.amplitude, gain: gain) || want.isBraking, "\(name) j \(j)")
                if j >= Self.fade { #expect(out[t + d + j] == want, "\(name) j \(j)") }
            }
        }
    }

    /// 3.4: at rate r the d-th step outputs program tick floor(d * r / 256); then the end.
    @Test func rateIsTheDocumentedResampling() {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<40 {
            let program = randomClosedProgram(&rng)
            let total = totalTicks(program)
            let base = Self.solo(program, ticks: total + 5)
            for rate in [64, 100, 256, 300, 512, 777, 1024] {
                let out = Self.solo(program, ticks: total * 4 + 30, rate: UInt16(rate))
                var d = 0
                while d * rate / 256 < total {
                    #expect(out[d] == base[d * rate / 256], "rate \(rate) d \(d) of \(Hex.encode(program))")
                    d += 1
                }
                #expect(out[d] == OutputSample(amplitude: 0, sharpness: 0, flags: OutputSample.brakeFlag), "rate \(rate) end")
            }
        }
    }

    /// 3.6: two players on a channel give the mixing rule applied to each one's output alone
    /// (brake only where nothing sounds), SUM and MAX.
    @Test func twoPlayersAreTheMixingRuleAppliedToEachAlone() {
        var rng = SeededGenerator(seed: 13)
        for _ in 0..<40 {
            let a = randomClosedProgram(&rng)
            let b = randomClosedProgram(&rng)
            let ticks = max(totalTicks(a), totalTicks(b)) + Self.brake + 10
            for sum in [true, false] {
                var alone = [Session3(), Session3()]
                for (i, program) in [a, b].enumerated() {
                    alone[i].upload(UInt8(i), program)
                    alone[i].play(UInt8(i + 1), slot: UInt8(i), sum: sum)
                    alone[i].run(ticks)
                }
                var both = Session3()
                both.upload(0, a)
                both.upload(1, b)
                both.play(1, slot: 0, sum: sum)
                both.play(2, slot: 1, sum: sum)
                both.run(ticks)
                for n in 0..<ticks {
                    let parts = [alone[0].samples[0][n], alone[1].samples[0][n]].filter { $0.amplitude > 0 }
                    let (amp, sharp) = ChannelMixer.mix(parts.map { .init(amplitude: $0.amplitude, sharpness: $0.sharpness, sum: sum) })
                    let braking = alone[0].samples[0][n].isBraking || alone[1].samples[0][n].isBraking
                    let want = ChannelMixer.sample(amplitude: amp, sharpness: sharp, braking: braking)
                    #expect(both.samples[0][n] == want, "tick \(n) sum \(sum) of \(Hex.encode(a)) and \(Hex.encode(b))")
                }
            }
        }
    }

    /// 3.6's mixing rule against values computed by hand from the text.
    @Test func mixingRuleValuesFromTheText() {
        func mix(_ parts: [(UInt8, UInt8, Bool)]) -> [UInt8] {
            let r = ChannelMixer.mix(parts.map { .init(amplitude: $0.0, sharpness: $0.1, sum: $0.2) })
            return [r.amplitude, r.sharpness]
        }
        #expect(mix([]) == [0, 0])
        #expect(mix([(100, 40, true)]) == [100, 40])
        #expect(mix([(200, 0, true), (100, 255, true)]) == [255, 85])
        #expect(mix([(200, 0, false), (100, 255, false)]) == [200, 85])
        #expect(mix([(60, 10, true), (50, 20, true), (100, 0, false)]) == [110, 8])
        #expect(mix([(1, 0, true), (1, 255, true)]) == [2, 128])
    }
}
