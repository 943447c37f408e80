import CFirmwareCore
import FirmwareModel
import HapticProtocol
import Testing

/// What one tick shows from outside, compared between the two implementations: the sample, the
/// status (mode, raw error code, tick) and how many instructions the tick executed.
struct Observation: Equatable, CustomStringConvertible {
    var sample: OutputSample
    var mode: UInt8
    var error: UInt8
    var tick: UInt32
    var executed: Int

    var description: String {
        "sample \(sample.triple), mode \(mode) error \(error) tick \(tick), executed \(executed)"
    }
}

extension Observation {
    /// The Swift model's tick (the memberwise initialiser builds the C core's).
    init(_ model: Interpreter, _ sample: OutputSample) {
        self.init(
            sample: sample, mode: model.mode.rawValue, error: model.error?.rawValue ?? 0, tick: model.tick,
            executed: model.executedLastStep)
    }
}

/// How a scenario went (on the Swift model; the C core agreed when there is no difference): for
/// tallying what the generators cover.
struct Outcome {
    /// Load result (0: loaded).
    var load: UInt8 = 0
    /// The error kept at the end (a fault, a streamed program's error, or the load's).
    var finalError: UInt8 = 0
    /// The most instructions one tick executed.
    var maxExecuted = 0
}

/// Runs `scenario` on the Swift model and on the C core side by side. Returns nil when every
/// observable agrees (validation verdict and header, load result, bytes taken by each feed,
/// every tick's sample, status and executed count), else a description of the first difference.
func firstDifference(_ scenario: Scenario) -> String? {
    var outcome = Outcome()
    return firstDifference(scenario, outcome: &outcome)
}

func firstDifference(_ scenario: Scenario, outcome: inout Outcome) -> String? {
    let configuration = scenario.configuration
    var model = Interpreter(configuration: configuration)
    let firmware = CFirmware(configuration)
    var fed = 0

    func code(_ body: () throws(ProgramError) -> Void) -> UInt8 {
        do {
            try body()
            return 0
        } catch { return error.rawValue }
    }

    if let stream = scenario.stream {
        var ring = ByteSource.ring(capacity: stream.capacity)!
        let written = ring.write(scenario.body.prefix(stream.initial))
        let swiftLoad = code { () throws(ProgramError) in try model.loadStream(header: scenario.program.prefix(16), ring: ring) }
        let c = firmware.loadStream(scenario.program, capacity: stream.capacity, initial: scenario.body.prefix(stream.initial))
        guard swiftLoad == c.code, written == c.written else {
            return "stream load: Swift error \(swiftLoad) (\(written) bytes written), C error \(c.code) (\(c.written) bytes)"
        }
        fed = written
        outcome.load = swiftLoad
    } else {
        let validator = Validator(configuration: configuration)
        let swiftVerdict = Result { () throws(ProgramError) in try validator.validate(scenario.program) }
        let (cCode, cHeader) = CFirmware.validate(scenario.program, configuration)
        switch swiftVerdict {
        case .success(let header):
            let same =
                cCode == 0 && header.bodyLength == cHeader.body_length && header.totalTicks == cHeader.total_ticks
                && header.crc == cHeader.crc && header.flags == cHeader.flags && header.rate == cHeader.rate
            if !same { return "validation: Swift valid \(header), C error \(cCode) header \(cHeader)" }
        case .failure(let error):
            if error.rawValue != cCode { return "validation: Swift \(error), C error \(cCode)" }
        }
        let swiftLoad = code { () throws(ProgramError) in try model.load(scenario.program) }
        let cLoad = firmware.load(scenario.program)
        guard swiftLoad == cLoad else { return "load: Swift error \(swiftLoad), C error \(cLoad)" }
        outcome.load = swiftLoad
    }

    var eventIndex = 0
    for tick in 0..<scenario.ticks {
        while eventIndex < scenario.events.count && scenario.events[eventIndex].tick <= tick {
            switch scenario.events[eventIndex].event {
            case .scale(let m):
                model.setMasterScale(m)
                firmware.setScale(m)
            case .offset(let o):
                model.setSharpnessOffset(o)
                firmware.setOffset(o)
            case .stop(let brake):
                model.stop(brake: brake)
                firmware.stop(brake: brake)
            case .feed(let count):
                let chunk = scenario.body.dropFirst(fed).prefix(count)
                let swiftTaken = model.feed(chunk)
                let cTaken = firmware.feed(chunk)
                guard swiftTaken == cTaken else {
                    return "feed before tick \(tick): Swift took \(swiftTaken) bytes, C \(cTaken)"
                }
                fed += swiftTaken
            case .load(let program):
                let swiftLoad = code { () throws(ProgramError) in try model.load(program) }
                let cLoad = firmware.load(program)
                guard swiftLoad == cLoad else { return "reload before tick \(tick): Swift error \(swiftLoad), C error \(cLoad)" }
            }
            eventIndex += 1
        }
        let swiftSample = model.step()
        let swift = Observation(model, swiftSample)
        let c = firmware.observe(firmware.step())
        guard swift == c else { return "tick \(tick):\n  Swift: \(swift)\n  C:     \(c)" }
        outcome.maxExecuted = max(outcome.maxExecuted, swift.executed)
    }
    outcome.finalError = model.error?.rawValue ?? 0
    return nil
}

/// Checks one generated case; on a difference records an issue naming the generator and seed
/// (replay: `HB_DIFF_REPLAY=<kind>:<seed> swift test --filter replayDifferentialCase`), the first
/// differing tick with both samples, and the whole scenario.
@discardableResult
func expectSameBehaviour(
    _ scenario: Scenario, label: String, seed: UInt64?, outcome: inout Outcome,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let difference = firstDifference(scenario, outcome: &outcome) else { return true }
    let replay = seed.map { "seed 0x\(String($0, radix: 16)) (replay: HB_DIFF_REPLAY=\(label):0x\(String($0, radix: 16)))" } ?? ""
    Issue.record(
        "Swift model and C core differ: \(label) \(replay)\n\(difference)\n\(scenario.summary)",
        sourceLocation: sourceLocation)
    return false
}

@discardableResult
func expectSameBehaviour(
    _ scenario: Scenario, label: String, seed: UInt64?,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    var outcome = Outcome()
    return expectSameBehaviour(scenario, label: label, seed: seed, outcome: &outcome, sourceLocation: sourceLocation)
}
