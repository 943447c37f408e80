import HapticPattern
import HapticProtocol

/// What `haptic conformance` reports of a `ConformanceRun` (schema haptic-conformance/1,
/// docs/cli.md), as plain data for a JSON document; the command prints its table from it.
public struct ConformanceReport: Encodable {
    public let schema = "haptic-conformance/1"
    public var port: String
    public var baud: Int
    /// The vector directory replayed; null when none was found.
    @Nullable public var vectors: String?
    /// What INFO reported; null when the device never answered HELLO.
    @Nullable public var device: Device?
    /// No check failed.
    public var passed: Bool
    public var counts: Counts
    public var checks: [Check]

    public struct Device: Encodable {
        public var protocolVersion, firmware: String
        public var actuator: Int
        public var profileName: String
        public var rate, slots, slotCapacity, maxBody, streamCapacity, rxBuffer, wakeTicks, idleTicks, watchdog, capabilities: Int
    }

    public struct Counts: Encodable {
        public var passed, failed, skipped: Int
    }

    public struct Check: Encodable {
        /// "vector" or "live".
        public var kind, name: String
        /// "passed", "failed" or "skipped".
        public var status: String
        /// Passed: what was checked; failed: the first divergence; skipped: why.
        public var detail: String
        /// Vectors: stretches compared, and where those left out as timing-dependent are; null for live checks.
        @Nullable public var compared: Int?
        @Nullable public var timingDependent: [String]?
        /// Vectors: where this device's configuration differs from the vector's (the replay runs at the device's).
        @Nullable public var configurationChanges: [String]?
        public var seconds: Double
    }
}

extension ConformanceReport {
    /// The run on `port` at `baud`, with the vector directory it replayed.
    public init(_ run: ConformanceRun, baud: Int, vectors: String?) {
        port = run.port
        self.baud = baud
        self.vectors = vectors
        device = run.info.map { info in
            Device(
                protocolVersion: "\(info.version)", firmware: "\(info.firmwareMajor).\(info.firmwareMinor).\(info.firmwarePatch)",
                actuator: Int(info.actuatorCode), profileName: info.profileNameString, rate: Int(info.rate),
                slots: Int(info.slotCount), slotCapacity: Int(info.slotCapacity), maxBody: Int(info.maxBody),
                streamCapacity: Int(info.streamCapacity), rxBuffer: Int(info.rxBuffer), wakeTicks: Int(info.wakeTicks),
                idleTicks: Int(info.idleTicks), watchdog: Int(info.watchdog), capabilities: Int(info.capabilities.rawValue))
        }
        passed = run.passed
        counts = Counts(passed: run.count(.passed), failed: run.count(.failed), skipped: run.count(.skipped))
        checks = run.results.map {
            Check(
                kind: $0.kind.rawValue, name: $0.name, status: $0.status.rawValue, detail: $0.detail, compared: $0.compared,
                timingDependent: $0.timingDependent, configurationChanges: $0.configurationChanges, seconds: $0.seconds)
        }
    }

    /// The report of a run whose port did not open: the handshake failed, nothing else ran.
    public init(port: String, baud: Int, vectors: String?, cannotOpen reason: String) {
        self.port = port
        self.baud = baud
        self.vectors = vectors
        device = nil
        passed = false
        counts = Counts(passed: 0, failed: 1, skipped: 0)
        checks = [
            Check(
                kind: "live", name: "handshake", status: "failed", detail: "cannot open \(port): \(reason)", compared: nil,
                timingDependent: nil, configurationChanges: nil, seconds: 0)
        ]
    }
}
