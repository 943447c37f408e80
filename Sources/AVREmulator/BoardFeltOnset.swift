import FirmwareModel
import HapticBridge
import HapticCompiler
import HapticPattern
import HapticProtocol

/// Felt onset on the simulated board (docs/performance.md, "Felt onset"; `haptic profile --mcu`):
/// each preset that fits a slot uploaded, prepared and played on one board; the output of each
/// tick is the model replay of the bytes the board received (`ModelReplay`, as `BoardTrace`
/// writes it), run through the physics of the profile the board reports. Felt onset = the PLAY
/// frame's line time + the board's worst warm latency (last byte to first output, `warm_us`) +
/// the rise.
public struct BoardFeltOnset: Encodable, Sendable {
    /// Milliseconds over the plays, percentiles as docs/performance.md defines them (`Percentile`).
    public struct Summary: Encodable, Sendable {
        public var count: Int
        public var p50Ms, p90Ms, p99Ms: Double

        init(seconds values: [Double]) {
            let sorted = values.sorted()
            count = sorted.count
            p50Ms = Percentile.nearestRank(50, ofSorted: sorted) * 1000
            p90Ms = Percentile.nearestRank(90, ofSorted: sorted) * 1000
            p99Ms = Percentile.nearestRank(99, ofSorted: sorted) * 1000
        }
    }

    public var actuatorProfile, patterns: String
    /// The PLAY frame's line time plus the worst warm latency: first output, the same for every play.
    public var firstOutputMs: Double
    public var felt50, felt90, rise50, rise90: Summary
    /// Felt lag and its floor over the same plays (docs/performance.md, "Felt lag and its
    /// floor"): the first output as above; the floor's transport the PLAY frame's line time.
    public var feltLag, feltFloor: FeltLagSummary

    /// Measures on a board running `firmware`, whose worst warm latency is `warmCycles`; nil
    /// when the board sent no INFO or no preset played.
    public static func measure(firmware path: String, warmCycles: Int) throws -> BoardFeltOnset? {
        var link = try BoardBudget.boot(firmware: path)
        let hello = try link.send(.hello(.init()))
        guard case .info(let info)? = try link.response(to: hello.sequence)?.message else { return nil }
        let board = link.board
        let profile = ActuatorProfile.reported(by: info)
        let rate = Double(info.rate)
        let model = profile.physicsModel(tickRate: rate)
        var options = CompileOptions()
        options.tickRate = info.rate
        let window = Int(FeltRise.peakWindow * rate) + 1
        var plays: [(String, UInt32, Int, FeltTarget?)] = []
        for preset in Preset.all {
            guard let program = try? PatternCompiler.compile(preset.pattern, profile: profile, options: options).program,
                program.bytes.count <= Int(info.slotCapacity), program.body.count <= Int(info.maxBody),
                let lead = FeltPrediction.of(program: program, model: model)?.leadInTicks
            else { continue }
            try BoardBudget.upload(program.bytes, slot: 0, link: &link)
            guard try BoardBudget.prepareAndWarm(link: &link, wakeTicks: Int(info.wakeTicks)) else { continue }
            let play = try link.send(.play(.init(slot: 0)))
            guard let start = try link.response(to: play.sequence)?.ackValue else { continue }
            try board.run(ticks: lead + window + 5)
            let stop = try link.send(.stop(.init(brake: false)))
            _ = try link.response(to: stop.sequence)
            try board.run(ticks: Int(info.brakeTicks) + 5)
            plays.append((preset.name, start, lead, FeltTarget.of(pattern: preset.pattern, profile: profile, rate: rate)))
        }
        guard let timerStart = board.events().first(where: { $0.kind == .tickTimerStart })?.cycle,
            let (configuration, _) = BoardTrace.configuration(fromOutput: link.allBytes)
        else { return nil }
        let replay = ModelReplay(board: board, timerStart: timerStart, configuration: configuration)
        let frameBytes = try Message.play(.init(slot: 0)).encoded(sequence: 0).count
        let line = Double(frameBytes * Int(board.uartCyclesPerByte)) / Double(board.frequency)
        let fixed = line + Double(warmCycles) / Double(board.frequency)
        var felt50: [Double] = [], felt90: [Double] = [], rise50: [Double] = [], rise90: [Double] = []
        var lags: [Double] = [], floors: [Double] = []
        for (_, start, lead, target) in plays {
            let first = Int(start) + lead
            guard first + window <= replay.samples.count else { continue }
            let drive = Array(replay.samples[first..<(first + window)])
            if let target {
                // A drive that never gets to half the level in the window counts as the window.
                let toLevel = target.rise(of: drive, model: model) ?? Double(window) / rate
                lags.append(target.lag(firstOutput: fixed + Double(lead) / rate, rise: toLevel))
                floors.append(target.floor(transport: line))
            }
            guard let rise = FeltRise.of(drive: drive, model: model) else { continue }
            rise50.append(rise.rise50)
            rise90.append(rise.rise90)
            felt50.append(fixed + rise.rise50)
            felt90.append(fixed + rise.rise90)
        }
        guard !felt50.isEmpty else { return nil }
        return BoardFeltOnset(
            actuatorProfile: profile.name, patterns: "presets that fit a slot", firstOutputMs: fixed * 1000,
            felt50: Summary(seconds: felt50), felt90: Summary(seconds: felt90), rise50: Summary(seconds: rise50),
            rise90: Summary(seconds: rise90), feltLag: FeltLagSummary(seconds: lags), feltFloor: FeltLagSummary(seconds: floors))
    }
}
