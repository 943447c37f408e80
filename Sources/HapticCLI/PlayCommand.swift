import ArgumentParser
import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern
import HapticPlots
import HapticProtocol
import HapticSession
import HapticTransport
import SerialBridge

/// `haptic play FILE|preset:NAME [--port PATH] [--actuator NAME] [--intensity X] [--baud N]`:
/// prepares and plays a pattern on a board, or (without --port) on the virtual device on a pty in
/// this process, then shows what the actuator did (docs/cli.md); `--json` prints the result as one
/// document and `--trace FILE` writes the host's view of the session (haptic-trace/1).
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a pattern on a board, or on the virtual device, and show what the actuator did.",
        discussion: """
            Without --port, a virtual device (the firmware model) is served on a pseudo-terminal in this process and \
            the pattern goes through the same session, pty and wire protocol as to a board; afterwards the recorded \
            output is plotted with the figures of the play and of the actuator's simulated response. With --port the \
            pattern plays on the board there, compiled for the actuator it reports (or --actuator). --json prints the \
            result (latency, start tick, ticks played, end event, bytes) as one document (schema haptic-play/1); \
            --trace FILE writes the session as the host saw it, in the trace format of haptic emulate --trace \
            (haptic-trace/1, for haptic verify).

            Exit status: 0 when the play finished; 1 when it could not play (nothing was played); 2 when the device played it and it ended otherwise (stopped, a fault such as the watchdog); 3 when the device accepted the play but its end could not be learned; 130 or 143 when SIGINT or SIGTERM ended it, after the device was stopped with a brake; 64 for a bad command line.
            """
    )

    @Argument(help: "An AHAP file, or preset:NAME (see `haptic presets`).")
    var input: String

    @Option(help: "Serial port of a board (default: the virtual device).")
    var port: String?

    @Option(help: "Actuator profile: the virtual device's part, or an override of what a board reports.")
    var actuator: String?

    @Option(parsing: .unconditional, help: "Master intensity 0...1 (the profile's amplitude code for it scales the output).")
    var intensity: Double = 1

    @Option(
        name: .customLong("felt-at"), parsing: .unconditional,
        help: ArgumentHelp(
            "Schedule by felt onset: start the play early so that it is felt (50 % of its first peak, predicted through the actuator's physics) this many ms after the play call (0...60000; a time too soon plays at once).",
            valueName: "ms"))
    var feltAt: Double?

    @OptionGroup var line: LineOptions

    @Flag(help: "Print the figures only, no plot.")
    var noPlot = false

    @Flag(help: "Print the play's result as one JSON document (schema haptic-play/1, docs/cli.md) instead of text.")
    var json = false

    @Option(help: "Write the session as the host saw it to this .jsonl file (haptic-trace/1, docs/cli.md \"Traces\").")
    var trace: String?

    /// The latest `--felt-at` (ms): a minute ahead is already far beyond any audio-haptic sync.
    static let maxFeltAtMs = 60_000.0

    func validate() throws {
        do {
            guard (0...1).contains(intensity) else { throw ValidationError("--intensity must be 0...1") }
            if let feltAt, !(feltAt >= 0 && feltAt <= Self.maxFeltAtMs) {
                throw ValidationError("--felt-at must be a number of ms from 0 to \(Int(Self.maxFeltAtMs)), not \(feltAt)")
            }
            if let trace { try OutputPath.validate(trace, option: "--trace", extensions: ["jsonl"]) }
            if let actuator { _ = try Compile.loadProfile(actuator) }
        } catch {
            if json { emit(try reportJSON(Report.failed(self, status: ExitCode.validationFailure.rawValue, message: "\(error)"))) }
            throw error
        }
    }

    /// What is known of the play so far: the document `--json` prints when it fails.
    final class Partial {
        var profile: String?
        var tickRate: Int?
        var receipt: (startTick: UInt32, programTicks: UInt32)?
        /// The report was printed (a play that ended otherwise than FINISHED prints its figures).
        var emitted = false
        /// The line printed on standard error before an exit status.
        var message: String?
    }

    func run() async throws {
        let partial = Partial()
        do {
            try await run(partial)
        } catch {
            guard json, !partial.emitted else { throw error }
            let status: Int32
            switch error {
            case let exit as ExitCode: status = exit.rawValue
            case let ended as PlayEnded: status = ended.status
            default: status = 1
            }
            let message = partial.message ?? "\(error)"
            emit(
                try reportJSON(
                    Report.failed(
                        self, status: status, message: message, profile: partial.profile, tickRate: partial.tickRate,
                        receipt: partial.receipt)))
            throw error
        }
    }

    private func run(_ partial: Partial) async throws {
        let loaded = try PatternInput.load(input)
        let profile = try actuator.map { try Compile.loadProfile($0) }
        var virtual: VirtualDevice?
        let path: String
        if let port {
            path = port
        } else {
            let device = try VirtualDevice(options: VirtualDevice.Options(profile: profile, baudRate: line.baud))
            device.start()
            virtual = device
            path = device.path
        }
        defer { virtual?.stop() }
        let options = HapticDevice.Options(actuator: port == nil ? nil : profile)
        let device: HapticDevice
        var recorder: RecordingTransport?
        do {
            if trace != nil {
                let transport = RecordingTransport(try openTransport(path: path, configuration: SerialConfiguration(baudRate: line.baud)))
                recorder = transport
                device = HapticDevice(transport: transport, options: options)
                do {
                    try await device.connect()
                } catch {
                    await device.close()
                    throw error
                }
            } else {
                device = try await HapticDevice.open(path: path, baudRate: line.baud, options: options)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        // Ctrl-C (SIGINT) or SIGTERM stops the play with a brake and closes the session before
        // the command exits, so the device is free for the next client at once.
        let interrupts = Interrupts()
        defer { interrupts.cancel() }
        let watcher = Task {
            guard await interrupts.wait() != nil else { return }
            _ = try? await device.stop(brake: true)
            await device.close()
        }
        defer { watcher.cancel() }
        do {
            try await play(loaded, on: device, virtual: virtual, path: path, recorder: recorder, partial: partial)
        } catch let ended as PlayEnded where interrupts.signal == nil {
            // The play ran (or was accepted): say how it ended, with its own exit status.
            await device.close()
            partial.message = ended.description
            FileHandle.standardError.write(Data("Error: \(ended.description)\n".utf8))
            throw ExitCode(ended.status)
        } catch  where interrupts.signal == nil {
            await device.close()
            // The trace of a failed play is what shows why: write it all the same.
            if let trace, let recorder, let info = await device.info, let clock = await device.clock {
                try? writeTrace(trace, recorder: recorder, clock: clock, info: info, profile: await device.profile?.name ?? "", virtual: virtual)
            }
            throw CommandFailure("\(error)")
        } catch {
            // The stop closed the session under the play: the signal is the news, not the error.
        }
        // A play that the signal stopped may also have ended normally, with STOPPED.
        if let signal = interrupts.signal {
            await watcher.value
            partial.message = "\(Interrupts.name(of: signal)): stopped the play (brake) and closed the session"
            throw Self.interrupted(by: signal)
        }
        await device.close()
    }

    /// Patterns at least this long (seconds) show progress while they play.
    static let progressThreshold = 2.0

    private static func interrupted(by signal: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("\(Interrupts.name(of: signal)): stopped the play (brake) and closed the session\n".utf8))
        return ExitCode(Interrupts.exitStatus(for: signal))
    }

    private func play(
        _ loaded: PatternInput, on device: HapticDevice, virtual: VirtualDevice?, path: String,
        recorder: RecordingTransport?, partial: Partial
    ) async throws {
        guard let info = await device.info, let profile = await device.profile else { throw SessionError.notConnected }
        partial.profile = profile.name
        partial.tickRate = Int(info.rate)
        let rate = Double(info.rate)
        let where_ = virtual == nil ? path : "virtual device on \(path)"
        if !json {
            print("\(loaded.label) on \(where_): \(profile.name), \(info.rate) Hz, \(line.baud) baud")
            fflush(nil)  // a script reading through a pipe sees at once that the play is under way
        }
        // PREPARE wakes the output stage: let it finish before the clock starts.
        let prepared = try await device.prepareAndWarm(loaded.pattern)
        // The clock estimate gives the latency figures, the felt onset and `--felt-at`; a plain play
        // whose PINGs all went unanswered on a noisy line still plays, without those figures.
        let clock: ClockEstimate?
        do {
            clock = try await device.synchronizeClock()
        } catch let error as SessionError where !error.isFatal && feltAt == nil && trace == nil {
            clock = nil
            FileHandle.standardError.write(Data("warning: no clock estimate (\(error)): playing without latency figures\n".utf8))
        }
        let before = await device.statistics.bytesSent
        let called = HapticDevice.hostTime()
        let time = feltAt.map { HapticDevice.PlayTime.felt(at: called + $0 / 1000) } ?? .now
        let receipt: PlayReceipt
        do {
            receipt = try await device.play(prepared, at: time, intensity: intensity)
        } catch SessionError.outcomeUnknown(let what) {
            throw PlayEnded(status: 3, description: "outcome unknown: \(what)")
        }
        partial.receipt = (receipt.startTick, receipt.totalTicks)
        let feltOnset = clock == nil ? nil : try await device.predictedFeltOnset(of: receipt, prepared: prepared).map { $0 - called }
        let playBytes = await device.statistics.bytesSent - before
        // A long pattern shows how far the play is (standard error), from the host's clock.
        let progress = prepared.duration >= Self.progressThreshold && !json ? ProgressDisplay("playing", total: prepared.duration, unit: "s") : nil
        let ticker = progress.map { display in
            Task {
                while !Task.isCancelled {
                    display.set(HapticDevice.hostTime() - called)
                    try? await Task.sleep(nanoseconds: 100_000_000)
                }
            }
        }
        defer {
            ticker?.cancel()
            progress?.finish()
        }
        // FIRST_OUTPUT is a notice, not retransmitted: on a faulty line it may be lost, and then
        // the play has no latency figure but still goes on to its end.
        // A play scheduled ahead (--felt-at) starts later: both waits count from its start.
        let untilStart = clock.map { max(0, $0.hostTime(ofStep: receipt.startTick) - HapticDevice.hostTime()) } ?? 0
        let first = try? await device.waitForFirstOutput(of: receipt, timeout: untilStart + prepared.duration + 2)
        let end: DeviceEvent
        do {
            end = try await device.waitForEnd(of: receipt, timeout: untilStart + prepared.duration + 2)
        } catch {
            throw PlayEnded(
                status: 3,
                description:
                    "the device accepted the play (start tick \(receipt.startTick)) but how it ended could not be learned: \(error)")
        }
        ticker?.cancel()
        progress?.finish()
        if case .reset = end {
            // The device's RESET notice: the play is gone with the boot it ran in.
            let tick = clock.map { " (tick \($0.step(atOrAfter: HapticDevice.hostTime())))" } ?? ""
            throw PlayEnded(status: 2, description: "the device rebooted during the play\(tick): \(end)")
        }
        // Return once the brake is over, so that a script stopping the emulator finds the device idle.
        if let endTick = end.playEvent?.tick { try await device.waitForBrake(endedAt: endTick, clock: clock) }

        let leadIn = LatencyProfiler.leadIn(of: prepared.program, rate: rate) ?? 0
        var figures: [(String, String)] = []
        var latency: Double?
        if case .firstOutput(_, let tick, _)? = first, let clock {
            latency = clock.hostTime(ofStep: tick) - called - leadIn
            figures.append(("latency", String(format: "%.2f ms (play call to first output, ±%.2f ms)", latency! * 1000, clock.uncertainty * 1000)))
        }
        if let feltOnset {
            let asked = feltAt.map { String(format: ", asked %.2f ms: landing error %+.3f ms", $0, feltOnset * 1000 - $0) } ?? ""
            figures.append(("felt", String(format: "%.2f ms (play call to 50 %% of the first peak, predicted%@)", feltOnset * 1000, asked)))
        }
        let endTick = end.playEvent?.tick ?? receipt.startTick
        figures.append(
            (
                "duration",
                String(
                    format: "%.0f ms (program %u ticks, played %u)", Double(endTick &- receipt.startTick) * 1000 / rate, receipt.totalTicks,
                    endTick &- receipt.startTick)
            ))
        figures.append(("end", end.description))
        figures.append(("bytes", "\(prepared.program.bytes.count) program bytes; the play itself was \(playBytes) bytes on the line"))
        if let slot = prepared.slot { figures.append(("slot", "\(slot)")) } else { figures.append(("slot", "stream")) }
        var report = Report(
            loaded.label, port: port, profile: profile.name, tickRate: Int(info.rate), baud: line.baud,
            latencyMs: latency.map { $0 * 1000 }, latencyUncertaintyMs: latency == nil ? nil : clock.map { $0.uncertainty * 1000 },
            startTick: receipt.startTick, ticksPlayed: endTick &- receipt.startTick, programTicks: receipt.totalTicks,
            end: Report.End(end), bytes: Report.Bytes(program: prepared.program.bytes.count, play: playBytes),
            slot: prepared.slot.map(Int.init), streamed: prepared.slot == nil, peak: nil, trace: trace,
            feltAtMs: feltAt, feltOnsetMs: feltOnset.map { $0 * 1000 },
            feltLandingErrorMs: feltAt.flatMap { asked in feltOnset.map { $0 * 1000 - asked } })

        if let virtual {
            let count = Int(endTick &- receipt.startTick) + Int(info.brakeTicks) + 1
            _ = virtual.waitForTick(receipt.startTick &+ UInt32(count), timeout: 2)
            let samples = virtual.samples(from: receipt.startTick, count: count)
            if !noPlot && !json && !samples.isEmpty {
                print("")
                print(TerminalPlot.render(samples, rate: rate))
                print("")
            }
            let peak = samples.map(\.amplitude).max() ?? 0
            report.peak = Int(peak)
            figures.append(("peak", "amplitude code \(peak) of 255"))
            // The device is idle after the recording: silence lets the simulated motion die out.
            let drive = samples + Array(repeating: OutputSample.silent, count: Int(rate / 2))
            let responses = ResponseAnalysis.analyze(drive: drive, model: profile.physicsModel(tickRate: rate))
            if let onset = responses.first {
                let rise =
                    onset.rise90.map { String(format: "reaches 90 %% of its level after %.1f ms", $0) }
                    ?? "ends before the motion reaches 90 % of its level"
                figures.append(
                    ("onset", String(format: "first drive at %.0f ms, %@ (simulated %@)", Double(onset.onsetTick) * 1000 / rate, rise, profile.name)))
            }
            if let last = responses.last {
                let stop = last.stop10.map { String(format: "%.1f ms", $0) } ?? "not within the recording"
                figures.append(
                    ("stop", String(format: "drive ends at %.0f ms, motion under 10 %% after %@", Double(last.endTick) * 1000 / rate, stop)))
            }
        }
        if let trace, let recorder, let clock = await device.clock ?? clock {
            try writeTrace(trace, recorder: recorder, clock: clock, info: info, profile: profile.name, virtual: virtual)
            figures.append(("trace", trace))
        }
        if report.end?.event != "finished" { report.error = Report.Failure(status: 2, message: "the play did not finish: \(end)") }
        if json {
            partial.emitted = true
            emit(try reportJSON(report))
        } else {
            let width = figures.map(\.0.count).max() ?? 0
            for (name, value) in figures {
                print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value)
            }
        }
        // Only a play that ran to its END succeeded: a stop or a fault is not success for a script.
        guard case .finished = end else { throw PlayEnded(status: 2, description: "the play did not finish: \(end)") }
    }
}

/// A play the device accepted that did not end with FINISHED: exit status 2 (it ended otherwise,
/// the line says how) or 3 (its end could not be learned). docs/cli.md, "Exit statuses".
struct PlayEnded: Error, CustomStringConvertible {
    var status: Int32
    var description: String
}

extension Play {
    /// The host's trace: the frames each way on the device's ticks and, for the virtual device
    /// in this process, its samples since it started.
    fileprivate func writeTrace(
        _ path: String, recorder: RecordingTransport, clock: ClockEstimate, info: Message.Info, profile: String,
        virtual: VirtualDevice?
    ) throws {
        let (header, records) = recorder.trace(
            clock: clock, info: info, profile: profile, samples: virtual.map { $0.samples(from: 0, count: Int($0.now)) })
        do {
            try DeviceTrace.write(header: header, records: records, toFile: path)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
