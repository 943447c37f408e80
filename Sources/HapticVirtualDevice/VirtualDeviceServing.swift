import Foundation
import HapticTrace
import HapticTransport

extension VirtualDevice {
    /// Serves a virtual device on its pty until `seconds` have passed or `wait` says to stop, as
    /// `haptic emulate` (without `--mcu`) does: the knobs' faults on the pty, a reboot after
    /// `rebootAfter` and the pty closed after `knobs.unplugAfter` seconds, and when it stops a
    /// summary and the trace (`knobs.trace`). `wait(s)` sleeps up to s seconds (nil: until
    /// woken) and returns true when the device is to stop (a signal); `log` gets each line to
    /// print, the first of them once the pty is open.
    public static func serve(
        _ options: Options, seconds: Double?, rebootAfter: Double?, knobs: EmulatorKnobs,
        wait: (Double?) async -> Bool, log: (String) -> Void
    ) async throws {
        var options = options
        options.faults = knobs.faults?.profile ?? .none
        options.faultSeed = knobs.faults?.seed ?? 0
        options.trace = knobs.trace != nil
        let device = try VirtualDevice(options: options)
        device.start()
        log("virtual device (\(device.options.profile.name), \(options.baudRate) baud, firmware model) on \(device.path)")
        if options.driftPPM != 0 { log("clock: \(options.driftPPM) ppm off the host's") }
        if let faults = knobs.faults { log("faults on the pty: \(faults.text)") }
        log("try: haptic play preset:impact.medium --port \(device.path)")
        var timers = knobs.timers(rebootAfter: rebootAfter)
        let started = Date()
        while true {
            let elapsed = Date().timeIntervalSince(started)
            let next = ([seconds] + timers.map(\.at)).compactMap { $0 }.min()
            if await wait(next.map { max(0, $0 - elapsed) }) { break }
            let now = Date().timeIntervalSince(started)
            if let seconds, now >= seconds { break }
            while let due = timers.first, due.at <= now {
                timers.removeFirst()
                switch due.action {
                case .reboot:
                    device.reboot(reason: .software)
                    log(String(format: "rebooted after %.1f s (ticks restart at 0, RESET sent)", due.at))
                case .unplug:
                    device.unplug()
                    log(String(format: "unplugged after %.1f s: the pty is closed, the device runs on", due.at))
                }
            }
        }
        device.stop()
        let counters = device.counters
        log("stopped after \(counters.steps) ticks: \(counters.bytesIn) bytes in, \(counters.bytesOut) bytes out")
        if let counts = device.faultCounts {
            log("faults: to the device \(FaultSpec.summary(counts.toDevice)); from the device \(FaultSpec.summary(counts.fromDevice))")
        }
        if let trace = knobs.trace {
            let (header, records) = device.trace(faults: knobs.faults?.text)
            try knobs.write(trace, header: header, records: records, log: log)
        }
    }
}
