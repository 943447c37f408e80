/// The physics of one actuator, fed with the interpreter's output one tick at a time
/// (docs/semantics.md, "Actuators"). Deterministic: the same samples give the same results,
/// bit for bit, on one platform (only IEEE arithmetic, plus sin/cos/exp from the C library).
public struct ActuatorSimulator: Sendable {
    public enum Model: Sendable, Hashable {
        case resonator(ResonatorParameters)
        case erm(ERMParameters)
    }

    private enum Plant {
        case resonator(ResonatorModel)
        case erm(ERMModel)
    }

    public let model: Model
    private var plant: Plant

    public init(model: Model) {
        self.model = model
        switch model {
        case .resonator(let p): plant = .resonator(ResonatorModel(parameters: p))
        case .erm(let p): plant = .erm(ERMModel(parameters: p))
        }
    }

    public var tickRate: Double {
        switch model {
        case .resonator(let p): p.tickRate
        case .erm(let p): p.tickRate
        }
    }

    /// Advances one tick with the output stage applying `sample`.
    public mutating func step(_ sample: OutputSample) -> PhysicsSample {
        switch plant {
        case .resonator(var m):
            let out = m.step(sample)
            plant = .resonator(m)
            return out
        case .erm(var m):
            let out = m.step(sample)
            plant = .erm(m)
            return out
        }
    }

    /// Plays a whole tick sequence from the current state.
    public mutating func run(_ samples: [OutputSample]) -> [PhysicsSample] {
        var out: [PhysicsSample] = []
        out.reserveCapacity(samples.count)
        for sample in samples { out.append(step(sample)) }
        return out
    }

    /// Back to rest.
    public mutating func reset() { self = ActuatorSimulator(model: model) }

    /// The envelope a constant `sample` settles at (0 for silence, brake, or an ERM level
    /// under its minimum running level); the "target" of the onset analysis.
    public func steadyEnvelope(for sample: OutputSample) -> Double {
        switch plant {
        case .resonator(let m): m.steadyEnvelope(for: sample)
        case .erm(let m): m.steadyEnvelope(for: sample)
        }
    }
}
