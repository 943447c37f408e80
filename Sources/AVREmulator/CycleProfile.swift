/// Where the simulated CPU's cycles went over a measurement interval, per 1 kHz tick.
///
/// Method (no breakpoints, nothing that perturbs timing): interrupt handlers are timed from
/// the program counter, vector entry to RETI plus the AVR's 4-cycle interrupt response (which
/// simavr does not charge); main-loop regions from the firmware's GPIOR0 probe bits
/// (`hardware/firmware/boards/atmega328p/probe.h`), minus the handler cycles inside them.
/// Each cost is added to the 16,000-cycle tick window it ends in.
public struct CycleProfile: Sendable {
    public enum Category: CaseIterable, Sendable, Hashable {
        /// Device step and hand-off to the output stage (probe bit 0): what must finish within
        /// the step lead.
        case interpreterTick
        /// Protocol handler: draining the RX ring, framing, message handling (probe bit 1).
        case protocolHandler
        /// Output-stage work in the main loop: DRV2605L I2C writes (probe bit 2).
        case outputMainLoop
        /// The step's notices, encoded and sent after the hand-off (probe bit 3).
        case notices
        /// Polled receive in the main loop: masking the RX interrupt, reading a byte
        /// (probe bit 4).
        case uartPolledReceive
        /// Tick timer interrupt (Timer2 compare A): step trigger (8-update builds), boundary,
        /// PWM synthesis.
        case tickInterrupt
        /// Step trigger interrupt of the 1-update builds (Timer2 compare B).
        case stepTriggerInterrupt
        /// UART receive interrupt.
        case uartReceiveInterrupt
        /// UART data-register-empty interrupt (transmit).
        case uartTransmitInterrupt

        var index: Int32 {
            switch self {
            case .interpreterTick: return 0
            case .protocolHandler: return 1
            case .outputMainLoop: return 2
            case .notices: return 3
            case .uartPolledReceive: return 4
            case .tickInterrupt: return 8 + 7
            case .stepTriggerInterrupt: return 8 + 8
            case .uartReceiveInterrupt: return 8 + 18
            case .uartTransmitInterrupt: return 8 + 19
            }
        }
    }

    public struct Entry: Sendable, Hashable {
        public var totalCycles: UInt64
        public var calls: UInt64
        /// The most cycles spent in one tick window.
        public var maxCyclesPerTick: Int
        /// The longest single region or handler invocation.
        public var maxCyclesPerCall: Int
    }

    /// The costs the issue's 10 % tick budget covers: the interpreter tick and all UART handling
    /// (both interrupts and the polled receive).
    public static let tickBudget: [Category] = [
        .interpreterTick, .uartPolledReceive, .uartReceiveInterrupt,
        .uartTransmitInterrupt,
    ]

    /// Whole tick windows in the interval.
    public var ticks: Int
    public var cyclesPerTick: Int
    public var entries: [Category: Entry]
    /// The worst tick window of the `tickBudget` costs together.
    public var tickBudgetWorstCycles: Int = 0

    public subscript(category: Category) -> Entry { entries[category]! }

    /// Mean cycles per tick window.
    public func meanCyclesPerTick(_ category: Category) -> Double {
        ticks == 0 ? 0 : Double(self[category].totalCycles) / Double(ticks)
    }

    /// Worst tick as a percentage of the tick's cycles.
    public func worstLoadPercent(_ category: Category) -> Double {
        100 * Double(self[category].maxCyclesPerTick) / Double(cyclesPerTick)
    }

    public func meanLoadPercent(_ category: Category) -> Double {
        100 * meanCyclesPerTick(category) / Double(cyclesPerTick)
    }

    /// The worst tick of `tickBudget`, as a percentage of the tick's cycles.
    public var tickBudgetWorstPercent: Double { 100 * Double(tickBudgetWorstCycles) / Double(cyclesPerTick) }

    /// One line per category: mean and worst cycles per tick and their share of the tick; then
    /// the worst tick of the budgeted costs together.
    public var report: String {
        let budget =
            "interpreter + UART (one tick window): worst \(tickBudgetWorstCycles) cycles/tick "
            + "(\(percent(tickBudgetWorstPercent)))"
        return
            (Category.allCases.map { c in
                let e = self[c]
                let mean = meanCyclesPerTick(c)
                return "\(c): mean \(Int(mean.rounded())) cycles/tick (\(percent(meanLoadPercent(c)))), "
                    + "worst \(e.maxCyclesPerTick) cycles/tick (\(percent(worstLoadPercent(c)))), "
                    + "\(e.calls) calls, longest \(e.maxCyclesPerCall) cycles"
            } + [budget]).joined(separator: "\n")
    }

    private func percent(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) %"
    }
}
