// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import CFirmwareCore
    import FirmwareModel

    /// References for what the board must output: the Swift model of the firmware
    /// (`FirmwareModel.Interpreter`) and the portable C core built for this host (CFirmwareCore),
    /// both playing a program with the default device configuration, one sample per tick.
    enum ReferenceInterpreter {
        static func swiftModel(_ program: [UInt8], ticks: Int) -> [OutputSample]? {
            var interpreter = Interpreter()
            do { try interpreter.load(program) } catch { return nil }
            return (0..<ticks).map { _ in interpreter.step() }
        }

        /// The Swift model fed the way the device is: a program that fits a slot loaded whole, a
        /// streamed one (`ringCapacity`: the device's stream ring) through a ring kept as full as it
        /// goes (PROTOCOL.md 1.14), so a program of any length is checked, whatever its body size.
        static func swiftModel(_ program: [UInt8], ticks: Int, streamedThrough ringCapacity: Int?) -> [OutputSample]? {
            guard let ringCapacity else { return swiftModel(program, ticks: ticks) }
            guard let ring = ByteSource.ring(capacity: ringCapacity) else { return nil }
            var interpreter = Interpreter()
            do { try interpreter.loadStream(header: program.prefix(16), ring: ring) } catch { return nil }
            var body = program.dropFirst(16)
            return (0..<ticks).map { _ in
                body = body.dropFirst(interpreter.feed(body))
                return interpreter.step()
            }
        }

        static func hostCore(_ program: [UInt8], ticks: Int) -> [OutputSample]? {
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

        /// The Swift model's samples, after checking that the host-built C core agrees.
        static func play(_ program: [UInt8], ticks: Int) -> [OutputSample]? {
            guard let model = swiftModel(program, ticks: ticks), let core = hostCore(program, ticks: ticks),
                model == core
            else { return nil }
            return model
        }
    }
#endif
