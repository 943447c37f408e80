import Foundation
import HapticTransport

/// The knobs of a device served on a pseudo-terminal, the same for the virtual device and the
/// simulated boards (`haptic emulate --faults --trace --unplug-after`): byte faults on the pty, a
/// trace written when it stops, and a time at which the pty is closed while the device runs on.
public struct EmulatorKnobs: Sendable {
    public var faults: FaultSpec?
    /// Where to write the trace (haptic-trace/1) when the device stops; nil: no trace.
    public var trace: String?
    /// Seconds after which the pty is closed (the port vanishes); nil: never.
    public var unplugAfter: Double?

    public init(faults: FaultSpec? = nil, trace: String? = nil, unplugAfter: Double? = nil) {
        self.faults = faults
        self.trace = trace
        self.unplugAfter = unplugAfter
    }

    /// A one-shot action of a served device.
    public enum Action: Sendable { case reboot, unplug }

    /// The one-shot actions in time order (`rebootAfter`: the virtual device's reboot).
    public func timers(rebootAfter: Double?) -> [(at: Double, action: Action)] {
        var timers: [(at: Double, action: Action)] = []
        if let rebootAfter { timers.append((rebootAfter, .reboot)) }
        if let unplugAfter { timers.append((unplugAfter, .unplug)) }
        return timers.sorted { $0.at < $1.at }
    }

    /// Writes a trace to `path` and says so through `log`.
    public func write(_ path: String, header: DeviceTrace.Header, records: [DeviceTrace.Record], log: (String) -> Void) throws {
        try DeviceTrace.write(header: header, records: records, toFile: path)
        log("trace: \(records.count) records in \(path)")
    }
}

extension DeviceTrace {
    /// A trace that could not be written, in one line.
    public struct WriteFailure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write the trace \(path): \(reason)" }
    }

    /// `write(header:records:to:)`, failing with a `WriteFailure` that names the file.
    public static func write(header: Header, records: [Record], toFile path: String) throws(WriteFailure) {
        do {
            try write(header: header, records: records, to: path)
        } catch {
            throw WriteFailure(path: path, reason: error.localizedDescription)
        }
    }
}
