import FirmwareModel
import HapticProtocol
import TestSupport

/// How `randomInstructions` shapes a body.
struct BodyShape {
    var instructions: ClosedRange<Int> = 1...12
    /// Percent of delays that are 0 (instructions at the same tick as the previous one).
    var zeroDelay = 40
    /// Percent of delays of 31...300 ticks (the varint extension).
    var longDelay = 3
    var loop = 8
    var pulse = 20
    /// Loops may nest this deep (5 provokes error 21).
    var maxDepth = 4
    var loopCounts: [UInt8] = [1, 2, 3, 4]
    /// SET_S / RAMP_S at all.
    var sharpnessOps = true
    /// Percent of ramps longer than 300 ticks (up to the varint maximum).
    var longRamp = 2
    /// Percent of ENDLOOPs with delay 0 (an empty iteration if the body has no delay: error 25).
    var emptyIteration = 3
}

/// Random device codes with the edges over-represented: 0, 255 and the default safety threshold.
func randomLevel(_ rng: inout SeededGenerator) -> UInt8 {
    switch rng.below(20) {
    case 0...4: 0
    case 5...7: 255
    case 8: rng.pick([1, 254, 223, 224, 128, 127])
    default: rng.byte()
    }
}

func randomDuration(_ rng: inout SeededGenerator, longRamp: Int) -> UInt32 {
    if rng.percent(longRamp) { return rng.percent(50) ? UInt32(rng.within(301...100_000)) : Varint.maxValue - UInt32(rng.below(3)) }
    switch rng.below(10) {
    case 0...2: return 0
    case 3...4: return 1
    case 5: return UInt32(rng.pick([255, 256, 254, 2, 3]))
    default: return UInt32(rng.within(2...40))
    }
}

func randomDelay(_ rng: inout SeededGenerator, _ shape: BodyShape) -> UInt32 {
    if rng.percent(shape.zeroDelay) { return 0 }
    if rng.percent(shape.longDelay) { return UInt32(rng.within(31...300)) }
    return rng.percent(80) ? UInt32(rng.within(1...5)) : UInt32(rng.within(6...30))
}

/// A random body ending in END, loops closed (ENDLOOP delay at least 1 unless `emptyIteration`).
func randomInstructions(_ rng: inout SeededGenerator, _ shape: BodyShape) -> [Instruction] {
    var list: [Instruction] = []
    var depth = 0
    for _ in 0..<rng.within(shape.instructions) {
        let delay = randomDelay(&rng, shape)
        let roll = rng.below(100)
        if roll < shape.loop && depth < shape.maxDepth {
            list.append(.loop(count: rng.pick(shape.loopCounts), delay: delay))
            depth += 1
        } else if roll < shape.loop * 2 && depth > 0 {
            list.append(.endLoop(delay: rng.percent(shape.emptyIteration) ? 0 : max(delay, 1)))
            depth -= 1
        } else if roll < shape.loop * 2 + shape.pulse {
            list.append(.pulse(amplitude: randomLevel(&rng), sharpness: randomLevel(&rng), delay: delay))
        } else {
            let value = randomLevel(&rng)
            let sharp = shape.sharpnessOps && rng.percent(35)
            let ramp = rng.percent(55)
            let duration = ramp ? randomDuration(&rng, longRamp: shape.longRamp) : 0
            let instruction: Instruction =
                switch (sharp, ramp) {
                case (false, false): .setA(value, delay: delay)
                case (false, true): .rampA(to: value, duration: duration, delay: delay)
                case (true, false): .setS(value, delay: delay)
                case (true, true): .rampS(to: value, duration: duration, delay: delay)
                }
            list.append(instruction)
        }
    }
    for _ in 0..<depth {
        list.append(.endLoop(delay: rng.percent(shape.emptyIteration) ? 0 : UInt32(rng.within(1...6))))
    }
    list.append(.end(delay: rng.percent(30) ? 0 : UInt32(rng.within(1...25))))
    return list
}

/// Device configurations: mostly the defaults' shape with a short brake, sometimes odd.
func randomConfiguration(_ rng: inout SeededGenerator) -> DeviceConfiguration {
    var c = DeviceConfiguration(brakeTicks: UInt16(rng.pick([0, 1, 2, 3, 5, 20])))
    if rng.percent(15) { c.safetyThreshold = rng.byte() }
    if rng.percent(15) { c.safetyTicks = UInt32(rng.within(0...40)) }
    return c
}

/// Live controls (and rarely a stop) at random ticks before `ticks`, in tick order.
func randomLiveEvents(_ rng: inout SeededGenerator, ticks: Int, count: Int, stops: Bool) -> [TimedEvent] {
    (0..<count).map { _ in
        let tick = rng.below(max(ticks, 1))
        let event: LiveEvent =
            switch rng.below(stops ? 10 : 8) {
            case 0...3: .scale(rng.percent(40) ? rng.pick([0, 1, 127, 128, 129, 254, 255]) : rng.byte())
            case 4...7: .offset(rng.percent(30) ? rng.pick([-128, -1, 1, 127, 0]) : Int8(truncatingIfNeeded: rng.byte()))
            default: .stop(brake: rng.percent(50))
            }
        return TimedEvent(tick: tick, event: event)
    }.sorted { $0.tick < $1.tick }
}

/// Ticks to play a program of `totalTicks`: all of it, its brake and a little idle, up to `cap`.
func playLength(_ program: Program, _ configuration: DeviceConfiguration, cap: Int) -> Int {
    min(Int(program.header.totalTicks) + Int(configuration.brakeTicks) + 3, cap)
}
