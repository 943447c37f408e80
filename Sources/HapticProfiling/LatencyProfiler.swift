import FirmwareModel
import Foundation
import HapticBridge
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticSession
import HapticTransport

/// Measures play latency: from the host's `play` call to the device's first tick with non-zero
/// output for that play.
///
/// The device reports that tick in TELEMETRY FIRST_OUTPUT; PING/PONG just before each play
/// places device ticks on the host clock (`ClockEstimate`: the sample with the smallest round trip
/// of four). A pattern's own lead-in (silence before its first sound, from the program run through
/// the interpreter offline) is subtracted, so every pattern measures the link and the device, not
/// its choreography.
///
/// Two ways are timed side by side in the same run, alternating per pattern:
/// - **prepared**: `prepare` (upload if needed, PREPARE wakes the output stage) ahead of time, then
///   `play`: one PLAY frame;
/// - **upload-then-play**: the host forgets what the device holds, then `play(pattern)` uploads
///   (UPLOAD chunks, COMMIT, or STREAM_OPEN and the ring's first bytes) and plays. The output
///   stage is warm from the plays before, so the difference is the transfer.
/// - **unprepared** (`Options.coldPlays`, once per pattern after the others): the same
///   upload-then-play, but after the device has idled past its output stage's idle time (INFO
///   `idle_ticks`, PROTOCOL.md 2.9), so the stage is cold: what a play costs when nothing was
///   prepared and the actuator has gone back to idle, the situation `prepare` exists for
///   (Core Haptics' prepare(); the haptic design guides the presets follow, docs/presets.md: the actuator
///   idles about 2 s after its last use).
public struct LatencyProfiler: Sendable {
    public struct Options: Sendable {
        /// Plays of each kind.
        public var iterations: Int
        /// The line rate, for the lower bound (a pty does not know it).
        public var baudRate: Int
        /// PINGs per clock estimate.
        public var pings: Int
        /// Also time one unprepared play per pattern from a cold output stage (each waits out
        /// the device's idle time first, about 2 s).
        public var coldPlays: Bool
        /// The device's recorded output (`VirtualDevice.samples(from:count:)`): the felt onset is
        /// computed from what it output. Without it (a board on a port), from the model's output
        /// for the compiled program (`FeltPrediction`).
        public var recordedOutput: (@Sendable (_ from: UInt32, _ count: Int) -> [OutputSample])?

        public init(
            iterations: Int = 100, baudRate: Int = SerialConfiguration.referenceBaudRate, pings: Int = 4, coldPlays: Bool = false,
            recordedOutput: (@Sendable (_ from: UInt32, _ count: Int) -> [OutputSample])? = nil
        ) {
            self.iterations = iterations
            self.baudRate = baudRate
            self.pings = pings
            self.coldPlays = coldPlays
            self.recordedOutput = recordedOutput
        }
    }

    public struct Subject: Sendable {
        public var name: String
        public var pattern: HapticPattern
        public init(name: String, pattern: HapticPattern) {
            self.name = name
            self.pattern = pattern
        }
    }

    public let device: HapticDevice
    public let subjects: [Subject]
    public let options: Options

    public init(device: HapticDevice, subjects: [Subject], options: Options = Options()) {
        self.device = device
        self.subjects = subjects
        self.options = options
    }

    /// The corpus (a directory of .ahap files) as subjects, sorted by name; files that do not
    /// decode are skipped.
    public static func subjects(inDirectory directory: String) -> [Subject] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".ahap") }.sorted()
        return names.compactMap { name in
            let path = (directory as NSString).appendingPathComponent(name)
            guard let document = try? AHAPDecoder().decode(contentsOfFile: path) else { return nil }
            return Subject(name: String(name.dropLast(5)), pattern: document.pattern)
        }
    }

    /// Runs the measurement; `progress` gets one line per play.
    public func run(progress: (@Sendable (String) -> Void)? = nil) async throws -> LatencyReport {
        guard let info = await device.info, let profile = await device.profile else { throw SessionError.notConnected }
        let rate = Double(info.rate)
        let physics = profile.physicsModel(tickRate: rate)
        // Compile everything first: compiling is not part of either latency.
        var programs: [(Subject, Program, Double)] = []
        var targets: [String: FeltTarget] = [:]
        var silent: [String] = []
        for subject in subjects {
            let program = try await device.compile(subject.pattern).program
            if let leadIn = Self.leadIn(of: program, rate: rate) {
                programs.append((subject, program, leadIn))
                targets[subject.name] = FeltTarget.of(pattern: subject.pattern, profile: profile, rate: rate)
            } else {
                silent.append(subject.name)
            }
        }
        guard !programs.isEmpty else { throw SessionError.compile("no patterns to profile") }
        var prepared: [LatencyReport.Sample] = []
        var uploaded: [LatencyReport.Sample] = []
        for iteration in 0..<max(1, options.iterations) {
            let (subject, program, leadIn) = programs[iteration % programs.count]
            // Prepared: the program is on the device and the stage awake before the clock starts.
            let ready = try await device.prepareAndWarm(program: program)
            let one = try await measure(
                subject: subject, program: program, leadIn: leadIn, rate: rate, physics: physics, target: targets[subject.name]
            ) {
                try await device.play(ready)
            }
            prepared.append(one)
            progress?("prepared \(subject.name): \(String(format: "%.3f", one.latency * 1000)) ms")
            // Upload-then-play: the device is made to receive the program again.
            await device.discardPreparedPrograms()
            let two = try await measure(
                subject: subject, program: program, leadIn: leadIn, rate: rate, physics: physics, target: targets[subject.name]
            ) {
                try await device.play(try await device.load(program), at: .now)
            }
            uploaded.append(two)
            progress?("upload-then-play \(subject.name): \(String(format: "%.3f", two.latency * 1000)) ms")
        }
        var unprepared: [LatencyReport.Sample] = []
        if options.coldPlays {
            // Nothing plays or wakes the stage while we wait (PINGs and keep-alives do not), so
            // after idle_ticks it is cold again (PROTOCOL.md 2.9); a margin covers the host's sleep.
            let idle = Double(info.idleTicks) / rate + 0.05
            for (subject, program, leadIn) in programs {
                await device.discardPreparedPrograms()
                try await Task.sleep(nanoseconds: UInt64(idle * 1e9))
                let cold = try await measure(
                    subject: subject, program: program, leadIn: leadIn, rate: rate, physics: physics, target: targets[subject.name]
                ) {
                    try await device.play(try await device.load(program), at: .now)
                }
                unprepared.append(cold)
                progress?("unprepared (cold stage) \(subject.name): \(String(format: "%.3f", cold.latency * 1000)) ms")
            }
        }
        let playBytes = try Message.play(Message.Play(slot: 0)).encoded(sequence: 0).count
        return LatencyReport(
            baudRate: options.baudRate, rate: info.rate, playFrameBytes: playBytes,
            prepared: prepared, uploadThenPlay: uploaded, unpreparedCold: unprepared,
            silentPatterns: silent, actuatorProfile: profile.name, feltFromRecordedOutput: options.recordedOutput != nil)
    }

    /// One play: clock estimate, the call, FIRST_OUTPUT, then a stop so long patterns do not hold
    /// the run up.
    private func measure(
        subject: Subject, program: Program, leadIn: Double, rate: Double, physics: ActuatorSimulator.Model, target: FeltTarget?,
        play: () async throws -> PlayReceipt
    ) async throws -> LatencyReport.Sample {
        let clock = try await device.synchronizeClock(samples: options.pings)
        let called = HapticDevice.hostTime()
        let receipt = try await play()
        let acknowledged = HapticDevice.hostTime()
        let first = try await device.waitForFirstOutput(of: receipt, timeout: 5)
        guard case .firstOutput(_, let tick, _) = first else {
            throw SessionError.timedOut("FIRST_OUTPUT of \(subject.name) (got \(first))")
        }
        let output = clock.hostTime(ofStep: tick)
        let drive = try await firstDrive(from: tick, program: program, rate: rate)
        let rise = FeltRise.of(drive: drive, model: physics)
        // Felt lag: a drive that never gets to half the level in the window counts as the window.
        var lag: Double?, reached = false
        if let target {
            let toLevel = target.rise(of: drive, model: physics)
            reached = toLevel != nil
            lag = target.lag(firstOutput: output - called, rise: toLevel ?? Double(drive.count) / rate)
        }
        let remaining = Double(receipt.totalTicks) / rate - leadIn - (options.recordedOutput != nil ? FeltRise.peakWindow : 0)
        if remaining > 0.05 {
            try await device.stop(brake: false)
        } else {
            _ = try? await device.waitForEnd(of: receipt, timeout: 2)
        }
        // A cold stage's wake-up is already in the ACK's start tick (PROTOCOL.md 2.8: now +
        // wake_left): it is the start tick less the tick the PLAY arrived at, which the ACK's
        // arrival on the host clock bounds (it left the device on that tick, then crossed the line).
        let ackLine = Double(try Message.ack(Message.Ack(type: .play, value: 0)).encoded(sequence: 0).count * 10) / Double(options.baudRate)
        let arrival = clock.step(atOrAfter: acknowledged - ackLine) &- 1
        let wake = max(0, Double(Int32(bitPattern: receipt.startTick &- arrival)) / rate)
        return LatencyReport.Sample(
            pattern: subject.name, latency: output - called - leadIn,
            programBytes: program.bytes.count, uncertainty: clock.uncertainty,
            toStart: clock.hostTime(ofStep: receipt.startTick) - called, wakeUp: wake, rise: rise,
            feltLag: lag, feltLagReached: reached, floorBeyondTransport: target?.floor(transport: 0))
    }

    /// The play's output from its first output tick `tick`, over the peak window: the device's
    /// recorded output when it has one (waiting until the window has been output), else the
    /// model's output for the program.
    private func firstDrive(from tick: UInt32, program: Program, rate: Double) async throws -> [OutputSample] {
        let count = Int((FeltRise.peakWindow * rate).rounded()) + 1
        guard let recorded = options.recordedOutput else {
            return FeltPrediction.firstOutput(of: program, count: count)?.drive ?? []
        }
        let deadline = HapticDevice.hostTime() + FeltRise.peakWindow + 1
        var drive = recorded(tick, count)
        while drive.count < count, HapticDevice.hostTime() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
            drive = recorded(tick, count)
        }
        return drive
    }

    /// Seconds of silence before the program's first non-zero sample; nil for a program that
    /// never sounds (its play has no FIRST_OUTPUT to time).
    public static func leadIn(of program: Program, rate: Double) -> Double? {
        FeltPrediction.firstOutput(of: program, count: 1).map { Double($0.leadInTicks) / rate }
    }
}
