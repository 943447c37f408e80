import HapticPattern

#if Emulator
    import AVREmulator

    extension ProfiledMCU {
        /// What `haptic profile --mcu` reports: `--json` encodes it (schema haptic-profile-mcu/1,
        /// docs/cli.md), the text is printed from it. Loads are per tick of `cyclesPerTick` cycles.
        struct Report: Encodable {
            let schema = "haptic-profile-mcu/1"
            var mcu: String
            /// The ELF measured.
            var firmware: String
            var frequencyHz, baud, cyclesPerTick, playFrameBytes: Int
            var playLatency: PlayLatency
            /// While playing the busy looped program.
            var interpreter, tickInterrupt, notices: Load
            /// At line rate (uploads back to back while playing).
            var uartRxInterrupt, uartRxPolled, uartTxInterrupt, protocolHandler: Load
            var interpreterPlusUartWorstCycles: Int
            var interpreterPlusUartWorstPercent, uartRxCyclesPerByte, uartRxFullLinePercent: Double
            var lateTicks, slotCount, slotCapacityBytes, maxBodyBytes, streamCapacityBytes: Int
            /// The worst valid programs (PROTOCOL.md 1.15, `WorstCasePrograms`) with uploads at line
            /// rate: interpreter + UART in their worst tick, and the slowest step against its lead.
            var worstCaseTickCycles, worstCasePrograms, worstCaseSlowestStepCycles, worstCaseLateTicks, stepLeadCycles: Int
            var worstCaseTickPercent: Double
            /// The program that set the worst tick.
            var worstCaseProgram: String
            /// The least free RAM the stack left on its worst paths, bytes (`StackWorstPaths`: painted in
            /// simavr); null if not measured.
            @Nullable var stackFreeMin: Int? = nil
            /// Felt onset of the presets on the board (`BoardFeltOnset`); null if not measured.
            @Nullable var feltOnset: BoardFeltOnset? = nil

            /// The last byte of a PLAY frame to the first output change.
            struct PlayLatency: Encodable {
                /// Output stage warm: the worst and best over the phases of the tick at which the frame ends.
                var warmCycles: Int
                var warmUs: Double
                var warmMinCycles: Int
                var warmPhases: [Phase]
                /// Output stage cold (wake ticks included).
                var coldCycles: Int
                var coldUs: Double
                /// One tick plus the frame's transfer time.
                var boundCycles: Int
                var boundUs: Double
                var meetsBound: Bool
            }

            struct Phase: Encodable {
                var endCycleInTick, cycles: Int
            }

            struct Load: Encodable {
                var meanCycles, meanPercent: Double
                var worstCycles: Int
                var worstPercent: Double
            }
        }
    }

    extension ProfiledMCU.Report {
        init(_ r: BoardBudgetReport, firmware: String) {
            func microseconds(_ cycles: Int) -> Double { Double(cycles) * 1e6 / Double(r.frequency) }
            func load(_ p: CycleProfile, _ c: CycleProfile.Category) -> Load {
                Load(
                    meanCycles: p.meanCyclesPerTick(c), meanPercent: p.meanLoadPercent(c),
                    worstCycles: p[c].maxCyclesPerTick, worstPercent: p.worstLoadPercent(c))
            }
            mcu = r.mcu
            self.firmware = firmware
            frequencyHz = Int(r.frequency)
            baud = r.baud
            cyclesPerTick = r.cyclesPerTick
            playFrameBytes = r.playFrameBytes
            playLatency = PlayLatency(
                warmCycles: r.playLatencyWarmCycles, warmUs: microseconds(r.playLatencyWarmCycles),
                warmMinCycles: r.playLatencyWarmMinCycles,
                warmPhases: r.playLatencyWarm.points.map { Phase(endCycleInTick: $0.phase, cycles: $0.cycles) },
                coldCycles: r.playLatencyColdCycles, coldUs: microseconds(r.playLatencyColdCycles),
                boundCycles: r.playLatencyBoundCycles, boundUs: microseconds(r.playLatencyBoundCycles),
                meetsBound: r.meetsLatencyBound)
            interpreter = load(r.playing, .interpreterTick)
            tickInterrupt = load(r.playing, .tickInterrupt)
            notices = load(r.playing, .notices)
            uartRxInterrupt = load(r.lineRate, .uartReceiveInterrupt)
            uartRxPolled = load(r.lineRate, .uartPolledReceive)
            uartTxInterrupt = load(r.lineRate, .uartTransmitInterrupt)
            protocolHandler = load(r.lineRate, .protocolHandler)
            interpreterPlusUartWorstCycles = r.tickBudgetWorstCycles
            interpreterPlusUartWorstPercent = r.tickBudgetWorstPercent
            uartRxCyclesPerByte = r.uartReceiveCyclesPerByte
            uartRxFullLinePercent = r.uartReceiveFullLinePercent
            lateTicks = r.lateTicks
            slotCount = r.slotCount
            slotCapacityBytes = r.slotCapacity
            maxBodyBytes = r.maxBody
            streamCapacityBytes = r.streamCapacity
            worstCaseTickCycles = r.worstCase.worstTickCycles
            worstCaseTickPercent = r.worstCase.worstTickPercent
            worstCaseProgram = r.worstCase.worst?.name ?? ""
            worstCasePrograms = r.worstCase.runs.count
            worstCaseSlowestStepCycles = r.worstCase.slowestStepCycles
            worstCaseLateTicks = r.worstCase.lateTicks
            stepLeadCycles = r.worstCase.stepLead
        }
    }
#endif
