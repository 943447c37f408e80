import HapticProtocol

extension MessageErrorCode {
    /// For an output-stage fault (PROTOCOL.md 2.18): the likely cause and the fix, in one line, for a
    /// person at the desk (hardware/README.md, "Faults"). nil for other codes.
    public var stageFaultAdvice: String? {
        switch self {
        case .driverReset:
            return "the haptic driver lost its settings, back at its power-up defaults (supply): it browned out, most likely as "
                + "it drove; check its VIN and GND wires and that the supply holds up under the actuator's current, then reset the board"
        case .driverAbsent:
            return "the haptic driver does not answer on I2C (wiring or supply): check SDA to A4, SCL to A5, VIN to 5V and GND "
                + "(a DRV2605L at address 0x5A), then reset the board"
        case .driverBus:
            return "transfers to the haptic driver fail (wiring): check the SDA and SCL wires and their pull-ups (4.7 kOhm to VIN), "
                + "keep them short, check the driver's supply, then reset the board"
        case .calibrationFailed:
            return "the driver's auto-calibration failed (actuator): check that the actuator is connected to OUT+ and OUT- and is the one "
                + "the firmware's profile describes (rebuild with PROFILE=<name>), then reset the board to calibrate again"
        case .overTemperature:
            return "the haptic driver shut down, too hot (actuator or supply): let it cool, check the actuator for a short and the supply "
                + "for no more than 5.2 V, then reset the board"
        case .overCurrent:
            return "the haptic driver shut down on over-current (actuator): check OUT+ and OUT- for a short, or an actuator of too low "
                + "an impedance, then reset the board"
        case .unsupported:
            return "the board's output stage cannot drive this actuator safely and drives nothing (stage and profile): an LRA needs "
                + "a DRV2605L or an H-bridge with carrier synthesis, a PWM stage needs the profile's voltages and the supply; fix the "
                + "sketch's stage or profile, then upload again"
        default:
            return nil
        }
    }
}
