import FirmwareModel
import Foundation
import HapticBridge
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticTrace
import HapticTransport
import HapticVirtualDevice

/// A virtual device for an app's own tests: the firmware model on a real pseudo-terminal,
/// recording every frame and every tick (`DeviceTrace`), with checks of what it played.
///
///     let device = try RecordingDevice()
///     let session = try await device.connect()          // or open `device.path` your own way
///     try await session.play(preset: "impact.medium")
///     try await device.waitUntilQuiet()
///     try device.expectPlayed(preset: "impact.medium")  // throws a PlaybackMismatch otherwise
///
/// The checks throw (a failing test in Swift Testing and in XCTest alike) or, as `check...`,
/// return a `PlayCheck` for `#expect(check.passed, "\(check)")` / `XCTAssert`.
public final class RecordingDevice: @unchecked Sendable {
    public let virtual: VirtualDevice
    private let lock = NSLock()
    private var sessions: [HapticDevice] = []

    /// Starts a recording virtual device. `faults` and `seed` make its line flaky, reproducibly.
    public init(
        profile: ActuatorProfile? = nil, baudRate: Int = SerialConfiguration.referenceBaudRate,
        faults: FaultProfile = .none, seed: UInt64 = 0
    ) throws {
        var options = VirtualDevice.Options(profile: profile, baudRate: baudRate)
        options.faults = faults
        options.faultSeed = seed
        options.trace = true
        virtual = try VirtualDevice(options: options)
        virtual.start()
    }

    deinit {
        virtual.stop()
    }

    /// The port to open (a pty's slave path).
    public var path: String { virtual.path }
    public var profile: ActuatorProfile { virtual.options.profile }
    public var tickRate: Double { Double(virtual.deviceConfiguration.core.rate) }
    /// The device tick now.
    public var now: UInt32 { virtual.now }

    /// A session on the device (closed by `close()`).
    public func connect(options: HapticDevice.Options = HapticDevice.Options()) async throws -> HapticDevice {
        let session = try await HapticDevice.open(path: path, baudRate: virtual.options.baudRate, options: options)
        lock.withLock { sessions.append(session) }
        return session
    }

    /// Closes the sessions `connect` opened and stops the device.
    public func close() async {
        for session in lock.withLock({ sessions }) { await session.close() }
        virtual.stop()
    }

    /// Everything recorded so far.
    public var trace: DeviceTrace.File {
        let (header, records) = virtual.trace()
        return DeviceTrace.File(header: header, records: records)
    }

    /// Writes the trace (haptic-trace/1) to `path`, for `haptic verify` or a CI artifact.
    public func writeTrace(to path: String) throws {
        let file = trace
        try DeviceTrace.write(header: file.header, records: file.records, to: path)
    }

    /// The sample output at device tick `tick` of the current boot (nil: not output yet).
    public func output(atTick tick: UInt32) -> OutputSample? {
        virtual.samples(from: tick, count: 1).first
    }

    /// The plays so far, in order: slot, start tick, and the end telemetry once it came.
    public var plays: [RecordedPlay] {
        var plays: [RecordedPlay] = []
        for case .frame(let frame) in trace.records where frame.frame == .out {
            guard case .telemetry(let t)? = frame.message else { continue }
            switch t.event {
            case .started: plays.append(RecordedPlay(slot: t.slot, startTick: t.tick))
            case .finished, .stopped, .fault:
                if let open = plays.lastIndex(where: { $0.end == nil && $0.slot == t.slot }) { plays[open].end = t }
            case .firstOutput: break
            }
        }
        return plays
    }

    /// PLAY commands the device accepted (ACKed; a retransmission counts once, also one that
    /// arrives after the first ACK and is answered again from the duplicate memory).
    var acceptedPlays: Int {
        var accepted = 0
        var lastPlay: UInt8?
        var lastAccepted: UInt8?
        for case .frame(let frame) in trace.records {
            switch (frame.frame, frame.message) {
            case (.in, .play?): lastPlay = frame.seq
            case (.out, .ack?) where frame.seq == lastPlay && lastPlay != nil:
                if lastAccepted != frame.seq { accepted += 1 }
                lastAccepted = frame.seq
                lastPlay = nil
            default: break
            }
        }
        return accepted
    }

    /// Waits until every accepted play has started and ended and its brake is over (polling),
    /// at most `timeout` seconds.
    public func waitUntilQuiet(timeout: Double = 10) async throws {
        let brake = UInt32(virtual.deviceConfiguration.core.brakeTicks)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let plays = self.plays
            if plays.count >= acceptedPlays && plays.allSatisfy({ $0.end != nil }) {
                let last = plays.compactMap(\.end?.tick).max()
                if last.map({ Int32(bitPattern: now &- ($0 &+ brake &+ 2)) >= 0 }) ?? true { return }
            }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        throw PlaybackMismatch("the device did not become quiet within \(timeout) s: plays \(plays)")
    }

    // MARK: Checks

    /// Whether some play equals, tick by tick through its brake, what the model plays for
    /// `pattern` on this device (with that play's own PLAY scale, offset and loops), started
    /// within `window` (seconds of device time since boot; nil: any time).
    public func checkPlayed(pattern: HapticPattern, within window: ClosedRange<Double>? = nil) -> PlayCheck {
        let file = trace
        var options = CompileOptions()
        options.tickRate = UInt16(clamping: file.header.tickRate)
        let program: Program
        do {
            program = try PatternCompiler.compile(pattern, profile: profile, options: options).program
        } catch {
            return PlayCheck(passed: false, description: "the pattern does not compile for \(profile.name): \(error)")
        }
        let plays = self.plays
        guard !plays.isEmpty else { return PlayCheck(passed: false, description: "nothing was played") }
        var nearest: String?
        for index in plays.indices {
            let seconds = Double(plays[index].startTick) / tickRate
            if let window, !window.contains(seconds) {
                nearest =
                    nearest
                    ?? String(format: "play %d started at %.3f s, outside %.3f...%.3f s", index + 1, seconds, window.lowerBound, window.upperBound)
                continue
            }
            let comparison = DeviceTrace.compare(file, program: program, playIndex: index)
            if comparison.isEqual {
                return PlayCheck(passed: true, description: "play \(index + 1) at tick \(plays[index].startTick): \(comparison.summary)")
            }
            if nearest == nil || window != nil { nearest = "play \(index + 1): " + Self.describe(comparison) }
        }
        return PlayCheck(passed: false, description: "no play matches the pattern (\(plays.count) played); \(nearest ?? "")")
    }

    public func checkPlayed(preset name: String, within window: ClosedRange<Double>? = nil) -> PlayCheck {
        guard let preset = Preset.named(name) else { return PlayCheck(passed: false, description: "no preset named '\(name)'") }
        return checkPlayed(pattern: preset.pattern, within: window)
    }

    /// Throws a `PlaybackMismatch` unless `checkPlayed(pattern:within:)` passes.
    public func expectPlayed(pattern: HapticPattern, within window: ClosedRange<Double>? = nil) throws {
        try checkPlayed(pattern: pattern, within: window).require()
    }

    /// Throws a `PlaybackMismatch` unless the preset (`haptic presets`) was played exactly.
    public func expectPlayed(preset name: String, within window: ClosedRange<Double>? = nil) throws {
        try checkPlayed(preset: name, within: window).require()
    }

    /// Throws unless the device output `sample` at tick `tick`.
    public func expectOutput(atTick tick: UInt32, _ sample: OutputSample) throws {
        let got = output(atTick: tick)
        guard got == sample else {
            throw PlaybackMismatch("tick \(tick): output \(Self.describe(got)), expected \(Self.describe(sample))")
        }
    }

    static func describe(_ sample: OutputSample?) -> String { DeviceTrace.describe(sample) }

    static func describe(_ comparison: DeviceTrace.Comparison) -> String {
        if let problem = comparison.problem { return problem }
        guard let row = comparison.firstDifference else { return comparison.summary }
        return "first difference at tick \(row.tick) (play tick \(row.playTick)): device \(describe(row.trace)), model \(describe(row.model))"
    }
}

/// A play the device reported.
public struct RecordedPlay: Sendable, Hashable, CustomStringConvertible {
    public var slot: UInt8
    public var startTick: UInt32
    public var end: Message.Telemetry?

    public var description: String {
        "\(slot == Message.streamSlot ? "stream" : "slot \(slot)") at tick \(startTick)" + (end.map { ", \($0.event) at \($0.tick)" } ?? ", playing")
    }
}

/// The outcome of a check, for `#expect(check.passed, "\(check)")` or `XCTAssertTrue`.
public struct PlayCheck: Sendable, CustomStringConvertible {
    public var passed: Bool
    public var description: String

    public func require() throws {
        if !passed { throw PlaybackMismatch(description) }
    }
}

/// A check that failed, with what differed.
public struct PlaybackMismatch: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
