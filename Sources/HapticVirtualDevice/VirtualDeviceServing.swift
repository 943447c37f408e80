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
        let device = try VirtualDevice(options: options.with(knobs))
        await device.serve(
            intro: "virtual device (\(options.profile.name), \(options.baudRate) baud, firmware model) on \(device.path)",
            hint: "try: haptic play preset:impact.medium --port \(device.path)",
            seconds: seconds, rebootAfter: rebootAfter, knobs: knobs, wait: wait, log: log)
        if let trace = knobs.trace {
            let (header, records) = device.trace(faults: knobs.faults?.text)
            try knobs.write(trace, header: header, records: records, log: log)
        }
    }
}

extension VirtualDevice3 {
    /// `VirtualDevice.serve` for a protocol 3.0 device of `channels` channels and `players`
    /// players (`init(options:channels:players:)`); without a trace (haptic-trace/1 records one
    /// channel of protocol 2.0: `knobs.trace` is refused).
    public static func serve(
        _ options: Options, channels: Int, players: Int, seconds: Double?, rebootAfter: Double?, knobs: EmulatorKnobs,
        wait: (Double?) async -> Bool, log: (String) -> Void
    ) async throws {
        guard knobs.trace == nil else { throw Refusal.trace }
        let device = try VirtualDevice3(options: options.with(knobs), channels: channels, players: players)
        let shape = "\(device.deviceConfiguration.channels.count) channels, \(device.deviceConfiguration.players) players"
        await device.serve(
            intro: "virtual device (\(options.profile.name), \(options.baudRate) baud, firmware model, protocol 3.0: \(shape)) on \(device.path)",
            hint: "it speaks protocol 3.0 (PROTOCOL-3.md): a 2.0 host's HELLO gets NACK VERSION_INCOMPATIBLE",
            seconds: seconds, rebootAfter: rebootAfter, knobs: knobs, wait: wait, log: log)
    }

    /// What a protocol 3.0 virtual device does not serve.
    public enum Refusal: Error, CustomStringConvertible {
        case trace

        public var description: String {
            "--trace records protocol 2.0's one channel (haptic-trace/1); a protocol 3.0 device is not traced yet"
        }
    }
}

extension VirtualDeviceOptions {
    /// These options with the knobs' faults and trace.
    func with(_ knobs: EmulatorKnobs) -> Self {
        var options = self
        options.faults = knobs.faults?.profile ?? .none
        options.faultSeed = knobs.faults?.seed ?? 0
        options.trace = knobs.trace != nil
        return options
    }
}

extension VirtualDeviceEngine {
    /// Runs this device until `seconds` or `wait`, with the knobs' one-shot reboot and unplug in
    /// time order, saying `intro` (with the drift and faults) and `hint` first and the traffic
    /// and faults when it stops.
    func serve(
        intro: String, hint: String, seconds: Double?, rebootAfter: Double?, knobs: EmulatorKnobs,
        wait: (Double?) async -> Bool, log: (String) -> Void
    ) async {
        start()
        log(intro)
        if options.driftPPM != 0 { log("clock: \(options.driftPPM) ppm off the host's") }
        if let faults = knobs.faults { log("faults on the pty: \(faults.text)") }
        log(hint)
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
                    reboot(reason: .software)
                    log(String(format: "rebooted after %.1f s (ticks restart at 0, RESET sent)", due.at))
                case .unplug:
                    unplug()
                    log(String(format: "unplugged after %.1f s: the pty is closed, the device runs on", due.at))
                }
            }
        }
        stop()
        let counters = counters
        log("stopped after \(counters.steps) ticks: \(counters.bytesIn) bytes in, \(counters.bytesOut) bytes out")
        if let counts = faultCounts {
            log("faults: to the device \(FaultSpec.summary(counts.toDevice)); from the device \(FaultSpec.summary(counts.fromDevice))")
        }
    }
}
