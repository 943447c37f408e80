import FirmwareModel
import Foundation
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticSession
import HapticTransport

/// Several boards played as one: each keeps its own clock estimate (offset and rate with bounds,
/// `ClockFit`), and a group play starts one program per board so that every board's start, or
/// every board's felt onset through its actuator profile (`FeltPrediction`), lands at the same host
/// time: PLAY with AT (PROTOCOL.md 2.8) at the device tick each board's estimate gives
/// (docs/clocks.md).
///
///     let group = try await HapticDeviceGroup.open(paths: ["/dev/ttyUSB0", "/dev/ttyUSB1"])
///     try await group.synchronize(for: 2)
///     let play = try await group.play([.init(board: 0, pattern: left), .init(board: 1, pattern: right)])
///
/// Without a trim (protocol 3) each board's ticks run at its own rate, so boards that start
/// together drift apart by their rate difference over a play: 5,000 ppm is 5 ms a second.
public actor HapticDeviceGroup {
    public nonisolated let devices: [HapticDevice]
    private var tracker: Task<Void, Never>?

    /// One board's part of a group play.
    public struct Entry: Sendable {
        public enum Content: Sendable {
            case pattern(HapticPattern)
            case program(Program)
        }
        /// Index into `devices`.
        public var board: Int
        public var content: Content
        /// The actuator the felt onset is predicted on (nil: the board's own profile).
        public var profile: ActuatorProfile?
        public var intensity: Double

        public init(board: Int, pattern: HapticPattern, profile: ActuatorProfile? = nil, intensity: Double = 1) {
            self.init(board: board, content: .pattern(pattern), profile: profile, intensity: intensity)
        }

        public init(board: Int, program: Program, profile: ActuatorProfile? = nil, intensity: Double = 1) {
            self.init(board: board, content: .program(program), profile: profile, intensity: intensity)
        }

        public init(board: Int, content: Content, profile: ActuatorProfile? = nil, intensity: Double = 1) {
            self.board = board
            self.content = content
            self.profile = profile
            self.intensity = intensity
        }
    }

    /// What lands at the target host time.
    public enum Alignment: Sendable, Hashable {
        /// Every board's first tick (the program's tick 0).
        case start
        /// Every board's felt onset (50 % of the first peak on its actuator).
        case felt
    }

    public init(devices: [HapticDevice]) {
        self.devices = devices
    }

    /// Opens every port (`HapticDevice.open`); on a failure the ones opened are closed.
    public static func open(
        paths: [String], baudRate: Int = SerialConfiguration.referenceBaudRate, options: HapticDevice.Options = .init()
    ) async throws -> HapticDeviceGroup {
        var devices: [HapticDevice] = []
        do {
            for path in paths { devices.append(try await HapticDevice.open(path: path, baudRate: baudRate, options: options)) }
        } catch {
            for device in devices { await device.close() }
            throw error
        }
        return HapticDeviceGroup(devices: devices)
    }

    public func close() async {
        stopTracking()
        for device in devices { await device.close() }
    }

    /// A fresh estimate of every board's clock (`samples` more PINGs each, all boards at once).
    @discardableResult
    public func synchronizeClocks(samples: Int = 4) async throws -> [ClockEstimate] {
        try await withThrowingTaskGroup(of: (Int, ClockEstimate).self) { tasks in
            for (index, device) in devices.enumerated() {
                tasks.addTask { (index, try await Self.synchronize(device, samples: samples)) }
            }
            var estimates = [ClockEstimate?](repeating: nil, count: devices.count)
            for try await (index, estimate) in tasks { estimates[index] = estimate }
            return estimates.compactMap { $0 }
        }
    }

    /// One board's estimate; a round of PINGs that all timed out (a loaded host, a noisy line) is
    /// tried again 0.1 s later, four times, before it counts.
    private static func synchronize(_ device: HapticDevice, samples: Int) async throws -> ClockEstimate {
        var attempt = 0
        while true {
            do {
                return try await device.synchronizeClock(samples: samples)
            } catch let error as SessionError where !error.isFatal && attempt < 4 {
                attempt += 1
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
    }

    /// Pings every board every `interval` seconds for `seconds`: enough spread for the estimates'
    /// rates (a few seconds give a few hundred ppm at a millisecond round trip; the bound shrinks
    /// as 1 / seconds, up to the window, `HapticDevice.clockWindow`).
    @discardableResult
    public func synchronize(for seconds: Double, interval: Double = 0.05) async throws -> [ClockEstimate] {
        let end = HapticDevice.hostTime() + seconds
        try await synchronizeClocks()
        while HapticDevice.hostTime() < end {
            try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
            // A round that fails midway costs its samples only; the last round must succeed.
            _ = try? await synchronizeClocks(samples: 2)
        }
        return try await synchronizeClocks(samples: 2)
    }

    /// Keeps pinging every board every `interval` seconds in the background (during long plays)
    /// until `stopTracking`; failures are left to the next foreground call to report.
    public func startTracking(interval: Double = 0.1) {
        stopTracking()
        let devices = devices
        tracker = Task {
            while !Task.isCancelled {
                for device in devices { _ = try? await device.synchronizeClock(samples: 2) }
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
            }
        }
    }

    public func stopTracking() {
        tracker?.cancel()
        tracker = nil
    }

    /// Prepares every entry's program on its board (upload, wake the output stage), on every board
    /// at once: a group play chooses its target before, so four boards one after another could
    /// miss it.
    public func prepare(_ entries: [Entry]) async throws -> [PreparedPattern] {
        try check(entries)
        return try await withThrowingTaskGroup(of: (Int, PreparedPattern).self) { tasks in
            for (index, entry) in entries.enumerated() {
                let device = devices[entry.board]
                tasks.addTask {
                    switch entry.content {
                    case .pattern(let pattern): (index, try await device.prepare(pattern))
                    case .program(let program): (index, try await device.prepare(program: program))
                    }
                }
            }
            var prepared = [PreparedPattern?](repeating: nil, count: entries.count)
            for try await (index, item) in tasks { prepared[index] = item }
            return prepared.compactMap { $0 }
        }
    }

    /// Plays every entry so that what `alignment` names lands at host time `at` on every board
    /// (nil: `lead` seconds after the call, enough for the PLAY frames and the felt onsets). The
    /// entries' programs are prepared first if they are not; one entry per board, each played
    /// `loops` times (0: until stopped).
    ///
    /// With `compensatingRates`, a pattern entry is played stretched (`HapticPattern.stretched(by:)`)
    /// so that it ends where it would on an exact clock: by its board's measured rate (a board whose
    /// ticks run 5,000 ppm fast plays it 0.5 % longer in ticks), and by the rounding of its start to
    /// a whole tick. Protocol 2.0 has no trim: this is how boards stay together through a long
    /// play (docs/clocks.md, "Staying together"). Programs play as they are, and so do boards whose
    /// rate is not measured yet (`synchronize(for:)` first).
    public func play(
        _ entries: [Entry], at: Double? = nil, alignment: Alignment = .felt, lead: Double = 0.1, loops: UInt16 = 1,
        compensatingRates: Bool = true
    ) async throws -> GroupPlay {
        try check(entries)
        var plans: [GroupPlay.Member] = []
        var programs: [Program] = []
        for entry in entries {
            let device = devices[entry.board]
            let estimate = try await Self.synchronize(device, samples: 2)
            let program = try await program(of: entry, on: device)
            programs.append(program)
            let (prediction, release) = try await felt(program, entry: entry, on: device)
            plans.append(
                GroupPlay.Member(
                    board: entry.board, onset50: prediction?.onset50(deviceRate: estimate.rate), release50: release?.release50,
                    scheduledWith: estimate))
        }
        let maxOnset = plans.compactMap(\.onset50).max() ?? 0
        // Felt alignment ends together too: each board's program ends its onset minus its release
        // later than the group's mean (an ERM that is felt later and longer ends earlier).
        let tails = plans.map { ($0.onset50 ?? 0) - ($0.release50 ?? 0) }
        let meanTail = tails.isEmpty ? 0 : tails.reduce(0, +) / Double(tails.count)
        var target = 0.0
        var played = entries
        var prepared: [PreparedPattern] = []
        // Uploading the stretched patterns takes time: when it used up the lead (a loaded host,
        // a long pattern), plan once more from now, with twice the time it took as the lead,
        // rather than send PLAYs for ticks gone by.
        var lead = lead
        for attempt in 0..<2 {
            let planned = HapticDevice.hostTime()
            target = at ?? planned + lead + (alignment == .felt ? maxOnset : 0)
            played = entries
            for index in plans.indices {
                // The tick whose start (or felt onset) is nearest the target: within half a tick.
                let estimate = plans[index].scheduledWith
                let ideal = target - (alignment == .felt ? plans[index].onset50 ?? 0 : 0)
                plans[index].requestedTick = estimate.step(atOrAfter: ideal - 0.5 / estimate.rate)
                guard compensatingRates, case .pattern(let pattern) = entries[index].content, estimate.ratePPMBound < ClockFit.priorPPM
                else { continue }
                // The ticks from the start tick to where the program ends on an exact clock.
                let ticks = Double(programs[index].header.totalTicks)
                let tail = alignment == .felt ? tails[index] - meanTail : 0
                let end = ideal + ticks / estimate.nominalRate + tail
                let wanted = (end - estimate.hostTime(ofStep: plans[index].requestedTick)) * estimate.rate
                let rate = estimate.rate / estimate.nominalRate, limit = ClockFit.priorPPM / 1_000_000
                let factor = ticks > 0 ? min(rate + limit, max(rate - limit, wanted / ticks)) : rate
                played[index].content = .pattern(pattern.stretched(by: factor))
            }
            prepared = try await prepare(played)
            let firstStart = plans.map { $0.scheduledWith.hostTime(ofStep: $0.requestedTick) }.min() ?? target
            let now = HapticDevice.hostTime()
            if at != nil || attempt == 1 || firstStart - now >= lead / 4 { break }
            lead = max(lead, 2 * (now - planned))
        }
        let receipts = try await withThrowingTaskGroup(of: (Int, PlayReceipt).self) { tasks in
            for (index, entry) in entries.enumerated() {
                let device = devices[entry.board], tick = plans[index].requestedTick, item = prepared[index]
                tasks.addTask { (index, try await device.play(item, at: .deviceTick(tick), intensity: entry.intensity, loops: loops)) }
            }
            var receipts = [PlayReceipt?](repeating: nil, count: entries.count)
            for try await (index, receipt) in tasks { receipts[index] = receipt }
            return receipts.compactMap { $0 }
        }
        for index in plans.indices { plans[index].receipt = receipts[index] }
        return GroupPlay(target: target, alignment: alignment, members: plans)
    }

    /// The entry's program as given (compiled for its board, not uploaded).
    private func program(of entry: Entry, on device: HapticDevice) async throws -> Program {
        switch entry.content {
        case .pattern(let pattern): return try await device.compile(pattern).program
        case .program(let program): return program
        }
    }

    /// When `program` is felt once it starts and when it stops being felt after its end, on the
    /// entry's actuator (nil: the board's own).
    private func felt(_ program: Program, entry: Entry, on device: HapticDevice) async throws -> (FeltPrediction?, FeltRelease?) {
        let own = await device.profile
        guard let profile = entry.profile ?? own, let info = await device.info else { throw SessionError.notConnected }
        let model = profile.physicsModel(tickRate: Double(program.header.rate))
        return (FeltPrediction.of(program: program, model: model), FeltRelease.of(program: program, brakeTicks: info.brakeTicks, model: model))
    }

    /// Entries a group cannot play.
    public struct EntryError: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    private func check(_ entries: [Entry]) throws {
        var seen = Set<Int>()
        for entry in entries {
            guard devices.indices.contains(entry.board) else {
                throw EntryError(reason: "board \(entry.board): the group has boards 0...\(devices.count - 1)")
            }
            guard seen.insert(entry.board).inserted else {
                throw EntryError(reason: "board \(entry.board) has two entries: a protocol 2.0 board plays one program at a time")
            }
        }
    }
}
