import HapticProtocol
import HapticSession

/// When a play is felt (docs/performance.md, "Felt onset"): the program's lead-in and rise on this
/// device's actuator, through the clock estimate.
extension HapticDevice {
    /// When `prepared` is felt once it starts (cached per program): lead-in and rise on this
    /// device's actuator; nil for a program that never sounds or does not move the actuator.
    /// `scale` is the play's master scale (255: full intensity).
    public func feltPrediction(of prepared: PreparedPattern, scale: UInt8 = 255) throws -> FeltPrediction? {
        let key = FeltKey(program: prepared.program, scale: scale)
        if let cached = feltPredictions[key] { return cached }
        guard let profile else { throw SessionError.notConnected }
        let prediction = FeltPrediction.of(
            program: prepared.program, model: profile.physicsModel(tickRate: Double(prepared.rate)), scale: scale)
        feltPredictions[key] = prediction
        return prediction
    }

    /// A felt prediction is per program and master scale.
    struct FeltKey: Hashable {
        var program: Program
        var scale: UInt8
    }

    /// The host time `receipt`'s play is predicted to be felt at (50 % of its first peak), from
    /// its acknowledged start tick through the clock estimate; nil when it is never felt (also
    /// when its intensity makes every sample 0).
    public func predictedFeltOnset(of receipt: PlayReceipt, prepared: PreparedPattern) async throws -> Double? {
        guard let prediction = try feltPrediction(of: prepared, scale: receipt.scale) else { return nil }
        // The lead-in is device ticks: through the estimate's rate.
        return try await currentClock().hostTime(ofStep: receipt.startTick &+ UInt32(prediction.leadInTicks)) + prediction.rise.rise50
    }

    /// The start tick whose predicted felt onset is nearest host time `target` (within half a tick).
    func feltStart(of prepared: PreparedPattern, at target: Double) async throws -> UInt32? {
        let clock = try await currentClock()
        let onset = try feltPrediction(of: prepared)?.onset50(deviceRate: clock.rate) ?? 0
        return clock.step(atOrAfter: target - onset - 0.5 / clock.rate)
    }
}
