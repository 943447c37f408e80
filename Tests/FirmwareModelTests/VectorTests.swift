import FirmwareModel
import HapticProtocol
import Testing

/// The program vectors (firmware-protocol/vectors/programs), whose expected outputs come from an
/// independent Python implementation, played through the Swift model.
struct VectorTests {
    /// Plays a vector on the Swift model alone: the runner the vectors' README describes.
    static func play(_ vector: ProgramVector) -> (load: UInt8, samples: [OutputSample], status: Interpreter.Status, maxExecuted: Int) {
        let scenario = vector.scenario
        var model = Interpreter(configuration: scenario.configuration)
        var load: UInt8 = 0
        var fed = 0
        do {
            if let stream = scenario.stream {
                var ring = ByteSource.ring(capacity: stream.capacity)!
                fed = ring.write(scenario.body.prefix(stream.initial))
                try model.loadStream(header: scenario.program, ring: ring)
            } else {
                try model.load(scenario.program)
            }
        } catch {
            load = error.rawValue
        }
        var samples: [OutputSample] = []
        var maxExecuted = 0
        for tick in 0..<scenario.ticks {
            for event in scenario.events where event.tick == tick {
                switch event.event {
                case .scale(let m): model.setMasterScale(m)
                case .offset(let o): model.setSharpnessOffset(o)
                case .stop(let brake): model.stop(brake: brake)
                case .feed(let count): fed += model.feed(scenario.body.dropFirst(fed).prefix(count))
                case .load(let bytes): try? model.load(bytes)
                }
            }
            samples.append(model.step())
            maxExecuted = max(maxExecuted, model.executedLastStep)
        }
        return (load, samples, model.status, maxExecuted)
    }

    @Test func everyVectorIsRead() throws {
        let vectors = try VectorFiles.all()
        #expect(vectors.count >= 146)
        #expect(VectorFiles.cached.count == vectors.count)
        #expect(vectors.contains { $0.scenario.stream != nil })
        // Every validation error code 1-30 except 23 (streams only) has a flat vector (31, format
        // 3's, has its vectors in vectors/v3: Format3Tests).
        let flatCodes = Set(vectors.filter { $0.scenario.stream == nil }.map(\.expectedLoad))
        for code in ProgramError.allCases where code.isValidationError && code != .loopInStream && code != .loopNotClosed {
            #expect(flatCodes.contains(code.rawValue) || vectors.contains { $0.expectedFinal.error == code.rawValue }, "\(code)")
        }
    }

    @Test(arguments: VectorFiles.cached)
    func vectorPlaysAsExpected(_ vector: ProgramVector) {
        let result = Self.play(vector)
        #expect(result.load == vector.expectedLoad, "load result")
        if vector.scenario.stream == nil {
            var verdict: UInt8 = 0
            do { try Validator(configuration: vector.scenario.configuration).validate(vector.scenario.program) } catch { verdict = error.rawValue }
            #expect(verdict == vector.expectedLoad, "Validator verdict")
        }
        if let tick = result.samples.indices.first(where: { result.samples[$0] != vector.expectedSamples[$0] }) {
            Issue.record("tick \(tick): model \(result.samples[tick].triple), expected \(vector.expectedSamples[tick].triple)")
        }
        let final = vector.expectedFinal
        #expect("\(result.status.mode)" == final.mode)
        #expect(result.status.error?.rawValue ?? 0 == final.error)
        #expect(result.status.tick == final.tick)
        #expect(result.maxExecuted <= 31)
    }

    /// A valid vector program decodes and re-encodes to the same body (every value has one encoding).
    @Test func validVectorProgramsRoundTripThroughInstructions() {
        var checked = 0
        for vector in VectorFiles.cached where vector.expectedLoad == 0 && vector.scenario.program.count >= 16 {
            guard let program = try? Program(bytes: vector.scenario.program), let decoded = try? program.decodedInstructions() else { continue }
            let rebuilt = Program(instructions: decoded.map(\.instruction), sharpness: program.header.hasSharpness)
            #expect(rebuilt.body == program.body, "\(vector.name)")
            if vector.scenario.stream == nil { #expect(rebuilt == program, "\(vector.name)") }
            checked += 1
        }
        #expect(checked > 100)
    }
}
