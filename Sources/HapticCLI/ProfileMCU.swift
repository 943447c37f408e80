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
            if EmulatedQEMU.names.contains(mcu) { return try EmulatedQEMU.profileReport(firmware: firmware, json: json) }
            let (measured, elf) = try measure(mcu: mcu, firmware: firmware)
            var report = Report(measured, firmware: elf)
            report.feltOnset = try BoardFeltOnset.measure(firmware: elf, warmCycles: measured.playLatencyWarmCycles)
            (report.feltLag, report.feltFloor) = (report.feltOnset?.feltLag, report.feltOnset?.feltFloor)
            report.stackFreeMin = try StackWorstPaths.measure(firmware: elf, mcu: mcu).stackFreeMinimum
            return json ? try reportJSON(report) : text(report) + feltText(report.feltOnset)
        }

        static func measure(mcu: String, firmware: String?) throws -> (report: BoardBudgetReport, firmware: String) {
            guard EmulatedMCU.supported.contains(mcu) else { throw EmulatedMCU.Failure.unsupportedMCU(mcu) }
            // Progress goes to standard error, so that --json output stays one document.
            let path = try AVRFirmwareBuild().firmwareToRun(firmware) { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
            return (try BoardBudget.measure(firmware: path, mcu: mcu), path)
        }

        static func text(_ r: Report) -> String {
            func row(_ name: String, _ load: Report.Load) -> String {
                name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format: "mean %6.0f cycles (%5.2f %%)   worst %6d cycles (%5.2f %%)",
                        load.meanCycles, load.meanPercent, load.worstCycles, load.worstPercent)
            }
            let p = r.playLatency
            var lines = [
                "\(r.mcu) at \(r.frequencyHz / 1_000_000) MHz (simavr, cycle-accurate), \(r.baud) baud, running \(r.firmware)",
                "",
                String(
                    format:
                        "PLAY (%d-byte frame) last byte -> first output change: %d cycles = %.1f µs (output stage warm, worst of %d phases of the tick at which the frame ends; best %d cycles)",
                    r.playFrameBytes, p.warmCycles, p.warmUs, p.warmPhases.count, p.warmMinCycles),
                String(
                    format: "  bound: one tick + the frame's transfer time = %d cycles = %.1f µs: %@",
                    p.boundCycles, p.boundUs, p.meetsBound ? "met" : "missed"),
                String(format: "  output stage cold (wake ticks included): %d cycles = %.1f µs", p.coldCycles, p.coldUs),
                "",
                "per tick of \(r.cyclesPerTick) cycles:",
                row("interpreter (busy looped program)", r.interpreter),
                row("tick interrupt (PWM synthesis)", r.tickInterrupt),
                row("step notices (after the hand-off)", r.notices),
                row("UART RX interrupt (line rate)", r.uartRxInterrupt),
                row("UART polled receive (line rate)", r.uartRxPolled),
                row("UART TX interrupt (line rate)", r.uartTxInterrupt),
                row("protocol handler (line rate)", r.protocolHandler),
                String(
                    format: "UART receive: %.1f cycles per byte = %.1f %% of a tick with bytes back to back",
                    r.uartRxCyclesPerByte, r.uartRxFullLinePercent),
                String(
                    format: "interpreter + UART in one tick, worst (busy play, idle line and line-rate uploads): %d cycles (%.2f %%)",
                    r.interpreterPlusUartWorstCycles, r.interpreterPlusUartWorstPercent),
                String(
                    format:
                        "worst valid programs (%d, PROTOCOL.md 1.15: 9 instructions a tick), line at its rate: interpreter + UART %d cycles (%.2f %%, %@); slowest step %d of the %d-cycle lead; late ticks %d",
                    r.worstCasePrograms, r.worstCaseTickCycles, r.worstCaseTickPercent, r.worstCaseProgram,
                    r.worstCaseSlowestStepCycles, r.stepLeadCycles, r.worstCaseLateTicks),
                "late ticks: \(r.lateTicks)",
                "",
                "largest program: \(r.slotCapacityBytes) bytes per slot (body up to \(r.maxBodyBytes) bytes); longer programs stream through a \(r.streamCapacityBytes)-byte ring",
                "slots held at once: \(r.slotCount)",
                "stack: \(r.stackFreeMin.map { "\($0) bytes of RAM left free on the worst paths (measured by painting)" } ?? "not measured")",
            ]
            lines.append("")
            return lines.joined(separator: "\n")
        }

        static func feltText(_ felt: BoardFeltOnset?) -> String {
            guard let felt else { return "felt onset: not measured (no INFO or no preset played)\n" }
            return String(
                format:
                    "felt onset on %@ (%d %@, model replay of the board's input; line + worst warm latency %.3f ms + rise): 50 %% p50 %.3f p99 %.3f ms, 90 %% p50 %.3f p99 %.3f ms\nfelt lag p50 %.3f p99 %.3f ms; floor p50 %.3f p99 %.3f ms\n",
                felt.actuatorProfile, felt.felt50.count, felt.patterns, felt.firstOutputMs,
                felt.felt50.p50Ms, felt.felt50.p99Ms, felt.felt90.p50Ms, felt.felt90.p99Ms,
                felt.feltLag.p50Ms, felt.feltLag.p99Ms, felt.feltFloor.p50Ms, felt.feltFloor.p99Ms)
        }
    }
#endif
