#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticCompiler
    import HapticPattern
    import HapticProtocol
    import SerialBridge

    extension ProfiledMCU {
        /// Felt onset on the simulated board (docs/performance.md, "Felt onset"): each preset that
        /// fits a slot uploaded, prepared and played on one board; the output of each tick is the
        /// model replay of the bytes the board received (`ModelReplay`, as `BoardTrace` writes it),
        /// run through the physics of the profile the board reports. Felt onset = the PLAY frame's line
        /// time + the board's worst warm latency (last byte to first output, `warm_us`) + the rise.
        static func feltOnset(firmware path: String, warmCycles: Int) throws -> Report.FeltOnset? {
            var link = try BoardBudget.boot(firmware: path)
            let hello = try link.send(.hello(.init()))
            guard case .info(let info)? = try link.response(to: hello.sequence)?.message else { return nil }
            let board = link.board
            let profile = HapticDevice.profile(for: info)
            let rate = Double(info.rate)
            let model = profile.physicsModel(tickRate: rate)
            var options = CompileOptions()
            options.tickRate = info.rate
            let window = Int(FeltRise.peakWindow * rate) + 1
            var plays: [(String, UInt32, Int)] = []
            for preset in Preset.all {
                guard let program = try? PatternCompiler.compile(preset.pattern, profile: profile, options: options).program,
                    program.bytes.count <= Int(info.slotCapacity), program.body.count <= Int(info.maxBody),
                    let lead = FeltPrediction.of(program: program, model: model)?.leadInTicks
                else { continue }
                try BoardBudget.upload(program.bytes, slot: 0, link: &link)
                let prepare = try link.send(.prepare(.init()))
                guard try link.response(to: prepare.sequence)?.ackValue != nil else { continue }
                try board.run(ticks: Int(info.wakeTicks) + 5)
                let play = try link.send(.play(.init(slot: 0)))
                guard let start = try link.response(to: play.sequence)?.ackValue else { continue }
                try board.run(ticks: lead + window + 5)
                let stop = try link.send(.stop(.init(brake: false)))
                _ = try link.response(to: stop.sequence)
                try board.run(ticks: Int(info.brakeTicks) + 5)
                plays.append((preset.name, start, lead))
            }
            guard let timerStart = board.events().first(where: { $0.kind == .tickTimerStart })?.cycle,
                let (configuration, _) = BoardTrace.configuration(fromOutput: link.allBytes)
            else { return nil }
            let replay = ModelReplay(board: board, timerStart: timerStart, configuration: configuration)
            let frameBytes = try Message.play(.init(slot: 0)).encoded(sequence: 0).count
            let fixed = Double(frameBytes * Int(board.uartCyclesPerByte) + warmCycles) / Double(board.frequency)
            var felt50: [Double] = [], felt90: [Double] = [], rise50: [Double] = [], rise90: [Double] = []
            for (_, start, lead) in plays {
                let first = Int(start) + lead
                guard first + window <= replay.samples.count,
                    let rise = FeltRise.of(drive: Array(replay.samples[first..<(first + window)]), model: model)
                else { continue }
                rise50.append(rise.rise50)
                rise90.append(rise.rise90)
                felt50.append(fixed + rise.rise50)
                felt90.append(fixed + rise.rise90)
            }
            guard !felt50.isEmpty else { return nil }
            func summary(_ values: [Double]) -> Report.FeltSummary {
                let sorted = values.sorted()
                func at(_ p: Double) -> Double { sorted[min(sorted.count, max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))) - 1] * 1000 }
                return Report.FeltSummary(count: sorted.count, p50Ms: at(50), p90Ms: at(90), p99Ms: at(99))
            }
            return Report.FeltOnset(
                actuatorProfile: profile.name, patterns: "presets that fit a slot", firstOutputMs: fixed * 1000,
                felt50: summary(felt50), felt90: summary(felt90), rise50: summary(rise50), rise90: summary(rise90))
        }

        static func feltText(_ felt: Report.FeltOnset?) -> String {
            guard let felt else { return "felt onset: not measured (no INFO or no preset played)\n" }
            return String(
                format:
                    "felt onset on %@ (%d %@, model replay of the board's input; line + worst warm latency %.3f ms + rise): 50 %% p50 %.3f p99 %.3f ms, 90 %% p50 %.3f p99 %.3f ms\n",
                felt.actuatorProfile, felt.felt50.count, felt.patterns, felt.firstOutputMs,
                felt.felt50.p50Ms, felt.felt50.p99Ms, felt.felt90.p50Ms, felt.felt90.p99Ms)
        }
    }

    extension ProfiledMCU.Report {
        /// `felt_onset` (docs/cli.md): null when it could not be measured.
        struct FeltOnset: Encodable {
            var actuatorProfile, patterns: String
            /// The PLAY frame's line time plus the worst warm latency: first output, the same for every play.
            var firstOutputMs: Double
            var felt50, felt90, rise50, rise90: FeltSummary
        }

        struct FeltSummary: Encodable {
            var count: Int
            var p50Ms, p90Ms, p99Ms: Double
        }
    }
#endif
