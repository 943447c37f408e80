import Foundation

/// How an intensity (0...1, the renderer's perceptual scale) becomes an 8-bit amplitude code,
/// the drive level the output stage applies (255 = the part's rated drive).
/// docs/semantics.md, "Actuators", transfer.
///
///     A(I) = 0                                   for I <= 0 (and NaN)
///     A(I) = F + round((255 - F) * g(min(I, 1)))  otherwise
///
/// g is the curve (power, linear, or a table), F the floor code, round is to nearest with ties
/// away from zero (Swift's `rounded()`). The floor lifts every non-zero intensity onto the part's
/// running range (an ERM under its minimum running level does not turn) instead of clipping to
/// it, so every intensity step still changes the drive. A is non-decreasing in I, so the maximum
/// of intensities maps to the maximum of codes, which is what lets the firmware combine
/// overlapping sources in codes exactly as the renderer combines them in intensity.
public struct IntensityTransfer: Sendable, Hashable {
    public enum Curve: Sendable, Hashable {
        /// g(I) = I^exponent. Exponent 2 is Meta/Lofelt's amplitude = intensity^2. Integer
        /// exponents are evaluated by repeated multiplication (exact IEEE operations, so the
        /// same codes on every platform); others with `pow`.
        case power(exponent: Double)
        /// g(I) = I.
        case linear
        /// Piecewise linear through (intensity, level) points from (0, 0) to (1, 1).
        case table([Point])
    }

    public struct Point: Sendable, Hashable {
        public var intensity: Double
        public var level: Double
        public init(intensity: Double, level: Double) {
            self.intensity = intensity
            self.level = level
        }
    }

    public var curve: Curve
    /// Lowest drive level, as a fraction of rated, that any non-zero intensity gets.
    public var floor: Double

    public init(curve: Curve, floor: Double = 0) {
        self.curve = curve
        self.floor = floor
    }

    /// The floor as a code: round(255 * floor).
    public var floorCode: UInt8 { UInt8((Swift.min(Swift.max(floor, 0), 1) * 255).rounded()) }

    /// g(I) for I in 0...1: the drive level before the floor and the quantization.
    public func level(forIntensity intensity: Double) -> Double {
        let i = Swift.min(Swift.max(intensity, 0), 1)
        switch curve {
        case .linear:
            return i
        case .power(let exponent):
            if exponent == exponent.rounded(), exponent >= 1, exponent <= 16 {
                var result = i
                for _ in 1..<Int(exponent) { result *= i }
                return result
            }
            return pow(i, exponent)
        case .table(let points):
            guard let upper = points.firstIndex(where: { $0.intensity >= i }) else { return points.last?.level ?? i }
            if upper == 0 { return points[0].level }
            let a = points[upper - 1], b = points[upper]
            return a.level + (b.level - a.level) * (i - a.intensity) / (b.intensity - a.intensity)
        }
    }

    /// The amplitude code for an intensity (formula above). 0 exactly for intensity 0.
    public func amplitudeCode(forIntensity intensity: Double) -> UInt8 {
        guard intensity > 0 else { return 0 }
        let f = Int(floorCode)
        let scaled = (Double(255 - f) * level(forIntensity: intensity)).rounded()
        return UInt8(Swift.min(255, f + Int(scaled)))
    }

    /// Every intensity that maps to `code`, as the closed interval [lower, upper]; nil for codes
    /// the transfer never produces (those between 0 and the floor, or skipped by a steep curve).
    /// Found by bisection on `amplitudeCode(forIntensity:)` itself, so it is exact for this
    /// implementation whatever the curve.
    public func intensityInterval(forAmplitudeCode code: UInt8) -> ClosedRange<Double>? {
        let lower = code == 0 ? 0 : smallestIntensity(reaching: Int(code))
        guard lower <= 1, amplitudeCode(forIntensity: lower) == code else { return nil }
        let upper = code == 255 ? 1 : smallestIntensity(reaching: Int(code) + 1).nextDown
        return upper >= lower ? lower...Swift.min(upper, 1) : nil
    }

    /// A representative intensity for `code`: the middle of its interval.
    public func intensity(forAmplitudeCode code: UInt8) -> Double? {
        guard let range = intensityInterval(forAmplitudeCode: code) else { return nil }
        return (range.lowerBound + range.upperBound) / 2
    }

    /// Smallest positive intensity whose code is >= `code`; 2 if even intensity 1 stays below.
    private func smallestIntensity(reaching code: Int) -> Double {
        if Int(amplitudeCode(forIntensity: 1)) < code { return 2 }
        // Invariant: code(lo) < code <= code(hi). Intensities are positive here (code >= 1).
        var lo = 0.0, hi = 1.0
        while true {
            let mid = lo + (hi - lo) / 2
            if mid <= lo || mid >= hi { return hi }
            if Int(amplitudeCode(forIntensity: mid)) >= code { hi = mid } else { lo = mid }
        }
    }
}
