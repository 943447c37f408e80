import CAVRHarness

/// A simulated microcontroller board running a firmware ELF in libsimavr, cycle by cycle.
///
/// Not thread-safe: one owner drives it (a test, or `EmulatedBoardLink` on its own thread).
/// Time only advances inside `run(until:)`; bytes handed to `send(_:)` reach the firmware's
/// UART back to back at the baud rate the firmware configured, starting at the current cycle.
public final class AVRBoard {
    public let firmwarePath: String
    public let mcu: String
    let handle: OpaquePointer

    public init(firmware path: String, mcu: String = "atmega328p", frequency: UInt32 = 16_000_000) throws(AVRBoardError) {
        var error = [CChar](repeating: 0, count: 256)
        guard let handle = hb_avr_create(path, mcu, frequency, &error, error.count) else {
            throw .load(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.handle = handle
        self.firmwarePath = path
        self.mcu = mcu
        paintStack()  // AVRBoardStack.swift: stackFreeMinimum measures from here
    }

    deinit {
        hb_avr_destroy(handle)
    }

    // MARK: Time

    public var cycle: UInt64 { hb_avr_cycle(handle) }
    /// Program counter, a byte address in flash.
    public var programCounter: UInt32 { hb_avr_pc(handle) }
    public var frequency: UInt32 { hb_avr_frequency(handle) }
    /// Cycles in one 1 kHz tick (16,000 at 16 MHz).
    public var cyclesPerTick: UInt64 { UInt64(frequency) / 1000 }

    /// Runs until the cycle counter reaches `cycle`; throws if the core stopped or crashed.
    public func run(until cycle: UInt64) throws(AVRBoardError) {
        switch hb_avr_run_until(handle, cycle) {
        case Int32(HB_AVR_RUNNING): return
        case Int32(HB_AVR_STOPPED): throw .stopped(atCycle: self.cycle)
        default: throw .crashed(atCycle: self.cycle)
        }
    }

    public func run(cycles: UInt64) throws(AVRBoardError) {
        try run(until: cycle + cycles)
    }

    public func run(ticks: Int) throws(AVRBoardError) {
        try run(cycles: UInt64(ticks) * cyclesPerTick)
    }

    /// The firmware's step lead (`hb_tick_step_lead`, tick.h): the step of device tick k is
    /// triggered this many cycles before the boundary of timer tick k + 1, from which its sample
    /// is output. Read from RAM, so valid once the firmware's start-up code has run (any time
    /// after the first few hundred cycles); nil for an image without the symbol (one built
    /// before the lead existed).
    public var stepLeadCycles: UInt64? {
        readGlobal("hb_tick_step_lead", size: 2).map(UInt64.init)
    }

    /// The device tick before whose step a byte completing at `cycle` is processed, when the
    /// main loop is idle (PROTOCOL.md 2.3): the step of tick k is triggered at
    /// t0 + (k + 1) x T - lead, t0 being the cycle the tick timer started.
    public func deviceTick(ofByteAt cycle: UInt64, timerStart: UInt64) -> Int {
        let lead = stepLeadCycles ?? 0
        return Int((cycle + lead - timerStart) / cyclesPerTick)
    }

    /// Resets the MCU as its reset pin does (an Arduino's DTR when a host opens its port): the
    /// firmware starts again after `bootloaderCycles` in the bootloader, which drops the bytes sent
    /// meanwhile. The simulated DRV2605L, another chip, keeps its registers and its output.
    public func reset(bootloaderCycles: UInt64) {
        hb_avr_reset(handle, bootloaderCycles)
    }

    /// Resets of the MCU so far: the watchdog's and `reset(bootloaderCycles:)`.
    public var resets: Int { Int(hb_avr_resets(handle)) }

    // MARK: UART

    /// Queues bytes for the firmware's receiver (pin D0).
    public func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { hb_avr_uart_send(handle, $0.baseAddress, $0.count) }
    }

    /// Bytes queued by `send(_:)` that have not completed on the line yet.
    public var pendingInput: Int { hb_avr_uart_send_pending(handle) }

    /// Cycles per byte at the firmware's UART settings (0 while the UART is off): 320 at 500 kbaud.
    public var uartCyclesPerByte: UInt32 { hb_avr_uart_cycles_per_byte(handle) }

    /// Bytes the firmware transmitted since the last call, each stamped with the cycle its stop
    /// bit completed.
    public func takeOutput() -> [TimedByte] {
        var result: [TimedByte] = []
        var chunk = [hb_avr_byte](repeating: hb_avr_byte(), count: 256)
        while true {
            let n = hb_avr_uart_take(handle, &chunk, chunk.count)
            result += chunk.prefix(n).map { TimedByte(cycle: $0.cycle, value: $0.value) }
            if n < chunk.count { return result }
        }
    }

    /// Every byte delivered to the firmware so far, stamped with the cycle its stop bit completed.
    public var inputLog: [TimedByte] {
        let count = hb_avr_uart_rx_log_count(handle)
        var items = [hb_avr_byte](repeating: hb_avr_byte(), count: count)
        let n = hb_avr_uart_rx_log(handle, &items, count)
        return items.prefix(n).map { TimedByte(cycle: $0.cycle, value: $0.value) }
    }

    public var uartStatistics: UARTStatistics {
        let s = hb_avr_uart_get_stats(handle)
        return UARTStatistics(maxBacklog: Int(s.max_backlog), overruns: Int(s.overruns), dropped: Int(s.dropped))
    }

    /// Runs until the firmware has transmitted at least `count` bytes (returned, all of them
    /// taken) or `limit` cycles have passed.
    public func runUntilOutput(count: Int, limit: UInt64) throws(AVRBoardError) -> [TimedByte] {
        var bytes: [TimedByte] = []
        let deadline = cycle + limit
        while bytes.count < count && cycle < deadline {
            try run(until: min(deadline, cycle + 1_000))
            bytes += takeOutput()
        }
        return bytes
    }

    // MARK: Outputs

    /// Output-stage events recorded since boot, from index `first`.
    public func events(from first: Int = 0) -> [OutputEvent] {
        let total = hb_avr_events_count(handle)
        guard first < total else { return [] }
        var items = [hb_avr_event](repeating: hb_avr_event(), count: total - first)
        let n = hb_avr_events_copy(handle, first, &items, items.count)
        return items.prefix(n).map(OutputEvent.init)
    }

    public var eventCount: Int { hb_avr_events_count(handle) }

    /// The DRV2605L model's register `register`.
    public func drv2605lRegister(_ register: UInt8) -> UInt8 { hb_avr_drv_register(handle, register) }

    /// Cycle of the first I2C transaction with the DRV2605L (nil if none).
    public var drv2605lFirstAccess: UInt64? {
        let c = hb_avr_drv_first_access(handle)
        return c == 0 ? nil : c
    }

    public func setDRV2605LCalibrationCycles(_ cycles: UInt64) {
        hb_avr_drv_set_calibration_cycles(handle, cycles)
    }

    /// A failure of the simulated DRV2605L (`haptic emulate --fault`), from now on.
    public func setDRV2605LFault(_ fault: DRV2605LFault) {
        hb_avr_drv_set_fault(handle, fault.code)
    }

    /// The simulated LRA's true resonance, which the DRV2605L measures (LRA_PERIOD).
    public func setDRV2605LResonance(hz: Double) {
        hb_avr_drv_set_lra_hz(handle, hz)
    }

    /// What the DRV2605L drives now, by the datasheet's equations for the mode its registers set:
    /// volts RMS (LRA) or average (ERM), negative in reverse.
    public var drv2605lOutputVolts: Double { Double(hb_avr_drv_output_mv(handle)) / 1_000 }

    /// Auto-calibrations the DRV2605L completed since the board was created.
    public var drv2605lCalibrations: Int { Int(hb_avr_drv_calibrations(handle)) }

    /// The DRV2605L loses power and comes back now: registers at their reset defaults, in standby.
    public func drv2605lPowerLoss() { hb_avr_drv_power_loss(handle) }

    /// Power losses of the DRV2605L so far (`drv2605lPowerLoss()` and the `.powerLoss` fault's).
    public var drv2605lBrownOuts: Int { Int(hb_avr_drv_brown_outs(handle)) }

    /// The DRV2605L's EN wired to D4 (PD4) with a pull-down, as hardware/README.md's wiring shows:
    /// low, the chip is shut down (no output, no register writes). false (the default): EN tied
    /// high, for images that do not drive it.
    public func setDRV2605LEnablePin(_ wired: Bool) { hb_avr_drv_set_en_pin(handle, wired ? 1 : 0) }

    /// EN is high now: the DRV2605L may drive.
    public var drv2605lEnabled: Bool { hb_avr_drv_enabled(handle) != 0 }

    // MARK: Bootloader

    /// Loads a bootloader image (Intel HEX) at its address and makes every reset enter it, as the
    /// board's fuses do (BOOTRST); the firmware stays at 0. Resets then run it for real.
    public func loadBootloader(_ path: String) throws(AVRBoardError) {
        var error = [CChar](repeating: 0, count: 256)
        guard hb_avr_load_bootloader(handle, path, &error, error.count) == 0 else {
            throw .load(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// Byte address of the loaded bootloader (nil: none).
    public var bootloaderStart: UInt32? {
        let start = hb_avr_boot_start(handle)
        return start == 0 ? nil : start
    }

    // MARK: Memory

    public func readData(_ address: UInt16) -> UInt8 { hb_avr_read_data(handle, address) }

    /// Data-space address of a global variable of the firmware.
    public func address(ofSymbol name: String) -> UInt16? {
        let a = hb_avr_symbol_address(handle, name)
        return a < 0 ? nil : UInt16(a)
    }

    /// A little-endian global of `size` bytes (1, 2 or 4), by symbol name.
    public func readGlobal(_ name: String, size: Int) -> UInt32? {
        guard let base = address(ofSymbol: name) else { return nil }
        var value: UInt32 = 0
        for i in 0..<size { value |= UInt32(readData(base + UInt16(i))) << (8 * i) }
        return value
    }

    // MARK: Profiling

    /// Starts a new profiling interval now.
    public func resetProfile() {
        let group = CycleProfile.tickBudget.reduce(UInt64(0)) { $0 | (UInt64(1) << UInt64($1.index)) }
        hb_avr_profile_set_group(handle, group)
        hb_avr_profile_reset(handle)
    }

    /// Cycle costs since `resetProfile()`.
    public func profile() -> CycleProfile {
        var entries: [CycleProfile.Category: CycleProfile.Entry] = [:]
        for category in CycleProfile.Category.allCases {
            let e = hb_avr_profile_get(handle, category.index)
            entries[category] = CycleProfile.Entry(
                totalCycles: e.total_cycles, calls: e.calls,
                maxCyclesPerTick: Int(e.max_per_tick), maxCyclesPerCall: Int(e.max_single))
        }
        var profile = CycleProfile(
            ticks: Int(hb_avr_profile_ticks(handle)),
            cyclesPerTick: Int(hb_avr_profile_window(handle)), entries: entries)
        profile.tickBudgetWorstCycles = Int(hb_avr_profile_group_worst(handle))
        return profile
    }
}

public enum AVRBoardError: Error, Equatable, CustomStringConvertible {
    case load(String)
    case stopped(atCycle: UInt64)
    case crashed(atCycle: UInt64)

    public var description: String {
        switch self {
        case .load(let reason): return reason
        case .stopped(let c): return "the simulated core stopped at cycle \(c)"
        case .crashed(let c): return "the simulated core crashed at cycle \(c)"
        }
    }
}

public struct TimedByte: Sendable, Hashable {
    public var cycle: UInt64
    public var value: UInt8
}

public struct UARTStatistics: Sendable, Hashable {
    /// Most unread bytes in the UART when a new byte completed (a real ATmega328P holds 2).
    public var maxBacklog: Int
    /// Bytes a real UART would have lost (3 or more unread when one more completed).
    public var overruns: Int
    /// Bytes sent while the firmware's receiver was off.
    public var dropped: Int
}

public struct OutputEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Timer1's compare registers: PWM channel 0's H-bridge.
        case ocr1a, ocr1b
        /// Timer2's compare registers: PWM channel 1's H-bridge (OC2A = D11, OC2B = D3).
        case ocr2a, ocr2b
        /// The TCA9548A's connected ports changed (`value`: their mask): at a STOP after a write of
        /// its control register, at RESET, at power-on reset.
        case tca9548aSelect
        case drv2605lWrite(register: UInt8)
        /// The DRV2605L's output changed to this many millivolts (signed).
        case drv2605lOutput(millivolts: Int16)
        /// The DRV2605L's EN changed to this level.
        case drv2605lEnable(Bool)
        /// Timer2's clock was started: the 2.0 images' tick timer.
        case tickTimerStart
        /// Timer0's clock was started: the 3.0 images' tick timer (Timer2 drives a second H-bridge there).
        case timer0Start
        /// A write to GPIOR0: `value` holds the firmware's probe bits (probe.h).
        case probe
    }

    public var cycle: UInt64
    public var kind: Kind
    public var value: UInt8
    /// The output channel the event belongs to: 0 for Timer1 and for the DRV2605L on its own (or
    /// behind the mux's port 0), 1 for Timer2, n for the DRV2605L behind port n; 0 for the rest.
    public var channel: Int

    init(_ e: hb_avr_event) {
        cycle = e.cycle
        value = e.value
        channel = Int(e.channel)
        switch Int32(e.kind) {
        case Int32(HB_AVR_EVENT_OCR1A): kind = .ocr1a
        case Int32(HB_AVR_EVENT_OCR1B): kind = .ocr1b
        case Int32(HB_AVR_EVENT_DRV_WRITE): kind = .drv2605lWrite(register: e.reg)
        case Int32(HB_AVR_EVENT_PROBE): kind = .probe
        case Int32(HB_AVR_EVENT_DRV_OUTPUT): kind = .drv2605lOutput(millivolts: Int16(bitPattern: UInt16(e.reg) << 8 | UInt16(e.value)))
        case Int32(HB_AVR_EVENT_DRV_ENABLE): kind = .drv2605lEnable(e.value != 0)
        case Int32(HB_AVR_EVENT_OCR2A): kind = .ocr2a
        case Int32(HB_AVR_EVENT_OCR2B): kind = .ocr2b
        case Int32(HB_AVR_EVENT_MUX_SELECT): kind = .tca9548aSelect
        case Int32(HB_AVR_EVENT_TIMER0_START): kind = .timer0Start
        default: kind = .tickTimerStart
        }
    }
}

/// Failure modes of the simulated DRV2605L (Sources/CAVRHarness/drv2605l_model.c).
public enum DRV2605LFault: String, Sendable, CaseIterable {
    case none
    /// No ACK at its address: unwired, unpowered, or another part.
    case driverAbsent = "driver-absent"
    /// Auto-calibration ends with DIAG_RESULT = 1 (no actuator, or not the one the profile says).
    case calibrationFails = "calibration-fails"
    /// Shuts its output down when it drives, with OVER_TEMP in STATUS.
    case overtemp
    /// Shuts its output down when it drives, with OC_DETECT in STATUS (a short, too low a load).
    case overcurrent
    /// A slave holds SDA low until SCL is clocked (a transfer cut off by a reset).
    case busStuck = "bus-stuck"
    /// Its supply sags whenever it drives: it browns out and comes back at its reset defaults, in
    /// standby, still acknowledging writes.
    case powerLoss = "power-loss"
    /// SDA held low for good (a line shorted, a slave that never lets go): every transfer fails.
    case busLost = "bus-lost"
    /// SCL held low for good (a clock stretched forever): no bus action completes, not even a STOP.
    case busHang = "bus-hang"

    var code: Int32 {
        switch self {
        case .none: Int32(HB_AVR_DRV_FAULT_NONE)
        case .driverAbsent: Int32(HB_AVR_DRV_FAULT_ABSENT)
        case .calibrationFails: Int32(HB_AVR_DRV_FAULT_CALIBRATION)
        case .overtemp: Int32(HB_AVR_DRV_FAULT_OVERTEMP)
        case .overcurrent: Int32(HB_AVR_DRV_FAULT_OVERCURRENT)
        case .busStuck: Int32(HB_AVR_DRV_FAULT_BUS_STUCK)
        case .powerLoss: Int32(HB_AVR_DRV_FAULT_POWER_LOSS)
        case .busLost: Int32(HB_AVR_DRV_FAULT_BUS_LOST)
        case .busHang: Int32(HB_AVR_DRV_FAULT_BUS_HANG)
        }
    }
}
