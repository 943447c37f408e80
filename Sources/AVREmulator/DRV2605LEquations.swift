import CAVRHarness

/// The DRV2605L's steady output for a register file, by the datasheet's equations (TI SLOS854C
/// 8.5.2.1 Equations 4 to 7, 8.5.2.2 Equations 8 and 9, 8.5.8.1 data formats;
/// Sources/CAVRHarness/drv2605l_model.c): what the simulated chip drives, and what tests hold the
/// board's register values to.
public enum DRV2605LEquations {
    /// Output for RTP code `code`: volts RMS (LRA) or average (ERM), negative in reverse; 0 unless
    /// in RTP mode out of standby. `registers` holds all 256 registers.
    public static func outputVolts(registers: [UInt8], code: UInt8, lraHz: Double) -> Double {
        precondition(registers.count == 256)
        return hb_drv2605l_output_volts(registers, code, lraHz)
    }

    /// Full scale of the mode the registers set (rated voltage in closed loop, OD_CLAMP's in open loop).
    public static func fullScaleVolts(registers: [UInt8], lraHz: Double) -> Double {
        precondition(registers.count == 256)
        return hb_drv2605l_full_scale_volts(registers, lraHz)
    }

    /// The most the automatic overdrive and braking drive (OD_CLAMP), in the same units.
    public static func clampVolts(registers: [UInt8], lraHz: Double) -> Double {
        precondition(registers.count == 256)
        return hb_drv2605l_clamp_volts(registers, lraHz)
    }
}
