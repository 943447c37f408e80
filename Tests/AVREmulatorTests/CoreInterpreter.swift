import CFirmwareCore
import FirmwareModel

/// The portable C core built for this host (CFirmwareCore): plays a program with the default
/// device configuration and returns one sample per tick.
enum CoreInterpreter {
    static func play(_ program: [UInt8], ticks: Int) -> [OutputSample]? {
        var config = hb_config()
        hb_config_default(&config)
        var interp = hb_interp()
        return program.withUnsafeBufferPointer { bytes -> [OutputSample]? in
            hb_interp_init(&interp, &config)
            guard hb_interp_load(&interp, bytes.baseAddress, UInt32(bytes.count)) == 0 else { return nil }
            return (0..<ticks).map { _ in
                let s = hb_interp_step(&interp)
                return OutputSample(amplitude: s.amp, sharpness: s.sharp, flags: s.flags)
            }
        }
    }
}
