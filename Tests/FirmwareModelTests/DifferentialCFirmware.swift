import CFirmwareCore
import FirmwareModel
import HapticProtocol

/// The C core (hardware/firmware/core) behind the same operations as `Interpreter`, for running
/// both side by side. Owns heap copies of everything the C side keeps pointers to: the
/// interpreter itself (its flat source points into it), program buffers and the ring.
final class CFirmware {
    private let interpreter = UnsafeMutablePointer<hb_interp>.allocate(capacity: 1)
    private let source = UnsafeMutablePointer<hb_source>.allocate(capacity: 1)
    private var buffers: [UnsafeMutableBufferPointer<UInt8>] = []
    private(set) var config = hb_config()

    init(_ configuration: DeviceConfiguration) {
        config = CFirmware.config(configuration)
        hb_interp_init(interpreter, &config)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        interpreter.deallocate()
        source.deallocate()
    }

    static func config(_ c: DeviceConfiguration) -> hb_config {
        hb_config(
            max_body: c.maxBody, safety_ticks: c.safetyTicks, rate: c.rate, brake_ticks: c.brakeTicks,
            safety_threshold: c.safetyThreshold)
    }

    /// A buffer the C side may point into until this object goes away.
    private func keep(_ bytes: some Collection<UInt8>, count: Int? = nil) -> UnsafeMutableBufferPointer<UInt8> {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count ?? bytes.count, 1))
        buffer.initialize(repeating: 0)
        _ = buffer.initialize(from: bytes)
        buffers.append(buffer)
        return buffer
    }

    /// hb_program_validate: the error code, and the header on success.
    static func validate(_ program: [UInt8], _ configuration: DeviceConfiguration) -> (UInt8, hb_header) {
        var config = CFirmware.config(configuration)
        var header = hb_header()
        let code = program.withUnsafeBufferPointer {
            hb_program_validate($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, UInt32($0.count), &config, &header)
        }
        return (code, header)
    }

    func load(_ program: [UInt8]) -> UInt8 {
        let buffer = keep(program)
        return hb_interp_load(interpreter, buffer.baseAddress, UInt32(program.count))
    }

    /// A ring of `capacity` bytes with `initial` written, then hb_interp_load_stream with the
    /// first 16 bytes of `program` (the caller checks there are 16).
    func loadStream(_ program: [UInt8], capacity: Int, initial: some Collection<UInt8>) -> (code: UInt8, written: Int) {
        let ring = keep([], count: capacity)
        precondition(hb_source_ring(source, ring.baseAddress, UInt32(capacity)) == 1, "ring capacity \(capacity)")
        let written = feed(initial)
        let header = keep(program.prefix(ProgramHeader.size))
        return (hb_interp_load_stream(interpreter, header.baseAddress, source), written)
    }

    func feed(_ bytes: some Collection<UInt8>) -> Int {
        let array = Array(bytes)
        return Int(array.withUnsafeBufferPointer { hb_source_write(source, $0.baseAddress, UInt32($0.count)) })
    }

    func step() -> OutputSample {
        let s = hb_interp_step(interpreter)
        return OutputSample(amplitude: s.amp, sharpness: s.sharp, flags: s.flags)
    }

    func setScale(_ m: UInt8) { hb_interp_set_scale(interpreter, m) }
    func setOffset(_ o: Int8) { hb_interp_set_offset(interpreter, o) }
    func stop(brake: Bool) { hb_interp_stop(interpreter, brake ? 1 : 0) }

    var mode: UInt8 { interpreter.pointee.p.mode }

    /// The sample of a step with the status after it.
    func observe(_ sample: OutputSample) -> Observation {
        let s = interpreter.pointee
        return Observation(
            sample: sample, mode: s.p.mode, error: s.p.error, tick: s.p.tick, executed: Int(s.sh.executed))
    }
}

extension CFirmware {
    /// hb_program_validate_format: the error code, and on success T, the peak and the seek bound.
    static func validate(_ program: [UInt8], _ configuration: DeviceConfiguration, format: UInt8) -> (
        code: UInt8, total: UInt32, peak: Int, seekBound: UInt32
    ) {
        var config = CFirmware.config(configuration)
        var header = hb_header()
        var info = hb_program_info()
        let code = program.withUnsafeBufferPointer {
            hb_program_validate_format(
                $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, UInt32($0.count), &config, format, nil, nil, nil, &header, &info)
        }
        return (code, header.total_ticks, Int(info.peak), info.seek_bound)
    }
}
