import Foundation
import HapticBridge
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticSession
import HapticTransport

/// Plays through a noisy line and checks what the host concluded against what the device did
/// (PROTOCOL.md 2.19; docs/performance.md "A lossy line"). Each play is what `haptic play` does:
/// open the port (handshake), prepare, play, wait for the end, close. The truth is the device's own
/// notices, read from its side of the `NoisyLineProxy` before the noise.
public final class LossyLineRun {
    public struct Tally: Sendable, CustomStringConvertible {
        public var plays = 0
        /// Reported finished, and the device finished them.
        public var finished = 0
        /// Reported as ending otherwise (stopped, fault), truthfully.
        public var endedOtherwise = 0
        /// Reported failed before playing, and the device did not play them.
        public var failed = 0
        /// Accepted by the device, end not learned (reported as such).
        public var unknown = 0
        /// Reported differently from what the device did.
        public var misreported = 0
        /// The one-line messages of the plays that did not finish.
        public var messages: [String] = []
        public var handshakeSeconds: [Double] = []
        /// Seconds beyond the pattern's length, of the plays that finished.
        public var overheadSeconds: [Double] = []
        /// Where the overhead goes: seconds per phase of each finished play, in order (the
        /// handshake, prepare, the stage's wake-up, clock sync, PLAY to its ACK, the wait after the
        /// pattern's nominal end until the end is learned, close).
        public var phaseSeconds: [String: [Double]] = [:]
        public static let phases = ["handshake", "prepare", "wake", "sync", "play", "end", "close"]

        /// The mean, median and 90th percentile of each phase, in milliseconds.
        public var phaseSummary: String {
            Self.phases.compactMap { name in
                guard let values = phaseSeconds[name], !values.isEmpty else { return nil }
                return String(
                    format: "%@ %.1f (p50 %.1f, p90 %.1f)", name, values.reduce(0, +) / Double(values.count) * 1000,
                    Self.percentile(values, 0.5) * 1000, Self.percentile(values, 0.9) * 1000)
            }.joined(separator: ", ")
        }

        public var description: String {
            let ratio = plays == 0 ? 0 : Double(finished) / Double(plays) * 100
            return String(
                format:
                    "%d plays: %d finished (%.1f %%), %d ended otherwise, %d failed, %d unknown, %d misreported; "
                    + "handshake median %.3f s; overhead median %.3f s",
                plays, finished, ratio, endedOtherwise, failed, unknown, misreported, Self.median(handshakeSeconds),
                Self.median(overheadSeconds))
        }

        public static func median(_ values: [Double]) -> Double { Percentile.median(values) }

        /// The `fraction` × 100-th percentile (`Percentile`, docs/performance.md).
        static func percentile(_ values: [Double], _ fraction: Double) -> Double { Percentile.nearestRank(fraction * 100, of: values) }
    }

    public let proxy: NoisyLineProxy
    private let baudRate: Int

    public init(devicePath: String, noise: (toDevice: LineNoise, toHost: LineNoise), baudRate: Int) throws(TransportError) {
        proxy = try NoisyLineProxy(
            devicePath: devicePath, toDevice: noise.toDevice, toHost: noise.toHost,
            configuration: SerialConfiguration(baudRate: baudRate))
        proxy.recordsDeviceBytes = true
        self.baudRate = baudRate
        proxy.start()
    }

    deinit { proxy.stop() }

    /// Plays `patterns` in turn, `count` plays in all.
    public func run(_ patterns: [HapticPattern], count: Int) async -> Tally {
        var tally = Tally()
        for index in 0..<count {
            await play(patterns[index % patterns.count], into: &tally)
        }
        return tally
    }

    private func play(_ pattern: HapticPattern, into tally: inout Tally) async {
        tally.plays += 1
        let before = proxy.deviceBytes.count
        let began = HapticDevice.hostTime()
        let device: HapticDevice
        do {
            device = try await HapticDevice.open(path: proxy.path, baudRate: baudRate)
        } catch {
            return judgeFailure("\(error)", before: before, into: &tally)
        }
        tally.handshakeSeconds.append(HapticDevice.hostTime() - began)
        let receipt: PlayReceipt
        let duration: Double
        var marks = [began, HapticDevice.hostTime()]
        do {
            // As `haptic play` does: prepare, let the stage wake, synchronise the clock, play.
            let prepared = try await device.prepare(pattern)
            duration = prepared.duration
            marks.append(HapticDevice.hostTime())
            try await device.waitUntilWarm()
            marks.append(HapticDevice.hostTime())
            // Without a clock estimate (every PING or PONG lost) `haptic play` plays on.
            _ = try? await device.synchronizeClock()
            marks.append(HapticDevice.hostTime())
            receipt = try await device.play(prepared)
            marks.append(HapticDevice.hostTime())
        } catch SessionError.outcomeUnknown(let what) {
            await device.close()
            tally.unknown += 1
            tally.messages.append("outcome unknown: \(what)")
            return
        } catch {
            await device.close()
            return judgeFailure("\(error)", before: before, into: &tally)
        }
        let end = try? await device.waitForEnd(of: receipt, timeout: duration + 2)
        marks.append(HapticDevice.hostTime() - duration)
        await device.close()
        marks.append(HapticDevice.hostTime() - duration)
        let truth = deviceEnd(of: receipt, from: before)
        guard let end else {
            tally.unknown += 1
            tally.messages.append("the device accepted the play (start tick \(receipt.startTick)) but how it ended could not be learned")
            return
        }
        guard let truth, truth == end else {
            tally.misreported += 1
            tally.messages.append("MISREPORTED: host \(end), device \(truth.map { "\($0)" } ?? "no end")")
            return
        }
        if case .finished = end {
            tally.finished += 1
            tally.overheadSeconds.append(HapticDevice.hostTime() - began - duration)
            for (index, name) in Tally.phases.enumerated() {
                tally.phaseSeconds[name, default: []].append(marks[index + 1] - marks[index])
            }
        } else {
            tally.endedOtherwise += 1
            tally.messages.append("the play did not finish: \(end)")
        }
    }

    /// A failure before the play was acknowledged is true if the device started nothing meanwhile.
    private func judgeFailure(_ message: String, before: Int, into tally: inout Tally) {
        if deviceEvents(from: before).contains(where: { if case .started = $0 { true } else { false } }) {
            tally.misreported += 1
            tally.messages.append("MISREPORTED: host said '\(message)', the device played")
        } else {
            tally.failed += 1
            tally.messages.append(message)
        }
    }

    /// The device's telemetry since byte `offset` of what it sent.
    private func deviceEvents(from offset: Int) -> [DeviceEvent] {
        var decoder = FrameDecoder()
        let bytes = proxy.deviceBytes
        return decoder.push(Array(bytes[min(offset, bytes.count)...])).compactMap { result in
            guard case .success(let frame) = result, case .telemetry(let telemetry)? = try? Message(frame: frame) else { return nil }
            return DeviceEvent(telemetry: telemetry)
        }
    }

    /// The end event the device sent for the play that started at the receipt's tick.
    private func deviceEnd(of receipt: PlayReceipt, from offset: Int) -> DeviceEvent? {
        let events = deviceEvents(from: offset)
        guard
            let start = events.firstIndex(where: {
                if case .started(let slot, let tick, _) = $0 { return slot == receipt.slot && tick == receipt.startTick }
                return false
            })
        else { return nil }
        return events[start...].first { $0.endsPlay && $0.playEvent?.slot == receipt.slot }
    }
}
