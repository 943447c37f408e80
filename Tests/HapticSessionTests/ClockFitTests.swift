import HapticProtocol
import HapticSession
import Testing

/// The clock fit against a simulated device clock with known offset and rate: every bound holds,
/// and samples spread over seconds make the rate's bound small.
@Suite struct ClockFitTests {
    /// A device at `ppm` whose clock reads `startReading` ticks at host time 0, pinged every
    /// `spacing` s from host time `from` for `count` samples, each way taking 0.1...1.5 ms.
    static func samples(
        ppm: Double, startReading: Double = 1_000, from: Double = 0, spacing: Double = 0.02, count: Int, seed: UInt64 = 7
    ) -> [PingSample] {
        var random = seed
        func delay() -> Double {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 0.0001 + Double(random >> 11) / Double(1 << 53) * 0.0014
        }
        let rate = 1_000 * (1 + ppm / 1_000_000)
        return (0..<count).map { index in
            let sent = from + Double(index) * spacing
            let processed = sent + delay()
            let reading = startReading + processed * rate
            let whole = reading.rounded(.down)
            let tick = UInt32(truncatingIfNeeded: Int64(whole))
            let pong = Message.Pong(echo: UInt32(index), tick: tick, subtick: UInt16((reading - whole) * 65536))
            return PingSample(sent: sent, received: processed + delay(), pong: pong)
        }
    }

    /// Host time at which step k of that device runs (it reads k + 1).
    static func trueHostTime(ofStep step: Double, ppm: Double, startReading: Double = 1_000) -> Double {
        (step + 1 - startReading) / (1_000 * (1 + ppm / 1_000_000))
    }

    @Test(arguments: [-5_000.0, 0, 1_000, 5_000])
    func rateAndOffsetWithinTheirBounds(ppm: Double) throws {
        var fit = ClockFit()
        fit.add(Self.samples(ppm: ppm, count: 150))  // 3 s
        let estimate = try #require(fit.estimate(nominalRate: 1_000, measuredSubtick: true))
        #expect(abs(estimate.ratePPM - ppm) <= estimate.ratePPMBound)
        #expect(estimate.rateBounds.contains(1_000 * (1 + ppm / 1_000_000)))
        // Brackets of 0.2 ms at best, 3 s apart: the rate is known to a few hundred ppm.
        #expect(estimate.ratePPMBound < 500)
        #expect(estimate.uncertainty < 0.001)
        // Within the window and 1 s beyond it (where the rate's bound adds up).
        for step: UInt32 in [1_500, 3_000, 4_000, 5_000] {
            let truth = Self.trueHostTime(ofStep: Double(step), ppm: ppm)
            #expect(abs(estimate.hostTime(ofStep: step) - truth) <= estimate.uncertainty(ofStep: step))
        }
    }

    @Test func oneBurstKeepsTheNominalRateAndThePrior() throws {
        var fit = ClockFit()
        fit.add(Self.samples(ppm: 5_000, spacing: 0.001, count: 8))
        let estimate = try #require(fit.estimate(nominalRate: 1_000, measuredSubtick: true))
        #expect(estimate.rate == 1_000)
        #expect(estimate.ratePPMBound == ClockFit.priorPPM)
        let step: UInt32 = 1_100
        let truth = Self.trueHostTime(ofStep: Double(step), ppm: 5_000)
        #expect(abs(estimate.hostTime(ofStep: step) - truth) <= estimate.uncertainty(ofStep: step))
    }

    @Test func ticksWrapAround() throws {
        var fit = ClockFit()
        let start = Double(UInt32.max) - 1_000
        fit.add(Self.samples(ppm: -3_000, startReading: start, count: 100))
        let estimate = try #require(fit.estimate(nominalRate: 1_000, measuredSubtick: true))
        #expect(abs(estimate.ratePPM + 3_000) <= estimate.ratePPMBound)
        let step: UInt32 = 500  // after the wrap
        let truth = (Double(step) + 4_294_967_296 + 1 - start) / (1_000 * (1 - 0.003))
        #expect(abs(estimate.hostTime(ofStep: step) - truth) <= estimate.uncertainty(ofStep: step))
    }

    @Test func withoutSubtickTheBoundsStillHold() throws {
        var fit = ClockFit()
        let samples = Self.samples(ppm: 2_000, count: 150).map { sample in
            var coarse = sample
            coarse.pong.subtick = 0
            return coarse
        }
        fit.add(samples)
        let estimate = try #require(fit.estimate(nominalRate: 1_000, measuredSubtick: false))
        #expect(abs(estimate.ratePPM - 2_000) <= estimate.ratePPMBound)
        let truth = Self.trueHostTime(ofStep: 3_500, ppm: 2_000)
        #expect(abs(estimate.hostTime(ofStep: 3_500) - truth) <= estimate.uncertainty(ofStep: 3_500))
    }

    @Test func theWindowSlides() {
        var fit = ClockFit(window: 1)
        fit.add(Self.samples(ppm: 0, count: 150))
        #expect(fit.samples.count <= 51)
        #expect((fit.samples.map(\.sent).min() ?? 0) >= 1.9)
    }
}

extension ClockFitTests {
    /// A clock that stalled for 100 ms (a simulated board its host could not keep in real time):
    /// the samples before the stall contradict those after it, and are left out.
    @Test func aStallCostsTheSamplesBeforeIt() throws {
        var fit = ClockFit()
        let before = Self.samples(ppm: 5_000, count: 100)  // 0...2 s
        let after = Self.samples(ppm: 5_000, startReading: 1_000 - 100, from: 2, count: 150)  // 100 ticks behind from 2 s
        fit.add(before + after)
        let estimate = try #require(fit.estimate(nominalRate: 1_000, measuredSubtick: true))
        #expect(abs(estimate.ratePPM - 5_000) <= estimate.ratePPMBound)
        #expect(estimate.ratePPMBound < 1_000)
        let truth = Self.trueHostTime(ofStep: 5_000, ppm: 5_000, startReading: 900)
        #expect(abs(estimate.hostTime(ofStep: 5_000) - truth) <= estimate.uncertainty(ofStep: 5_000))
    }
}

extension ClockFitTests {
    /// Samples whose rate lies outside the prior (a clock stalled for a while within them) do not
    /// trap: the older ones are left out.
    @Test func aRateOutsideThePriorIsAContradiction() throws {
        var fit = ClockFit()
        fit.add(Self.samples(ppm: 50_000, count: 100))
        let estimate = try #require(fit.estimate(nominalRate: 1_000, measuredSubtick: true))
        #expect(estimate.ratePPMBound <= ClockFit.priorPPM)
    }
}
