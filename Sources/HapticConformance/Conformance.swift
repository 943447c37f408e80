import Foundation
import HapticProtocol
import HapticTransport

/// One check of a conformance run: a device vector replayed, or a live check.
public struct ConformanceResult: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case vector, live
    }

    public enum Status: String, Sendable, Hashable {
        case passed, failed, skipped
    }

    public var kind: Kind
    /// The vector's file name without `.txt`, or the live check's name (`Conformance.liveChecks`).
    public var name: String
    public var status: Status
    /// Passed: what was checked. Failed: the first divergence, in one line. Skipped: why.
    public var detail: String
    /// Vectors: stretches of replies or notices compared, and those left out because the
    /// reference model's answer depends on the exact tick the device took a frame at (where they
    /// are: "notices after `in 6: PLAY seq 3`").
    public var compared: Int?
    public var timingDependent: [String]?
    /// Vectors: where the device's configuration differs from the vector's ("stream 64→128");
    /// the replay runs at the device's.
    public var configurationChanges: [String]?
    public var seconds: Double
}

/// Everything a run found.
public struct ConformanceRun: Sendable {
    /// The transport's name (the port).
    public var port: String
    /// The device's INFO; nil when it never answered HELLO.
    public var info: Message.Info?
    public var results: [ConformanceResult]

    /// Nothing failed (skipped checks do not fail a run).
    public var passed: Bool { info != nil && !results.contains { $0.status == .failed } }
    public func count(_ status: ConformanceResult.Status) -> Int { results.filter { $0.status == status }.count }
}

/// The conformance kit: checks that a device on a serial port implements
/// `firmware-protocol/PROTOCOL.md` part 2, with nothing but the port (any firmware, any board).
///
///     let port = try openTransport(path: "/dev/ttyACM0")
///     let run = Conformance.run(on: port, options: .init(vectorsDirectory: "firmware-protocol/vectors/device"))
///     for result in run.results where result.status == .failed { print(result.name, result.detail) }
///
/// It replays the device vectors (`VectorReplay`: what does not depend on exact timing is
/// compared, the rest counted as skipped) and runs the live checks (`LiveChecks`). Each
/// failing check reports its first divergence in one line.
public enum Conformance {
    public struct Options: Sendable {
        /// The device vectors: by default those shipped with the kit (`ShippedVectors`, a copy of
        /// `firmware-protocol/vectors/device`). A folder without any, or nil, fails the run: it
        /// would check less than conformance means.
        public var vectorsDirectory: String?
        /// Only these checks: a vector's or live check's name (both when a vector and a live check
        /// share it, as `watchdog` does), or `vector:NAME`, `live:NAME`; nil: all.
        public var only: Set<String>?
        /// How long a response may take.
        public var responseTimeout: Double
        /// How long the device has to answer the first HELLO (a board may be booting).
        public var helloTimeout: Double

        public init(
            vectorsDirectory: String? = ShippedVectors.directory, only: Set<String>? = nil, responseTimeout: Double = 1, helloTimeout: Double = 3
        ) {
            self.vectorsDirectory = vectorsDirectory
            self.only = only
            self.responseTimeout = responseTimeout
            self.helloTimeout = helloTimeout
        }
    }

    /// Whether `only` (see `Options.only`) takes the check `name` of `kind`.
    public static func selects(_ only: Set<String>?, kind: ConformanceResult.Kind, name: String) -> Bool {
        only.map { $0.contains(name) || $0.contains("\(kind.rawValue):\(name)") } ?? true
    }

    /// The live checks, in the order they run.
    public static var liveChecks: [String] { LiveChecks.all.map(\.name) }

    /// Runs the kit on `transport`; `progress` sees each result as it is decided.
    public static func run(
        on transport: any Transport, options: Options = Options(),
        progress: (ConformanceResult) -> Void = { _ in }
    ) -> ConformanceRun {
        let link = ConformanceLink(transport: transport, responseTimeout: options.responseTimeout)
        var run = ConformanceRun(port: transport.name, info: nil, results: [])
        func record(_ result: ConformanceResult) {
            run.results.append(result)
            progress(result)
        }
        func selected(_ kind: ConformanceResult.Kind, _ name: String) -> Bool { selects(options.only, kind: kind, name: name) }
        let opening: Opening
        do {
            opening = try open(link, timeout: options.helloTimeout)
        } catch {
            record(ConformanceResult(kind: .live, name: "handshake", status: .failed, detail: error.description, seconds: 0))
            return run
        }
        run.info = opening.info
        settle(link, watchdog: opening.info.watchdog)

        if let directory = options.vectorsDirectory {
            let vectors: [DeviceVectorFile]
            do {
                vectors = try DeviceVectorFile.all(in: directory)
            } catch {
                vectors = []
                record(ConformanceResult(kind: .vector, name: "vectors", status: .failed, detail: "cannot read \(directory): \(error)", seconds: 0))
            }
            if vectors.isEmpty, selected(.vector, "vectors") {
                record(
                    ConformanceResult(
                        kind: .vector, name: "vectors", status: .failed,
                        detail: "no device vectors (*.txt) in \(directory): a run that replays none checks less than conformance means", seconds: 0))
            }
            for vector in vectors where selected(.vector, vector.name) {
                let started = monotonicSeconds()
                var result = replay(vector, link: link, opening: opening)
                result.seconds = monotonicSeconds() - started
                record(result)
                settle(link, watchdog: opening.info.watchdog)
            }
        } else if options.only == nil {
            record(
                ConformanceResult(
                    kind: .vector, name: "vectors", status: .failed,
                    detail: "no vector directory: the kit's own (ShippedVectors) are missing and none was given", seconds: 0))
        }

        let checks = LiveChecks(link: link, info: opening.info, openingReset: opening.reset)
        for check in LiveChecks.all where selected(.live, check.name) {
            let started = monotonicSeconds()
            let status: ConformanceResult.Status
            let detail: String
            do {
                switch try check.run(checks) {
                case .passed(let text): (status, detail) = (.passed, text)
                case .skipped(let reason): (status, detail) = (.skipped, reason)
                }
            } catch {
                (status, detail) = (.failed, error.description)
            }
            record(ConformanceResult(kind: .live, name: check.name, status: status, detail: detail, seconds: monotonicSeconds() - started))
            settle(link, watchdog: opening.info.watchdog)
        }
        return run
    }

    struct Opening {
        var info: Message.Info
        var infoPayload: [UInt8]
        var reset: (reset: Message.Reset, sequence: UInt8)?
    }

    /// A 0x00 to end any partial frame, then HELLO every 250 ms until INFO (a board that reboots
    /// when its port opens misses the first ones); a RESET notice on the way is kept.
    static func open(_ link: ConformanceLink, timeout: Double) throws(Divergence) -> Opening {
        try link.send([0])
        let hello = link.nextCommandFrame(.hello(.init()))
        let deadline = monotonicSeconds() + timeout
        var reset: (Message.Reset, UInt8)?
        var nextHello = monotonicSeconds()
        while monotonicSeconds() < deadline {
            if monotonicSeconds() >= nextHello {
                try link.send(hello.bytes)
                nextHello = monotonicSeconds() + 0.25
            }
            guard let frame = try link.nextFrame(until: min(nextHello, deadline)), let message = try? Message(frame: frame) else { continue }
            switch message {
            case .reset(let notice):
                reset = (notice, frame.sequence)
            case .info(let info) where frame.sequence == hello.sequence:
                guard info.version.major == ProtocolVersion.current.major else {
                    throw Divergence("INFO reports protocol \(info.version); this kit checks \(ProtocolVersion.current)")
                }
                link.rate = Double(max(info.rate, 1))
                // Answers to the repeated HELLOs are dropped with everything before the PONG.
                _ = try link.exchangePing()
                link.resetIsDivergence = true
                return Opening(info: info, infoPayload: frame.payload, reset: reset)
            case .nack(let nack) where frame.sequence == hello.sequence:
                throw Divergence("HELLO \(ProtocolVersion.current): expected INFO, got \(MessageText.describe(.nack(nack)))")
            default:
                continue
            }
        }
        throw Divergence("no INFO in answer to HELLO within \(milliseconds(timeout)) on \(link.transport.name)")
    }

    /// Between checks: end any partial frame, drop what is left over, stop whatever plays and
    /// put the watchdog back. Failures here surface in the next check.
    static func settle(_ link: ConformanceLink, watchdog: UInt16) {
        try? link.send([0])
        let end = monotonicSeconds() + 1
        while monotonicSeconds() < end, (try? link.nextFrame(until: monotonicSeconds() + 0.02)) != nil {}
        _ = try? link.command(.stop(.init(brake: false)))
        _ = try? link.command(.setConfig(.init(key: .watchdog, value: UInt32(watchdog))))
        _ = try? link.ping()
        link.clearNotices()
    }

    static func replay(_ vector: DeviceVectorFile, link: ConformanceLink, opening: Opening) -> ConformanceResult {
        var changes: [String]?
        func result(_ status: ConformanceResult.Status, _ detail: String, _ outcome: VectorReplay.Outcome? = nil) -> ConformanceResult {
            ConformanceResult(
                kind: .vector, name: vector.name, status: status, detail: detail, compared: outcome?.compared,
                timingDependent: outcome?.timingDependent, configurationChanges: changes, seconds: 0)
        }
        if !vector.stageFaults.isEmpty {
            return result(.skipped, "needs output-stage faults raised on the board (2.18), which no host can cause over the port")
        }
        if let difference = vector.differenceFromModel() {
            return result(.skipped, "the reference model does not reproduce this file (\(difference)): regenerate the vectors or update the kit")
        }
        let (adapted, differences) = VectorReplay.adapted(vector.configuration, to: opening.info)
        guard let configuration = adapted else { return result(.skipped, differences.joined()) }
        changes = differences
        let replay = VectorReplay(vector: vector, link: link, info: opening.info, infoPayload: opening.infoPayload)
        do {
            let (model, base, shift) = try replay.prepare(configuration)
            let sent = try replay.run(model: model, base: base, shift: shift)
            let outcome = replay.judge(model: model, sent: sent, base: base, shift: shift)
            if let divergence = outcome.divergence { return result(.failed, divergence, outcome) }
            guard outcome.compared > 0 else { return result(.skipped, "every stretch depends on exact timing", outcome) }
            return result(.passed, "\(outcome.compared) compared, \(outcome.timingDependent.count) timing-dependent", outcome)
        } catch {
            return result(.failed, error.description)
        }
    }
}
