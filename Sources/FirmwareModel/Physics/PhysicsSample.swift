/// What the actuator simulation reports for one tick (docs/semantics.md, "Actuators", physics).
///
/// Accelerations are normalized: 1.0 is the steady-state acceleration amplitude of the actuator
/// under full rated drive (amplitude code 255) at its reference frequency (the resonance for an
/// LRA, the middle of the band for a voice coil, rated speed for an ERM). Normalizing keeps the
/// numbers comparable across parts; multiply by the datasheet's rated acceleration for g.
public struct PhysicsSample: Sendable, Hashable {
    /// Largest |acceleration| seen at the sub-step boundaries inside the tick.
    public var peakAcceleration: Double
    /// Acceleration amplitude (envelope) at the end of the tick, from the oscillator's state.
    public var envelope: Double
    /// Frequency of the motion at the end of the tick, in Hz: the drive frequency while driven,
    /// the damped natural frequency while ringing freely, the rotation rate for an ERM.
    public var frequency: Double
}
