import Foundation

/// How a profile renders sharpness (docs/semantics.md, "Actuators", sharpness rendering).
///
/// The sharpness code itself is fixed by the design contract for every actuator:
/// S = round(255 * clamp(sharpness, 0, 1)). The profile decides what the output stage does with S.
public enum SharpnessRendering: Sendable, Hashable {
    public enum Scale: String, Sendable, Hashable, CaseIterable {
        /// f(S) = minHz + (maxHz - minHz) * S / 255
        case linear
        /// f(S) = minHz * (maxHz / minHz)^(S / 255): equal steps of S are equal pitch ratios.
        case log
    }

    /// Wideband or open-loop LRA: S picks the drive frequency between minHz and maxHz.
    case frequency(minHz: Double, maxHz: Double, scale: Scale)
    /// Closed-loop LRA or ERM, whose frequency is not free: S picks the edge strength
    /// e = minimumEdge + (1 - minimumEdge) * S / 255, which scales the kick and brake durations
    /// (sharper = crisper onset and stop; 0 = the actuator's natural, soft response).
    case edges(minimumEdge: Double)

    /// The contract's sharpness code: round(255 * clamp(s, 0, 1)); NaN gives 0.
    public static func code(forSharpness sharpness: Double) -> UInt8 {
        guard sharpness > 0 else { return 0 }
        return UInt8((Swift.min(sharpness, 1) * 255).rounded())
    }

    /// The sharpness a code stands for: S / 255.
    public static func sharpness(forCode code: UInt8) -> Double { Double(code) / 255 }

    /// Drive frequency for a code under `.frequency`; nil under `.edges` (the profile's
    /// mechanics decide: resonance for an LRA, speed for an ERM).
    public func frequency(forCode code: UInt8) -> Double? {
        guard case .frequency(let lo, let hi, let scale) = self else { return nil }
        let x = Double(code) / 255
        switch scale {
        case .linear: return lo + (hi - lo) * x
        case .log: return lo * pow(hi / lo, x)
        }
    }

    /// The code whose frequency is nearest (in the scale's own measure) to `hz`, clamped to
    /// the range; nil under `.edges`. Inverse of `frequency(forCode:)` on codes.
    public func code(forFrequency hz: Double) -> UInt8? {
        guard case .frequency(let lo, let hi, let scale) = self else { return nil }
        let f = Swift.min(Swift.max(hz, lo), hi)
        let x: Double
        switch scale {
        case .linear: x = (f - lo) / (hi - lo)
        case .log: x = log(f / lo) / log(hi / lo)
        }
        return UInt8((Swift.min(Swift.max(x, 0), 1) * 255).rounded())
    }

    /// Edge strength for a code: 1 under `.frequency` (kick and brake always at full length).
    public func edgeStrength(forCode code: UInt8) -> Double {
        guard case .edges(let minimum) = self else { return 1 }
        return minimum + (1 - minimum) * Double(code) / 255
    }
}
