import HapticBridge
import HapticPattern

/// The board's budget as `haptic profile --mcu` reports it: `--json` encodes it (schema haptic-profile-mcu/1,
/// docs/cli.md), the text is printed from it. Loads are per tick of `cyclesPerTick` cycles.
public struct BoardProfileReport: Encodable {
    public let schema = "haptic-profile-mcu/1"
    public var mcu: String
    /// The ELF measured.
    public var firmware: String
    public var frequencyHz, baud, cyclesPerTick, playFrameBytes: Int
    public var playLatency: PlayLatency
    /// While playing the busy looped program.
    public var interpreter, tickInterrupt, notices: Load
    /// At line rate (uploads back to back while playing).
    public var uartRxInterrupt, uartRxPolled, uartTxInterrupt, protocolHandler: Load
    public var interpreterPlusUartWorstCycles: Int
    public var interpreterPlusUartWorstPercent, uartRxCyclesPerByte, uartRxFullLinePercent: Double
    public var lateTicks, slotCount, slotCapacityBytes, maxBodyBytes, streamCapacityBytes: Int
    /// The worst valid programs (PROTOCOL.md 1.15, `WorstCasePrograms`) with uploads at line
    /// rate: interpreter + UART in their worst tick, and the slowest step against its lead.
    public var worstCaseTickCycles, worstCasePrograms, worstCaseSlowestStepCycles, worstCaseLateTicks, stepLeadCycles: Int
    public var worstCaseTickPercent: Double
    /// The program that set the worst tick.
    public var worstCaseProgram: String
    /// The least free RAM the stack left on its worst paths, bytes (`StackWorstPaths`: painted in
    /// simavr); null if not measured.
    @Nullable public var stackFreeMin: Int? = nil
    /// Felt onset of the presets on the board (`BoardFeltOnset`); null if not measured.
    @Nullable public var feltOnset: BoardFeltOnset? = nil
    /// The same plays' felt lag and its floor (`BoardFeltOnset.feltLag`, `feltFloor`); null if not measured.
    @Nullable public var feltLag: FeltLagSummary? = nil
    @Nullable public var feltFloor: FeltLagSummary? = nil

    /// The last byte of a PLAY frame to the first output change.
    public struct PlayLatency: Encodable {
        /// Output stage warm: the worst and best over the phases of the tick at which the frame ends.
        public var warmCycles: Int
        public var warmUs: Double
        public var warmMinCycles: Int
        public var warmPhases: [Phase]
        /// Output stage cold (wake ticks included).
        public var coldCycles: Int
        public var coldUs: Double
        /// One tick plus the frame's transfer time.
        public var boundCycles: Int
        public var boundUs: Double
        public var meetsBound: Bool
    }

    public struct Phase: Encodable {
        public var endCycleInTick, cycles: Int
    }

    public struct Load: Encodable {
        public var meanCycles, meanPercent: Double
        public var worstCycles: Int
        public var worstPercent: Double
    }
}

extension BoardProfileReport {
    public init(_ r: BoardBudgetReport, firmware: String) {
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
