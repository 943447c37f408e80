import FirmwareModel

/// A compiled program played on a device for its actuator and fed to the physics model
/// (docs/semantics.md 13.4, 13.5): what the firmware outputs, what the actuator does, and the
/// perceived timing of every driven stretch.
public struct SimulatedPlayback: Sendable {
    public var tickRate: Double
    /// Output samples: the program's ticks, the brake, then an idle tail.
    public var drive: [OutputSample]
    /// One physics sample per drive sample (envelope at the end of the tick, normalized to rated drive).
    public var response: [PhysicsSample]
    /// Rise (50 %, 90 %) and stop (10 %) times of every driven stretch.
    public var edges: [DriveResponse]
}

extension CompiledProgram {
    /// Plays the program on a device configured for `profile` (its brake time; the default
    /// buffer size and safety limit otherwise, the buffer raised to fit the program) and runs
    /// the actuator model over the output plus `tailTicks` idle ticks, so the ring-down shows.
    public func simulate(on profile: ActuatorProfile, tailTicks: Int = 100) -> SimulatedPlayback {
        let rate = Double(program.header.rate)
        let brake = profile.brakeTicks(tickRate: rate)
        var device = DeviceConfiguration.default
        device.rate = program.header.rate
        device.maxBody = max(device.maxBody, UInt32(program.body.count))
        device.brakeTicks = UInt16(clamping: brake)
        var interpreter = Interpreter(configuration: device)
        var drive: [OutputSample] = []
        if (try? interpreter.load(program)) != nil {
            let count = Int(program.header.totalTicks) + brake + max(tailTicks, 0)
            drive.reserveCapacity(count)
            for _ in 0..<count { drive.append(interpreter.step()) }
        }
        var simulator = profile.simulator(tickRate: rate)
        let response = simulator.run(drive)
        let edges = ResponseAnalysis.analyze(drive: drive, response: response, simulator: simulator)
        return SimulatedPlayback(tickRate: rate, drive: drive, response: response, edges: edges)
    }
}
