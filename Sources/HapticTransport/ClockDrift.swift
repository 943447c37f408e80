/// A simulated device's clock error (`haptic emulate --drift-ppm`): the rule shared by the virtual
/// device and the simulated boards. A clock `ppm` off runs fast for positive values, as a resonator
/// `ppm` above its nominal frequency does: its ticks are `1 / (1 + ppm / 10^6)` of their nominal
/// length in host time, so it counts `rate * (1 + ppm / 10^6)` ticks per host second.
public enum ClockDrift {
    /// The range `--drift-ppm` takes: +-2 %, four times a ceramic resonator's +-0.5 % tolerance.
    public static let range: ClosedRange<Double> = -20_000...20_000

    /// Host seconds per tick of a device nominally at `rate` ticks per second, `ppm` off.
    public static func tickPeriod(rate: Double, ppm: Double) -> Double {
        1 / (rate * (1 + ppm / 1_000_000))
    }
}
