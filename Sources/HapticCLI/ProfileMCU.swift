#if Emulator
import AVREmulator
import Foundation

/// `haptic profile --mcu atmega328p [--firmware PATH] [--json]`: the firmware's latency and CPU
/// budget measured cycle-accurately in simavr (BoardBudget, the same code CycleBudgetTests holds
/// to budgets), instead of the host-side latency profiler.
enum ProfiledMCU {
    /// Builds the board's default firmware unless `firmware` names an ELF, then measures it.
    /// What `haptic profile --mcu` prints: the board's cycle budget as text or JSON.
    static func report(mcu: String, firmware: String?, json: Bool) throws -> String {
        let (report, elf) = try measure(mcu: mcu, firmware: firmware)
        return json ? self.json(report, firmware: elf) : text(report, firmware: elf)
    }

    static func measure(mcu: String, firmware: String?) throws -> (report: BoardBudgetReport, firmware: String) {
        guard EmulatedMCU.supported.contains(mcu) else { throw EmulatedMCU.Failure.unsupportedMCU(mcu) }
        // Progress goes to standard error, so that --json output stays one document.
        let path = try EmulatedMCU.firmwarePath(firmware, build: AVRFirmwareBuild()) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        return (try BoardBudget.measure(firmware: path, mcu: mcu), path)
    }

    static func microseconds(_ cycles: Int, _ r: BoardBudgetReport) -> Double {
        Double(cycles) * 1e6 / Double(r.frequency)
    }

    static func text(_ r: BoardBudgetReport, firmware: String) -> String {
        func row(_ name: String, _ p: CycleProfile, _ c: CycleProfile.Category) -> String {
            name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(format: "mean %6.0f cycles (%5.2f %%)   worst %6d cycles (%5.2f %%)",
                         p.meanCyclesPerTick(c), p.meanLoadPercent(c), p[c].maxCyclesPerTick, p.worstLoadPercent(c))
        }
        let bound = r.playLatencyBoundCycles
        var lines = [
            "\(r.mcu) at \(r.frequency / 1_000_000) MHz (simavr, cycle-accurate), \(r.baud) baud, running \(firmware)",
            "",
            String(format: "PLAY (%d-byte frame) last byte -> first output change: %d cycles = %.1f µs (output stage warm, worst of %d phases of the tick at which the frame ends; best %d cycles)",
                   r.playFrameBytes, r.playLatencyWarmCycles, microseconds(r.playLatencyWarmCycles, r),
                   r.playLatencyWarm.points.count, r.playLatencyWarmMinCycles),
            String(format: "  bound: one tick + the frame's transfer time = %d cycles = %.1f µs: %@",
                   bound, microseconds(bound, r), r.meetsLatencyBound ? "met" : "missed"),
            String(format: "  output stage cold (wake ticks included): %d cycles = %.1f µs",
                   r.playLatencyColdCycles, microseconds(r.playLatencyColdCycles, r)),
            "",
            "per tick of \(r.cyclesPerTick) cycles:",
            row("interpreter (busy looped program)", r.playing, .interpreterTick),
            row("tick interrupt (PWM synthesis)", r.playing, .tickInterrupt),
            row("step notices (after the hand-off)", r.playing, .notices),
            row("UART RX interrupt (line rate)", r.lineRate, .uartReceiveInterrupt),
            row("UART polled receive (line rate)", r.lineRate, .uartPolledReceive),
            row("UART TX interrupt (line rate)", r.lineRate, .uartTransmitInterrupt),
            row("protocol handler (line rate)", r.lineRate, .protocolHandler),
            String(format: "UART receive: %.1f cycles per byte = %.1f %% of a tick with bytes back to back",
                   r.uartReceiveCyclesPerByte, r.uartReceiveFullLinePercent),
            String(format: "interpreter + UART in one tick, worst (busy play, idle line and line-rate uploads): %d cycles (%.2f %%)",
                   r.tickBudgetWorstCycles, r.tickBudgetWorstPercent),
            String(format: "worst valid programs (%d, PROTOCOL.md 1.15: 9 instructions a tick), line at its rate: interpreter + UART %d cycles (%.2f %%, %@); slowest step %d of the %d-cycle lead; late ticks %d",
                   r.worstCase.runs.count, r.worstCase.worstTickCycles, r.worstCase.worstTickPercent,
                   r.worstCase.worst?.name ?? "none", r.worstCase.slowestStepCycles, r.worstCase.stepLead,
                   r.worstCase.lateTicks),
            "late ticks: \(r.lateTicks)",
            "",
            "largest program: \(r.slotCapacity) bytes per slot (body up to \(r.maxBody) bytes); longer programs stream through a \(r.streamCapacity)-byte ring",
            "slots held at once: \(r.slotCount)",
        ]
        lines.append("")
        return lines.joined(separator: "\n")
    }

    static func json(_ r: BoardBudgetReport, firmware: String) -> String {
        func load(_ p: CycleProfile, _ c: CycleProfile.Category) -> [String: Any] {
            ["mean_cycles": p.meanCyclesPerTick(c), "mean_percent": p.meanLoadPercent(c),
             "worst_cycles": p[c].maxCyclesPerTick, "worst_percent": p.worstLoadPercent(c)]
        }
        let document: [String: Any] = [
            "schema": "haptic-profile-mcu/1",
            "mcu": r.mcu,
            "firmware": firmware,
            "frequency_hz": Int(r.frequency),
            "baud": r.baud,
            "cycles_per_tick": r.cyclesPerTick,
            "play_frame_bytes": r.playFrameBytes,
            "play_latency": [
                "warm_cycles": r.playLatencyWarmCycles, "warm_us": microseconds(r.playLatencyWarmCycles, r),
                "warm_min_cycles": r.playLatencyWarmMinCycles,
                "warm_phases": r.playLatencyWarm.points.map { ["end_cycle_in_tick": $0.phase, "cycles": $0.cycles] },
                "cold_cycles": r.playLatencyColdCycles, "cold_us": microseconds(r.playLatencyColdCycles, r),
                "bound_cycles": r.playLatencyBoundCycles, "bound_us": microseconds(r.playLatencyBoundCycles, r),
                "meets_bound": r.meetsLatencyBound,
            ] as [String: Any],
            "interpreter": load(r.playing, .interpreterTick),
            "tick_interrupt": load(r.playing, .tickInterrupt),
            "uart_rx_interrupt": load(r.lineRate, .uartReceiveInterrupt),
            "uart_rx_polled": load(r.lineRate, .uartPolledReceive),
            "uart_tx_interrupt": load(r.lineRate, .uartTransmitInterrupt),
            "interpreter_plus_uart_worst_cycles": r.tickBudgetWorstCycles,
            "interpreter_plus_uart_worst_percent": r.tickBudgetWorstPercent,
            "uart_rx_cycles_per_byte": r.uartReceiveCyclesPerByte,
            "uart_rx_full_line_percent": r.uartReceiveFullLinePercent,
            "protocol_handler": load(r.lineRate, .protocolHandler),
            "late_ticks": r.lateTicks,
            "worst_case_tick_cycles": r.worstCase.worstTickCycles,
            "worst_case_tick_percent": r.worstCase.worstTickPercent,
            "worst_case_program": r.worstCase.worst?.name ?? "",
            "worst_case_programs": r.worstCase.runs.count,
            "worst_case_slowest_step_cycles": r.worstCase.slowestStepCycles,
            "worst_case_late_ticks": r.worstCase.lateTicks,
            "step_lead_cycles": r.worstCase.stepLead,
            "slot_count": r.slotCount,
            "slot_capacity_bytes": r.slotCapacity,
            "max_body_bytes": r.maxBody,
            "stream_capacity_bytes": r.streamCapacity,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
