import FirmwareModel
import HapticPattern
import HapticProtocol

/// Pattern + actuator profile -> program (docs/compiler.md).
///
///     let compiled = try PatternCompiler.compile(pattern, profile: profile)
///     compiled.bytes                   // header + body, ready to upload
///     compiled.report.fidelity         // max and mean error against the reference, in LSB
///
/// Pipeline: the reference renderer's tick grid through the profile's transfer gives the codes
/// to reproduce (`CompileTarget`); transients become PULSE instructions (`KernelPulses`); the
/// amplitude channel, then the sharpness channel, are fitted with SET/RAMP inside per-tick bands
/// that leave free whatever a pulse or silence hides (`SegmentFit`); repeated stretches fold into
/// loops (`LoopFolding`); the program is played through the interpreter model and compared with
/// the reference tick by tick (`Fidelity`), and a program beyond the tolerance is an error.
///
/// Compensation: the compiler writes the target drive, never a kick or a brake. Every shipped
/// profile puts overdrive and active braking in the output stage (DRV2605L closed loop, or the
/// board's kick/brake logic), triggered by the amplitude leaving and returning to 0; the
/// compiler keeps those ticks exact (docs/semantics.md, "Actuators").
///
/// Deterministic: the same pattern, profile and options give the same bytes.
public enum PatternCompiler {
    public static func compile(
        _ pattern: HapticPattern, profile: ActuatorProfile,
        options: CompileOptions = CompileOptions()
    ) throws(CompileError) -> CompiledProgram {
        guard (0...255).contains(options.tolerance) else { throw .invalidOptions("tolerance must be 0...255 LSB") }
        guard (0...255).contains(options.effectiveSharpnessTolerance) else {
            throw .invalidOptions("sharpness tolerance must be 0...255 LSB")
        }
        guard options.tickRate > 0 else { throw .invalidOptions("tick rate must be above 0") }
        guard [ProgramHeader.formatVersion, ProgramHeader.formatVersion3].contains(options.formatVersion) else {
            throw .invalidOptions("program format \(options.formatVersion): 2 or 3")
        }
        let clock = ContinuousClock()
        let start = clock.now

        let renderer = ReferenceRenderer(pattern: pattern)
        let target = CompileTarget(
            renderer: renderer, profile: profile, rate: Double(options.tickRate),
            sharpnessTolerance: options.effectiveSharpnessTolerance)
        let n = target.tickCount
        guard n <= Int(Instruction.maxDelay) else { throw .tooLong(ticks: n) }

        let pulses = KernelPulses.select(target, profile: profile, tolerance: options.tolerance)
        let layer = PulseLayer(pulses, tickCount: n)
        let amplitude = SegmentFit.fit(target.amplitudeBand(pulses: layer, tolerance: options.tolerance))
        let envelope = ChannelCommand.play(amplitude, count: n)
        let sharpness =
            target.sharpnessChannel
            ? SegmentFit.fit(target.sharpnessBand(envelope: envelope, pulses: layer)) : []
        let timed = CompileAssembly.merge(amplitude: amplitude, sharpness: sharpness, pulses: pulses)

        let flat = CompileAssembly.flat(timed, end: n)
        let flatProgram = Program(instructions: flat, sharpness: target.sharpnessChannel, rate: options.tickRate)
        var instructions = flat
        var program = flatProgram
        let perTick = options.device?.maxExecutionsPerTick ?? Interpreter.maxExecutionsPerTick
        if options.loops, let folded = LoopFolding.fold(timed, end: n, maxPerTick: perTick),
            folded.encodedCount < flat.encodedCount
        {
            // Folding keeps every instruction time, each tick within 1.15's bound and every loop
            // closed; the validator still has the last word, with format 3's rule (f) whatever
            // the format byte.
            let candidate = Program(instructions: folded, sharpness: target.sharpnessChannel, rate: options.tickRate)
            var asFormat3 = candidate
            asFormat3.header.version = ProgramHeader.formatVersion3
            let check = Validator(configuration: Fidelity.checkConfiguration(for: candidate), format: ProgramHeader.formatVersion3)
            if (try? check.validate(asFormat3)) != nil {
                instructions = folded
                program = candidate
            }
        }
        var placement = ProgramPlacement.unplaced
        if let device = options.device {
            guard device.rate == options.tickRate else {
                throw .invalidOptions("tick rate \(options.tickRate) Hz, but the device runs \(device.rate) Hz")
            }
            if device.fitsSlot(program) {
                placement = .slot
            } else {
                // Streamed: no loops (1.14, error 23), and every fetch fed in time.
                instructions = flat
                program = flatProgram
                guard device.streamCapacity > 0 else {
                    throw .doesNotFit(
                        "\(ProgramHeader.size + program.body.count) bytes, slots hold \(device.slotCapacity) and the device cannot stream")
                }
                if let short = StreamSchedule.check(flat, capabilities: device) {
                    throw .doesNotFit(
                        "streamed, it needs its first \(short.needed) bytes by tick \(short.tick), but the link and the \(device.streamCapacity)-byte ring deliver \(short.available) by then (about \(Int(device.streamBytesPerTick)) bytes a tick)"
                    )
                }
                placement = .stream
            }
        }
        let (fidelity, output) = Fidelity.check(program, target: target, tolerance: options.tolerance)
        let seconds = (clock.now - start).seconds

        let report = CompileReport(
            profile: profile.name, tickRate: Int(options.tickRate), totalTicks: n,
            instructions: InstructionCounts(instructions), transients: target.transients.count, pulses: pulses.count,
            sharpnessChannel: target.sharpnessChannel, sharpnessRendered: target.sharpnessRendered,
            programBytes: ProgramHeader.size + program.body.count, bodyBytes: program.body.count,
            rawSampleBytes: 2 * n, ahapMinifiedBytes: AHAPEncoder(minified: true).encode(pattern).count,
            fidelity: fidelity, compileSeconds: seconds, deviceNotes: deviceNotes(program, output: output),
            placement: placement)
        // The format byte last: the model plays format 2, and the bodies are the same (3.1).
        program.header.version = options.formatVersion
        let compiled = CompiledProgram(program: program, report: report)
        if options.failOnToleranceExceeded && !fidelity.withinTolerance { throw .toleranceExceeded(compiled) }
        return compiled
    }

    /// What a device with the default configuration (PROTOCOL.md 1.2) would object to.
    static func deviceNotes(_ program: Program, output: [OutputSample]) -> [String] {
        var notes: [String] = []
        let device = DeviceConfiguration.default
        if program.body.count > Int(device.maxBody) {
            notes.append(
                "body of \(program.body.count) bytes exceeds a default device's \(device.maxBody)-byte buffer: stream it (PROTOCOL.md 1.14) or raise max_body"
            )
        }
        // The safety limiter counts consecutive output samples at or above the threshold.
        var run = 0, longest = 0
        for sample in output {
            run = sample.amplitude >= device.safetyThreshold ? run + 1 : 0
            longest = max(longest, run)
        }
        if longest > Int(device.safetyTicks) {
            notes.append(
                "\(longest) consecutive ticks at amplitude >= \(device.safetyThreshold) exceed a default device's safety limit of \(device.safetyTicks) (PROTOCOL.md 1.12): lower the master scale"
            )
        }
        return notes
    }
}

extension Array where Element == Instruction {
    /// Body bytes of these instructions.
    var encodedCount: Int { reduce(0) { $0 + $1.encodedCount } }
}
