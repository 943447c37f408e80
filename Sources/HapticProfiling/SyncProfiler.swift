import Foundation
import HapticBridge
import HapticPattern
import HapticSession

/// Measures how far apart the boards of a group start and end (`haptic profile --sync`,
/// docs/performance.md "Start skew across boards").
///
/// After a warm-up of pipelined PINGs to every board (so that each estimate has a rate), it plays
/// a short pattern on every board `plays` times, felt-aligned (`HapticDeviceGroup.play`), then one
/// long play while the clocks are tracked. Each start and end tick the boards acknowledge or report
/// is placed on the host clock through an estimate taken after it (its samples surround the tick),
/// whose bound is reported beside the skew.
public struct SyncProfiler: Sendable {
    public struct Options: Sendable {
        public var plays: Int
        /// Seconds of the long play (0: none).
        public var longPlay: Double
        /// Seconds of PINGs before the first play.
        public var warmUp: Double
        /// Seconds from the call to the target of each play.
        public var lead: Double
        /// Stretch each board's pattern by its rate (`HapticDeviceGroup.play(compensatingRates:)`).
        public var compensatingRates: Bool

        public init(plays: Int = 20, longPlay: Double = 30, warmUp: Double = 3, lead: Double = 0.15, compensatingRates: Bool = true) {
            self.plays = plays
            self.longPlay = longPlay
            self.warmUp = warmUp
            self.lead = lead
            self.compensatingRates = compensatingRates
        }
    }

    public let group: HapticDeviceGroup
    public let options: Options

    public init(group: HapticDeviceGroup, options: Options = Options()) {
        self.group = group
        self.options = options
    }

    /// The short pattern: a click and a 100 ms buzz.
    static let shortPattern = HapticPattern(events: [.transient(at: 0, intensity: 1), .continuous(at: 0.03, duration: 0.1, intensity: 0.6)])
    /// Four clicks a second for `seconds`, the long play (the gaps keep it under the safety limiter).
    static func clicks(seconds: Double) -> HapticPattern {
        HapticPattern(events: (0..<Int(seconds * 4)).map { .transient(at: Double($0) * 0.25, intensity: 0.8) })
    }

    /// One play's figures, seconds.
    struct Measured {
        var start: Double
        var feltStart: Double
        var end: Double
        var feltEnd: Double
        var bound: Double
        var quantisation: Double
        var estimateError: Double
        var onsetSpread: Double
        var late: Bool
    }

    public func run(progress: @Sendable () -> Void = {}) async throws -> SyncReport {
        let devices = group.devices
        try await group.synchronize(for: options.warmUp)
        var measured: [Measured] = []
        let short = devices.indices.map { HapticDeviceGroup.Entry(board: $0, pattern: Self.shortPattern) }
        for _ in 0..<options.plays {
            measured.append(try await playAndMeasure(short))
            progress()
        }
        var long: SyncReport.LongPlay?
        if options.longPlay > 0 {
            // One long pattern rather than loops of a short one: a stretched loop would round to
            // whole ticks once per iteration.
            let pattern = Self.clicks(seconds: options.longPlay)
            let entries = devices.indices.map { HapticDeviceGroup.Entry(board: $0, pattern: pattern) }
            await group.startTracking()
            let result = try await playAndMeasure(entries)
            await group.stopTracking()
            measured.append(result)
            long = SyncReport.LongPlay(
                seconds: pattern.duration, startSkewUs: result.start * 1e6, endSkewUs: result.end * 1e6, feltEndSkewUs: result.feltEnd * 1e6)
            progress()
        }
        return try await report(measured, long: long)
    }

    /// One group play, felt-aligned: waits for every board's end, then measures.
    private func playAndMeasure(_ entries: [HapticDeviceGroup.Entry]) async throws -> Measured {
        let play = try await group.play(entries, alignment: .felt, lead: options.lead, compensatingRates: options.compensatingRates)
        // The starts through estimates taken just after them (their rate's bound adds little).
        let wait = play.target + 0.05 - HapticDevice.hostTime()
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        let starts = play.starts(through: try await group.synchronizeClocks())
        var ends: [UInt32] = []
        for (member, device) in zip(play.members, group.devices) {
            guard let receipt = member.receipt else { throw SessionError.timedOut("the group play's receipt") }
            let event = try await device.waitForEnd(of: receipt)
            ends.append(event.playEvent?.tick ?? receipt.startTick &+ receipt.totalTicks)
        }
        let estimates = try await group.synchronizeClocks()
        let onsets = play.members.map { $0.onset50 ?? 0 }, releases = play.members.map { $0.release50 ?? 0 }
        let endTimes = zip(estimates, ends).map { $0.hostTime(ofStep: $1) }
        let scheduled = play.members.map { $0.scheduledWith.hostTime(ofStep: $0.receipt?.startTick ?? $0.requestedTick) }
        let wanted = onsets.map { play.target - $0 }
        let bounds = starts.map(\.bound).sorted(by: >)
        return Measured(
            start: spread(starts.map(\.time)), feltStart: spread(zip(starts, onsets).map { $0.time + $1 }),
            end: spread(endTimes), feltEnd: spread(zip(endTimes, releases).map { $0 + $1 }),
            bound: bounds.prefix(2).reduce(0, +),
            quantisation: spread(zip(scheduled, wanted).map { $0 - $1 }),
            estimateError: spread(zip(starts, scheduled).map { $0.time - $1 }),
            onsetSpread: spread(onsets), late: play.members.contains { $0.startedLate })
    }

    private func spread(_ values: [Double]) -> Double {
        (values.max() ?? 0) - (values.min() ?? 0)
    }

    private func report(_ measured: [Measured], long: SyncReport.LongPlay?) async throws -> SyncReport {
        let estimates = try await group.synchronizeClocks()
        var boards: [SyncReport.Board] = []
        for (device, estimate) in zip(group.devices, estimates) {
            let prepared = try await device.prepare(Self.shortPattern)
            boards.append(
                SyncReport.Board(
                    port: device.name, actuatorProfile: await device.profile?.name ?? "unknown", ratePpm: estimate.ratePPM,
                    ratePpmBound: estimate.ratePPMBound, offsetBoundUs: estimate.uncertainty * 1e6,
                    feltOnsetMs: try await device.feltPrediction(of: prepared).map { $0.onset50 * 1000 }))
        }
        var notes = [
            "start and end ticks are placed on the host clock through estimates taken after them; the measurement is within breakdown.estimate_bound of the truth",
            options.compensatingRates
                ? "each board's pattern was stretched by its estimated rate (protocol 2.0 has no tick trim): the end skew grows by the rates' bounds times the play's length, plus a tick"
                : "no rate compensation: boards run at their own rates, so a play's end skew grows by the rate difference times its length (10,000 ppm between two boards is 10 ms a second)",
        ]
        if measured.contains(where: \.late) {
            notes.append("some plays started late on a board (the PLAY arrived after its start tick): raise the lead")
        }
        return SyncReport(
            boards: boards, plays: measured.count, alignment: "felt", rateCompensation: options.compensatingRates,
            startSkew: .init(electrical: measured.map(\.start), felt: measured.map(\.feltStart)),
            endSkew: .init(electrical: measured.map(\.end), felt: measured.map(\.feltEnd)),
            breakdown: .init(
                estimateBound: .init(seconds: measured.map(\.bound)), tickQuantisation: .init(seconds: measured.map(\.quantisation)),
                estimateError: .init(seconds: measured.map(\.estimateError)), actuatorOnset: .init(seconds: measured.map(\.onsetSpread))),
            longPlay: long, lateStarts: measured.filter(\.late).count, notes: notes)
    }
}
