import CAVRHarness

/// Several DRV2605L on one board: a TCA9548A I2C switch (Sources/CAVRHarness/tca9548a_model.c) with
/// a DRV2605L model behind each of its first `drivers` ports. Without `attachTCA9548A`, the board
/// has the one DRV2605L of `AVRBoard`'s other members, which act on channel 0 (the driver behind
/// port 0 once the mux is attached).
extension AVRBoard {
    /// Puts a TCA9548A at `address` (0x70...0x77, its A2..A0 pins) with `drivers` (1...8) DRV2605L
    /// behind ports 0..<drivers; its RESET on Arduino pin `resetPin` (pulled up), or tied high when
    /// nil. Call before running the firmware. Each driver starts as channel 0 is set up (EN pin,
    /// calibration time).
    public func attachTCA9548A(address: UInt8 = 0x70, drivers: Int, resetPin: Int? = nil) throws(AVRBoardError) {
        guard (0x70...0x77).contains(address), (1...Int(HB_AVR_MAX_DRIVERS)).contains(drivers) else {
            throw .load("a TCA9548A takes address 0x70...0x77 and 1...8 drivers (got \(address), \(drivers))")
        }
        _ = hb_avr_mux_attach(handle, address, Int32(drivers))
        hb_avr_mux_set_reset_pin(handle, Int32(resetPin ?? -1))
    }

    /// DRV2605L models on the board: 1 without a mux.
    public var drv2605lCount: Int { Int(hb_avr_drv_count(handle)) }

    /// The mux's control register: the byte written last (bit n = port n).
    public var tca9548aControl: UInt8 { hb_avr_mux_control(handle) }

    /// The ports connected now: the control register as of the last STOP (SCPS207F 8.5.4).
    public var tca9548aConnected: UInt8 { hb_avr_mux_connected(handle) }

    /// A failure of the simulated TCA9548A, from now on.
    public func setTCA9548AFault(_ fault: TCA9548AFault) {
        hb_avr_mux_set_fault(handle, fault.code, Int32(fault.port))
    }

    /// The mux loses power and comes back now, no port selected.
    public func tca9548aPowerLoss() { hb_avr_mux_power_loss(handle) }

    /// Power losses of the mux so far (`tca9548aPowerLoss()` and the `.powerLoss` fault's).
    public var tca9548aBrownOuts: Int { Int(hb_avr_mux_brown_outs(handle)) }

    /// Times the firmware pulled the mux's RESET low.
    public var tca9548aResets: Int { Int(hb_avr_mux_resets(handle)) }

    // MARK: Each DRV2605L

    /// Register `register` of the DRV2605L on `channel` (0 when there is none).
    public func drv2605lRegister(_ register: UInt8, channel: Int) -> UInt8 {
        hb_avr_drv_register_at(handle, Int32(channel), register)
    }

    public func setDRV2605LFault(_ fault: DRV2605LFault, channel: Int) {
        hb_avr_drv_set_fault_at(handle, Int32(channel), fault.code)
    }

    public func setDRV2605LResonance(hz: Double, channel: Int) {
        hb_avr_drv_set_lra_hz_at(handle, Int32(channel), hz)
    }

    /// What the DRV2605L on `channel` drives now, volts (as `drv2605lOutputVolts`).
    public func drv2605lOutputVolts(channel: Int) -> Double {
        Double(hb_avr_drv_output_mv_at(handle, Int32(channel))) / 1_000
    }

    public func drv2605lCalibrations(channel: Int) -> Int { Int(hb_avr_drv_calibrations_at(handle, Int32(channel))) }

    public func drv2605lPowerLoss(channel: Int) { hb_avr_drv_power_loss_at(handle, Int32(channel)) }

    public func drv2605lBrownOuts(channel: Int) -> Int { Int(hb_avr_drv_brown_outs_at(handle, Int32(channel))) }

    /// The EN of the DRV2605L on `channel` wired to Arduino pin `arduinoPin` (0...19: D0...D13,
    /// A0...A5) with a pull-down, or tied high when nil. `setDRV2605LEnablePin(true)` wires every
    /// driver's to D4 (one shared line).
    public func setDRV2605LEnablePin(channel: Int, arduinoPin: Int?) {
        hb_avr_drv_set_en_pin_at(handle, Int32(channel), Int32(arduinoPin ?? -1))
    }

    public func drv2605lEnabled(channel: Int) -> Bool { hb_avr_drv_enabled_at(handle, Int32(channel)) != 0 }
}

/// Failure modes of the simulated TCA9548A (Sources/CAVRHarness/tca9548a_model.c).
public enum TCA9548AFault: Sendable, Hashable {
    case none
    /// No ACK at its address (unwired, unpowered): nothing behind it is reachable.
    case absent
    /// A slave on this port holds its SDA low: once the port is connected, the main bus's SDA is
    /// held low (no START gets through) until RESET deselects it.
    case stuckPort(Int)
    /// Its supply sags whenever a driver behind it starts to drive: it comes back from power-on
    /// reset with no port selected.
    case powerLoss

    var code: Int32 {
        switch self {
        case .none: Int32(HB_AVR_MUX_FAULT_NONE)
        case .absent: Int32(HB_AVR_MUX_FAULT_ABSENT)
        case .stuckPort: Int32(HB_AVR_MUX_FAULT_STUCK_PORT)
        case .powerLoss: Int32(HB_AVR_MUX_FAULT_POWER_LOSS)
        }
    }

    var port: Int {
        if case .stuckPort(let port) = self { return port }
        return -1
    }
}
