import FirmwareModel
import HapticProtocol
import TestSupport

/// The random case generators of the differential tests. Each makes one `Scenario` from a seed
/// alone, so a failure replays from "kind:seed".
enum RandomKind: String, CaseIterable, Sendable {
    /// Short programs of every opcode, loops up to depth 4, live controls now and then.
    case short
    /// D = 0 and D = 1 ramps, 255s, runs of 15-17 instructions at one tick, depth 4 and 5, T = 0.
    case edges
    /// Ramps on both channels with master scale and sharpness offset changed mid-ramp.
    case live
    /// Overlapping pulses stopped mid-pulse, with and without brake; reloads while playing.
    case stops
    /// Five and more overlapping pulses, ties with each other and with the envelope.
    case pulses
    /// Loud programs against a small configured safety limit.
    case safety
    /// Nested loops at depth 4 and 5, played out.
    case nested
    /// Streamed programs fed at random, with underruns and the streamed-only errors.
    case stream
    /// Valid programs with random byte mutations (CRC and length fixed up or not).
    case mutation
    /// Random bodies behind a valid header.
    case noise
    /// Delays near 2^28 and totals near 2^32 through loops: validation, then a few ticks.
    case huge
    /// Longer programs with longer loops, played out.
    case long

    /// Cases per `swift test` run (more for the cheap kinds).
    var count: Int {
        switch self {
        case .short: 30_000
        case .edges: 10_000
        case .live: 8_000
        case .stops: 8_000
        case .pulses: 8_000
        case .safety: 6_000
        case .nested: 3_000
        case .stream: 12_000
        case .mutation: 15_000
        case .noise: 6_000
        case .huge: 3_000
        case .long: 300
        }
    }

    /// Error codes (0: none) some case of a full run must end with, so the generator provably
    /// reaches the edges it is meant for.
    var expectedEndings: [UInt8] {
        switch self {
        case .short: [0, 5, 8, 19, 25, 29, 49]
        case .edges: [0, 21, 26]
        case .live: [0]
        case .stops: [0, 1]  // 1: a reload with a truncated header
        case .pulses: [0]
        case .safety: [0, 49]
        case .nested: [0, 21, 25]
        case .stream: [0, 8, 16, 23, 28, 29, 30, 48]
        case .mutation: [0, 2, 3, 4, 5, 6, 7, 8, 16, 17, 18, 19, 20, 22, 27, 28, 29, 30]
        case .noise: [16, 17, 18, 22, 28, 29, 30]
        case .huge: [0, 24, 25, 29]
        case .long: [0]
        }
    }

    /// Seed of case `index`: the kind in the top byte, so seeds never collide across kinds.
    func seed(_ index: Int, base: UInt64) -> UInt64 {
        base &+ UInt64(RandomKind.allCases.firstIndex(of: self)!) << 56 &+ UInt64(index)
    }

    func scenario(seed: UInt64) -> Scenario {
        var rng = SeededGenerator(seed: seed)
        switch self {
        case .short: return shortScenario(&rng)
        case .edges: return edgeScenario(&rng)
        case .live: return liveScenario(&rng)
        case .stops: return stopScenario(&rng)
        case .pulses: return pulseScenario(&rng)
        case .safety: return safetyScenario(&rng)
        case .nested: return nestedScenario(&rng)
        case .stream: return streamScenario(&rng)
        case .mutation: return mutationScenario(&rng)
        case .noise: return noiseScenario(&rng)
        case .huge: return hugeScenario(&rng)
        case .long: return longScenario(&rng)
        }
    }
}

/// Header fields a generator may spoil on purpose.
private func encode(_ instructions: [Instruction], sharpness: Bool, _ rng: inout SeededGenerator, spoil: Int = 5) -> Program {
    var program = Program(instructions: instructions, sharpness: sharpness)
    if rng.percent(spoil) {
        switch rng.below(4) {
        case 0: program.header.totalTicks &+= 1
        case 1: program.header.totalTicks &-= 1
        case 2: program.header.rate = 999
        default: program.header.crc ^= 1 << UInt16(rng.below(16))
        }
    }
    return program
}

/// The common ending of a scenario: `program` played to its end (at most `cap` ticks), with live
/// events `livePercent` % of the time (how many drawn from `count` only then), with or without stops.
private func playedToEnd(
    _ program: Program, _ configuration: DeviceConfiguration, cap: Int, _ rng: inout SeededGenerator,
    livePercent: Int, count: ClosedRange<Int>, stops: Bool
) -> Scenario {
    let ticks = playLength(program, configuration, cap: cap)
    let events = rng.percent(livePercent) ? randomLiveEvents(&rng, ticks: ticks, count: rng.within(count), stops: stops) : []
    return Scenario(configuration: configuration, program: program.bytes, events: events, ticks: ticks)
}

private func shortScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    let sharpness = rng.percent(90)
    var shape = BodyShape()
    shape.sharpnessOps = sharpness || rng.percent(10)
    let program = encode(randomInstructions(&rng, shape), sharpness: sharpness, &rng)
    return playedToEnd(program, configuration, cap: 300, &rng, livePercent: 30, count: 1...4, stops: true)
}

private func edgeScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    var list: [Instruction] = []
    switch rng.below(7) {
    case 6:  // executions at a jump's tick around the bound of 9 (1.6 (e), 1.15): the run up to the
        // jumping ENDLOOP, then the body's head; sometimes the head of a loop nested in it
        let head = rng.within(0...6), tail = rng.within(0...5)
        list.append(.loop(count: UInt8(rng.within(1...4)), delay: UInt32(rng.below(3))))
        let nested = rng.percent(30)
        if nested { list.append(.loop(count: UInt8(rng.within(1...2)))) }
        for _ in 0..<head { list.append(.setA(randomLevel(&rng))) }
        list.append(.pulse(amplitude: randomLevel(&rng), sharpness: randomLevel(&rng), delay: UInt32(rng.within(1...3))))
        if nested { list.append(.endLoop(delay: UInt32(rng.within(1...2)))) }
        for _ in 0..<tail { list.append(.rampS(to: randomLevel(&rng), duration: UInt32(rng.below(4)))) }
        list.append(.endLoop(delay: rng.percent(80) ? 0 : 1))
        list.append(.end(delay: UInt32(rng.within(0...20))))
    case 0:  // runs at one tick around the limit of 9 (1.6 (d)), maybe after a delay, and a looped
        // play's restart around it (1.6 (e): END's run and tick 0's)
        let run = rng.within(7...11)
        for index in 0..<run {
            let delay: UInt32 = index == 0 ? UInt32(rng.below(3)) : 0
            list.append(
                rng.percent(50)
                    ? .setA(randomLevel(&rng), delay: delay)
                    : .rampA(to: randomLevel(&rng), duration: randomDuration(&rng, longRamp: 0), delay: delay))
        }
        list.append(.end(delay: UInt32(rng.within(0...20))))
    case 1:  // zero-length and one-tick ramps between extremes, interrupted at once or later
        for _ in 0..<rng.within(2...10) {
            let target: UInt8 = rng.pick([0, 255, 1, 254, randomLevel(&rng)])
            let duration = UInt32(rng.pick([0, 0, 1, 2, 255, 256, rng.within(3...30)]))
            let delay = UInt32(rng.pick([0, 0, 1, rng.within(1...40)]))
            list.append(
                rng.percent(60)
                    ? .rampA(to: target, duration: duration, delay: delay)
                    : .rampS(to: target, duration: duration, delay: delay))
        }
        list.append(.end(delay: UInt32(rng.within(0...60))))
    case 2:  // loops at depth 4 or 5 with tiny bodies
        let depth = rng.within(4...5)
        for _ in 0..<depth { list.append(.loop(count: UInt8(rng.within(1...3)), delay: UInt32(rng.below(2)))) }
        list.append(.pulse(amplitude: randomLevel(&rng), sharpness: randomLevel(&rng)))
        for _ in 0..<depth { list.append(.endLoop(delay: UInt32(rng.within(1...3)))) }
        list.append(.end(delay: UInt32(rng.below(3))))
    case 3:  // T = 0: END first, maybe with company at tick 0
        for _ in 0..<rng.below(3) { list.append(.setA(randomLevel(&rng))) }
        list.append(.end())
    case 4:  // count 255 with a one-tick body
        list.append(.loop(count: 255, delay: UInt32(rng.below(3))))
        list.append(.rampA(to: randomLevel(&rng), duration: randomDuration(&rng, longRamp: 0), delay: 0))
        list.append(.endLoop(delay: 1))
        list.append(.end(delay: UInt32(rng.below(5))))
    default:  // maximum values everywhere
        list = [
            .setA(255), .setS(255), .pulse(amplitude: 255, sharpness: 255, delay: 1),
            .rampA(to: 0, duration: Varint.maxValue, delay: 2), .rampS(to: 0, duration: 255, delay: 30),
            .end(delay: UInt32(rng.within(31...200))),
        ]
    }
    let program = encode(list, sharpness: rng.percent(95), &rng, spoil: 3)
    return playedToEnd(program, configuration, cap: 400, &rng, livePercent: 20, count: 1...3, stops: false)
}

private func liveScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    var builder = ProgramBuilder()
    var time: UInt32 = 0
    for _ in 0..<rng.within(2...5) {
        let duration = UInt32(rng.within(5...60))
        builder.rampA(to: randomLevel(&rng), duration: duration, at: time)
        builder.rampS(to: randomLevel(&rng), duration: UInt32(rng.within(3...60)), at: time + UInt32(rng.below(3)))
        if rng.percent(40) { builder.pulse(amplitude: randomLevel(&rng), sharpness: randomLevel(&rng), at: builder.time + UInt32(rng.below(10))) }
        time = builder.time + UInt32(rng.within(3...Int(duration)))
    }
    let program = builder.program(endingAt: builder.time + UInt32(rng.within(1...30)))
    let ticks = playLength(program, configuration, cap: 400)
    let events = randomLiveEvents(&rng, ticks: ticks, count: rng.within(2...12), stops: false)
    return Scenario(configuration: configuration, program: program.bytes, events: events, ticks: ticks)
}

private func stopScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    var builder = ProgramBuilder()
    if rng.percent(50) { builder.rampA(to: randomLevel(&rng), duration: UInt32(rng.within(0...40)), at: 0) }
    var time: UInt32 = 0
    var pulseTimes: [UInt32] = []
    for _ in 0..<rng.within(1...6) {
        time += UInt32(rng.below(8))
        builder.pulse(amplitude: randomLevel(&rng), sharpness: randomLevel(&rng), at: time)
        pulseTimes.append(time)
    }
    let program = builder.program(endingAt: time + UInt32(rng.within(1...40)))
    let ticks = playLength(program, configuration, cap: 200) + 10
    // The stop lands inside a pulse (a pulse lasts at least 10 ticks); sometimes a second one.
    var events = [TimedEvent(tick: Int(rng.pick(pulseTimes)) + rng.within(0...9), event: .stop(brake: rng.percent(50)))]
    if rng.percent(30) { events.append(TimedEvent(tick: rng.below(ticks), event: .stop(brake: rng.percent(50)))) }
    if rng.percent(25) {
        // Reload while playing or braking: the new program starts at once, without a brake.
        var second = ProgramBuilder()
        second.pulse(amplitude: randomLevel(&rng), sharpness: randomLevel(&rng), at: UInt32(rng.below(4)))
        let bytes = rng.percent(80) ? second.program(endingAt: UInt32(rng.within(4...30))).bytes : [0x48, 0x50, 1]
        events.append(TimedEvent(tick: rng.below(ticks), event: .load(bytes)))
    }
    events += randomLiveEvents(&rng, ticks: ticks, count: rng.below(3), stops: false)
    events.sort { $0.tick < $1.tick }
    return Scenario(configuration: configuration, program: program.bytes, events: events, ticks: ticks)
}

private func pulseScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    var builder = ProgramBuilder(sharpness: rng.percent(90))
    var time: UInt32 = 0
    if rng.percent(50) {
        builder.setA(rng.pick([0, 100, 200, 255]), at: 0)
        if builder.sharpness { builder.setS(randomLevel(&rng), at: 0) }
    }
    let amplitudes: [UInt8] = [rng.byte(), rng.byte(), 255, 100, 200]
    for _ in 0..<rng.within(5...12) {
        time += UInt32(rng.pick([0, 0, 1, 2, 3, rng.within(4...12)]))
        builder.pulse(amplitude: rng.percent(60) ? rng.pick(amplitudes) : rng.byte(), sharpness: randomLevel(&rng), at: time)
    }
    let program = builder.program(endingAt: time + UInt32(rng.within(0...30)))
    let ticks = playLength(program, configuration, cap: 300)
    let events = rng.percent(20) ? randomLiveEvents(&rng, ticks: ticks, count: 2, stops: false) : []
    return Scenario(configuration: configuration, program: program.bytes, events: events, ticks: ticks)
}

private func safetyScenario(_ rng: inout SeededGenerator) -> Scenario {
    var configuration = randomConfiguration(&rng)
    configuration.safetyTicks = UInt32(rng.within(0...60))
    configuration.safetyThreshold = rng.percent(60) ? UInt8(rng.within(150...255)) : rng.byte()
    var builder = ProgramBuilder()
    var time: UInt32 = 0
    for _ in 0..<rng.within(2...8) {
        switch rng.below(4) {
        case 0: builder.setA(rng.percent(70) ? UInt8(rng.within(200...255)) : rng.byte(), at: time)
        case 1: builder.rampA(to: rng.percent(70) ? 255 : rng.byte(), duration: UInt32(rng.within(0...50)), at: time)
        case 2: builder.pulse(amplitude: UInt8(rng.within(180...255)), sharpness: rng.byte(), at: time)
        default: builder.setA(rng.byte(), at: time)  // a dip, maybe
        }
        time += UInt32(rng.within(0...30))
    }
    let program = builder.program(endingAt: time + UInt32(rng.within(1...80)))
    return playedToEnd(program, configuration, cap: 400, &rng, livePercent: 40, count: 1...4, stops: false)
}

private func nestedScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    var shape = BodyShape()
    shape.instructions = 6...20
    shape.loop = 25
    shape.maxDepth = rng.percent(85) ? 4 : 5
    shape.loopCounts = [1, 2, 3]
    shape.zeroDelay = 30
    let program = encode(randomInstructions(&rng, shape), sharpness: true, &rng, spoil: 2)
    return playedToEnd(program, configuration, cap: 3000, &rng, livePercent: 20, count: 1...4, stops: true)
}

private func streamScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    var shape = BodyShape()
    shape.instructions = 1...25
    shape.loop = rng.percent(5) ? 5 : 0  // LOOP in a stream: error 23
    shape.longRamp = 1
    var program = encode(randomInstructions(&rng, shape), sharpness: rng.percent(90), &rng, spoil: 8)
    switch rng.below(20) {
    case 0: program.body.removeLast(rng.within(1...min(3, program.body.count)))  // END missing or cut: 30 / 16
    case 1: program.body.append(rng.byte())  // bytes after END: 28
    default: break
    }
    program.header.bodyLength = UInt32(program.body.count)
    let capacity = rng.pick([4, 8, 16, 32, 64, 256])
    let initial = rng.within(0...min(capacity, program.body.count))
    let ticks = playLength(program, configuration, cap: 300) + 5
    var events: [TimedEvent] = []
    // Feeds: usually ahead of the reader, sometimes late enough to underrun.
    var tick = 0
    let eager = rng.percent(60)
    while tick < ticks {
        events.append(TimedEvent(tick: tick, event: .feed(rng.within(1...(eager ? capacity : 6)))))
        tick += eager ? rng.within(0...3) : rng.within(0...12)
    }
    events += randomLiveEvents(&rng, ticks: ticks, count: rng.percent(25) ? rng.within(1...3) : 0, stops: true)
    events.sort { $0.tick < $1.tick }
    return Scenario(configuration: configuration, program: program.bytes, stream: (capacity, initial), events: events, ticks: ticks)
}

private func mutationScenario(_ rng: inout SeededGenerator) -> Scenario {
    var configuration = randomConfiguration(&rng)
    var shape = BodyShape()
    shape.instructions = 1...15
    var bytes = Program(instructions: randomInstructions(&rng, shape), sharpness: rng.percent(90)).bytes
    for _ in 0..<rng.within(1...3) {
        let at = rng.below(bytes.count)
        switch rng.below(8) {
        case 0...2: bytes[at] = rng.byte()
        case 3...4: bytes[at] ^= 1 << UInt8(rng.below(8))
        case 5: bytes.insert(rng.byte(), at: at)
        case 6: bytes.remove(at: at)
        default: bytes.removeLast(rng.below(min(4, bytes.count) + 1))
        }
    }
    if bytes.count >= 16 {
        let body = Array(bytes[16...])
        if rng.percent(60) { for index in 0..<4 { bytes[6 + index] = UInt8(truncatingIfNeeded: body.count >> (8 * index)) } }
        if rng.percent(70) {
            let crc = CRC16.checksum(body)
            bytes[14] = UInt8(truncatingIfNeeded: crc)
            bytes[15] = UInt8(truncatingIfNeeded: crc >> 8)
        }
    }
    if rng.percent(5) { configuration.maxBody = UInt32(max(bytes.count - 16 - rng.below(2), 0)) }
    return Scenario(configuration: configuration, program: bytes, ticks: rng.within(20...120))
}

private func noiseScenario(_ rng: inout SeededGenerator) -> Scenario {
    let configuration = randomConfiguration(&rng)
    let body = (0..<rng.within(0...24)).map { _ in rng.percent(30) ? rng.pick([0x00, 0x1F, 0x80, 0xFF, 0xE0, 0xC1, 0xA2]) : rng.byte() }
    let header = ProgramHeader(
        hasSharpness: rng.percent(80), bodyLength: UInt32(body.count),
        totalTicks: UInt32(rng.percent(80) ? rng.below(60) : rng.within(0...1 << 30)), crc: CRC16.checksum(body))
    return Scenario(configuration: configuration, program: header.bytes + body, ticks: rng.within(10...80))
}

private func hugeScenario(_ rng: inout SeededGenerator) -> Scenario {
    var list: [Instruction] = []
    switch rng.below(3) {
    case 0:  // long delays, up to 16 of them: totals around 2^32
        for _ in 0..<rng.within(1...16) {
            let delay = rng.percent(50) ? Instruction.maxDelay - UInt32(rng.below(1000)) : UInt32(rng.within(1...Int(Instruction.maxDelay)))
            list.append(.setA(rng.byte(), delay: delay))
        }
    case 1:  // nested count-255 loops whose product lands near 2^32 - 1
        let depth = rng.within(2...4)
        let iteration = UInt64(UInt32.max) / UInt64(pow255(depth))
        for _ in 0..<depth { list.append(.loop(count: 255)) }
        list.append(.pulse(amplitude: rng.byte(), sharpness: rng.byte()))
        list.append(.endLoop(delay: UInt32(max(Int(iteration) + rng.within(-2...2), 0))))
        for _ in 1..<depth { list.append(.endLoop(delay: UInt32(rng.below(2)))) }
    default:  // long ramps and delays around the varint limits
        list.append(.rampA(to: rng.byte(), duration: Varint.maxValue - UInt32(rng.below(2)), delay: UInt32(rng.below(31))))
        list.append(.rampS(to: rng.byte(), duration: UInt32(rng.within(0...Int(Varint.maxValue))), delay: Instruction.maxDelay))
        list.append(.loop(count: UInt8(rng.within(1...255)), delay: UInt32(rng.within(0...Int(Instruction.maxDelay)))))
        list.append(.endLoop(delay: UInt32(rng.within(1...Int(Instruction.maxDelay)))))
    }
    list.append(.end(delay: UInt32(rng.below(3))))
    var program = Program(instructions: list)
    switch rng.below(4) {
    case 0: program.header.totalTicks &-= UInt32(rng.within(1...3))
    case 1: program.header.totalTicks = UInt32.max
    default: break
    }
    return Scenario(configuration: randomConfiguration(&rng), program: program.bytes, ticks: 60)
}

private func pow255(_ depth: Int) -> UInt64 {
    (0..<depth).reduce(1) { result, _ in result * 255 }
}

private func longScenario(_ rng: inout SeededGenerator) -> Scenario {
    var configuration = randomConfiguration(&rng)
    configuration.maxBody = 16_384
    var shape = BodyShape()
    shape.instructions = 30...120
    shape.loop = 10
    shape.loopCounts = [2, 5, 10, 30, 255]
    shape.zeroDelay = 25
    shape.emptyIteration = 0
    let program = encode(randomInstructions(&rng, shape), sharpness: true, &rng, spoil: 0)
    let ticks = playLength(program, configuration, cap: 20_000)
    let events = randomLiveEvents(&rng, ticks: ticks, count: rng.within(0...20), stops: false)
    return Scenario(configuration: configuration, program: program.bytes, events: events, ticks: ticks)
}
