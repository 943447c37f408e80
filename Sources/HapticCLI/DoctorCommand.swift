import ArgumentParser
import Foundation
import HapticCompiler
import HapticProtocol
import HapticSession
import HapticTransport

/// `haptic doctor --port PATH [--json]`: what the board is and whether it works, with one line
/// naming the cause and the fix when it does not (docs/cli.md). It speaks the wire protocol itself,
/// in the plainest way (one message at a time, PROTOCOL.md 2.4's retransmissions), so that a board
/// the session engine would give up on still gets a diagnosis.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a board: identity, output stage and driver, link, and a short self-test.",
        discussion: """
            Identifies the board (USB vendor:product and product name, firmware and protocol versions, actuator and \
            profile, output stage and supply), checks its driver (present, calibration results, the LRA resonance it \
            measured against the profile's), measures the link (round trip over PINGs, retransmissions) and plays a \
            40 ms self-test. An Arduino resets when its port is opened: the doctor waits for it to boot.

            Exit status: 0 when everything works; 1 with one line naming the cause and the fix on standard error \
            when something does not; 64 for a bad command line.
            """
    )

    @Option(help: "Serial port of the board (haptic ports lists them; a pseudo-terminal of haptic emulate works too).")
    var port: String

    @OptionGroup var line: LineOptions

    @Flag(help: "Write one JSON document (schema haptic-doctor/1, docs/cli.md) instead of text.")
    var json = false

    @Option(parsing: .unconditional, help: "Seconds to wait for the board to answer after opening its port (a bootloader's wait included), 0.5...30.")
    var patience: Double = 4

    @Flag(help: "Recalibrate the driver first (SET_CONFIG RECALIBRATE: the board restarts and calibrates) and wait for the board to come back.")
    var recalibrate = false

    func validate() throws {
        guard (0.5...30).contains(patience) else { throw ValidationError("--patience must be 0.5...30 seconds, not \(patience)") }
    }

    func run() throws {
        var report = DoctorReport(port: DoctorReport.Port(path: port, usb: DoctorReport.usb(of: port)))
        report.check(self)
        if json {
            emit(try reportJSON(report))
        } else {
            for (name, value) in report.lines {
                emit(name.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + value)
            }
        }
        if let problem = report.problem {
            FileHandle.standardError.write(Data("haptic doctor: \(problem.cause): \(problem.fix)\n".utf8))
            throw ExitCode(1)
        }
    }
}

extension DoctorReport {
    // MARK: Checks

    mutating func check(_ command: Doctor) {
        let link: DoctorLink
        do {
            link = try DoctorLink(path: port.path, baud: command.line.baud)
        } catch {
            problem = Problem(
                cause: "cannot open \(port.path): \(error)",
                fix: "check the path (haptic ports lists the ports), that the board is plugged in and that no other program has the port open")
            return
        }
        defer { link.close() }
        guard var info = link.hello(patience: command.patience) else {
            problem = Problem(
                cause: link.refusal ?? "no answer from \(port.path) within \(command.patience) s",
                fix: link.refusal == nil
                    ? "flash the HapticBridge firmware (make -C hardware/firmware/boards/atmega328p flash-uno PORT=\(port.path)), check --baud (the firmware runs at 500000), or close the program that has the board"
                    : "use a haptic and a firmware of the same protocol major version")
            return
        }
        if command.recalibrate {
            switch link.recalibrate(patience: command.patience) {
            case .success(let again):
                info = again
                notes.append("recalibrated: the board restarted (RESET \(link.reset?.reason.map { "\($0)" } ?? "?")) and answered again")
            case .failure(let why):
                problem = Problem(
                    cause: why.description, fix: "reset the board and run haptic doctor again; if it persists, flash the firmware again")
                return
            }
        }
        let actuator = info.actuator.map { "\($0)" } ?? "actuator \(info.actuatorCode)"
        let caps: [(Message.Info.Capabilities, String)] = [
            (.stream, "stream"), (.sharpness, "sharpness"), (.activeBrake, "active brake"), (.subtick, "subtick"), (.diag, "diag"),
            (.softRestart, "soft restart"),
        ]
        board = Board(
            firmware: "\(info.firmwareMajor).\(info.firmwareMinor).\(info.firmwarePatch)", protocolVersion: "\(info.version)",
            actuator: actuator, profile: info.profileNameString, rate: Int(info.rate),
            capabilities: caps.filter { info.capabilities.contains($0.0) }.map(\.1),
            resetOnOpen: link.reset != nil, resetReason: link.reset.flatMap { $0.reason.map { "\($0)" } })
        // Take the device over (2.6): nothing an earlier client left plays.
        _ = link.command(.stop(.init(brake: true)))
        if info.capabilities.contains(.diag) {
            guard let d = link.diag() else {
                problem = Problem(
                    cause: "no DIAG_REPORT although the board has the DIAG capability",
                    fix: "reset the board; if it persists, flash the firmware again")
                return
            }
            let profileHz = ActuatorResonance.hz(ofProfile: info.profileNameString)
            stage = Stage(
                kind: d.stage == .drv2605l ? "drv2605l" : d.stage == .pwm ? "pwm" : "none", fault: Int(d.fault.rawValue),
                driverPresent: d.flags.contains(.present), calibrated: d.flags.contains(.calibrated),
                calibrationStored: d.flags.contains(.stored), standby: d.flags.contains(.standby),
                driverStatus: Int(d.driverStatus), supplyVolts: Double(d.supplyMillivolts) / 1_000,
                ratedVolts: Double(d.ratedMillivolts) / 1_000, limitVolts: Double(d.limitMillivolts) / 1_000,
                calibrationCompensation: Int(d.calibrationCompensation), calibrationBackEmf: Int(d.calibrationBackEMF),
                backEmfGain: Int(d.feedbackControl & 3), measuredResonanceHz: d.measuredResonanceHz,
                profileResonanceHz: profileHz, busErrors: Int(d.busErrors), retries: Int(d.retries))
            if d.fault.rawValue != 0 {
                setStageFault(d.fault)
            }
            if let measured = d.measuredResonanceHz, let profileHz, abs(measured - profileHz) > 0.1 * profileHz {
                notes.append(
                    String(
                        format: "the LRA resonates at %.0f Hz, %.0f %% from the profile's %.0f Hz: use or write a profile for this part", measured,
                        100 * (measured - profileHz) / profileHz, profileHz))
            }
        } else {
            notes.append("the firmware does not report its output stage (no DIAG capability): flash a current firmware for a full check")
        }
        var trips: [Double] = []
        for _ in 0..<8 { if let t = link.ping() { trips.append(t) } }
        self.link = Link(
            pings: trips.count, bestRoundTripMs: trips.min().map { $0 * 1_000 }, worstRoundTripMs: trips.max().map { $0 * 1_000 },
            retransmissions: link.retransmissions)
        if trips.isEmpty, problem == nil {
            problem = Problem(cause: "the board answers commands but not PING", fix: "flash the firmware again")
        }
        let test = link.selfTest()
        selfTest = SelfTest(result: test.description, startedTick: test.started, endTick: test.ended)
        self.link?.retransmissions = link.retransmissions
        if problem == nil {
            switch test.outcome {
            case .finished:
                // A driver that shut down while it drove says so at its next check (the DRV2605L
                // stage reads STATUS every 16 ticks, MODE every 32): ask once more after that.
                Thread.sleep(forTimeInterval: 0.1)
                if info.capabilities.contains(.diag), let d = link.diag(), d.fault.rawValue != 0 { setStageFault(d.fault) }
            case .fault(let code): setStageFault(code)
            case .failed(let why):
                problem = Problem(
                    cause: "the self-test did not play: \(why)",
                    fix: "reset the board and run haptic doctor again; if it persists, flash the firmware again")
            }
        }
        if problem == nil, let worst = self.link?.worstRoundTripMs, worst > 50 {
            notes.append(
                String(format: "round trips up to %.0f ms: a USB-serial bridge's latency timer (FTDI: 16 ms by default) or a busy host", worst))
        }
    }

    private mutating func setStageFault(_ code: MessageErrorCode) {
        let advice = code.stageFaultAdvice ?? "fault \(code)"
        // "cause (category): fix" in the advice: split at the first colon for the report's two fields.
        let parts = advice.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        problem = Problem(code: Int(code.rawValue), cause: "\(code.name): \(parts[0])", fix: parts.count > 1 ? parts[1] : "reset the board")
    }
}

/// The actuator profile's resonance, for comparing with what the driver measured.
enum ActuatorResonance {
    /// INFO carries at most 16 bytes of the name: a longer one is found by its prefix, if unique.
    static func hz(ofProfile name: String) -> Double? {
        let candidates = ActuatorProfile.builtIns.filter { $0.name.hasPrefix(name) }
        let profile = (try? Compile.loadProfile(name)) ?? (candidates.count == 1 ? candidates[0] : nil)
        guard let profile, case .lra(let lra) = profile.mechanics else { return nil }
        return lra.resonanceHz
    }
}

/// The wire protocol spoken plainly: one command at a time, retransmitted after 100 ms at most 5
/// times (2.4); notices collected as they come.
final class DoctorLink {
    private let transport: any Transport
    private var decoder = FrameDecoder()
    private var sequence: UInt8 = 0
    private(set) var retransmissions = 0
    /// The board's RESET notice, if it booted while the doctor listened (it was reset by the open).
    private(set) var reset: Message.Reset?
    /// Why the board refused HELLO, if it did.
    private(set) var refusal: String?
    private var notices: [Message.Telemetry] = []

    init(path: String, baud: Int) throws {
        transport = try openTransport(path: path, configuration: SerialConfiguration(baudRate: baud))
        try? transport.write([0], timeout: 0.1)  // end whatever partial frame the board holds (2.1.3)
    }

    func close() { transport.close() }

    private func now() -> Double { Date().timeIntervalSinceReferenceDate }

    /// Frames until `deadline`, each handed to `match`; returns the first message it accepts.
    private func receive(until deadline: Double, _ match: (Frame, Message) -> Bool) -> Message? {
        while now() < deadline {
            let bytes = (try? transport.read(maxCount: 512, timeout: min(0.02, max(0, deadline - now())))) ?? []
            for case .success(let frame) in decoder.push(bytes) {
                guard let message = try? Message(frame: frame) else { continue }
                switch message {
                case .reset(let r): reset = r
                case .telemetry(let t): notices.append(t)
                default: break
                }
                if match(frame, message) { return message }
            }
        }
        return nil
    }

    private func send(_ message: Message, sequence: UInt8) {
        if let bytes = try? message.encoded(sequence: sequence) { try? transport.write(bytes, timeout: 0.5) }
    }

    /// HELLO every 200 ms until INFO, at once again when a RESET shows the board booted.
    func hello(patience: Double) -> Message.Info? {
        let deadline = now() + patience
        while now() < deadline {
            sequence &+= 1
            let seq = sequence
            send(.hello(.init()), sequence: seq)
            let resetsBefore = reset
            let reply = receive(until: min(deadline, now() + 0.2)) { frame, message in
                if case .reset = message { return resetsBefore == nil }
                return frame.sequence == seq
                    && {
                        if case .info = message { return true }
                        if case .nack = message { return true }
                        return false
                    }()
            }
            switch reply {
            case .info(let info)?: return info
            case .nack(let nack)?:
                refusal = "the board refused HELLO: \(nack.code)"
                return nil
            default: continue
            }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// SET_CONFIG RECALIBRATE (2.13), then the board's restart: its RESET and INFO again.
    func recalibrate(patience: Double) -> Result<Message.Info, Failure> {
        reset = nil
        switch command(.setConfig(.init(key: .recalibrate, value: 1))) {
        case .ack?: break
        case .nack(let nack)?: return .failure(Failure(description: "the board refused RECALIBRATE: \(nack.code)"))
        default: return .failure(Failure(description: "no answer to SET_CONFIG RECALIBRATE"))
        }
        _ = receive(until: now() + patience) { _, m in
            if case .reset = m { return true }
            return false
        }
        guard reset != nil else { return .failure(Failure(description: "the board did not restart within \(patience) s of RECALIBRATE")) }
        guard let info = hello(patience: patience) else {
            return .failure(Failure(description: "the board restarted after RECALIBRATE but did not answer HELLO within \(patience) s"))
        }
        return .success(info)
    }

    /// A command and its response (ACK, NACK), retransmitted as 2.4 says.
    @discardableResult
    func command(_ message: Message) -> Message? {
        sequence &+= 1
        let seq = sequence
        for attempt in 0..<6 {
            if attempt > 0 { retransmissions += 1 }
            send(message, sequence: seq)
            let reply = receive(until: now() + 0.1) { frame, m in
                guard frame.sequence == seq else { return false }
                if case .ack = m { return true }
                if case .nack = m { return true }
                return false
            }
            if reply != nil { return reply }
        }
        return nil
    }

    func diag() -> Message.DiagReport? {
        for _ in 0..<5 {
            sequence &+= 1
            let seq = sequence
            send(.diag(.init()), sequence: seq)
            if case .diagReport(let d)? = receive(
                until: now() + 0.1,
                { frame, m in
                    if case .diagReport = m { return frame.sequence == seq }
                    return false
                })
            {
                return d
            }
        }
        return nil
    }

    /// One PING's round trip in seconds (nil when its PONG is lost).
    func ping() -> Double? {
        sequence &+= 1
        let echo = UInt32(sequence) | 0xD0C0_0000
        let sent = now()
        send(.ping(.init(echo: echo)), sequence: sequence)
        let reply = receive(until: sent + 0.1) { _, m in
            if case .pong(let p) = m { return p.echo == echo }
            return false
        }
        return reply == nil ? nil : now() - sent
    }

    enum Outcome {
        case finished
        case fault(MessageErrorCode)
        case failed(String)
    }

    /// 40 ms at amplitude 200 from slot 0: uploaded, committed, played, and its end awaited.
    func selfTest() -> (outcome: Outcome, started: UInt32?, ended: UInt32?, description: String) {
        var builder = ProgramBuilder(sharpness: false)
        builder.setA(200, at: 0)
        let program = builder.program(endingAt: 40).bytes
        guard case .ack? = command(.upload(.init(slot: 0, offset: 0, data: program))),
            case .ack? = command(.commit(.init(slot: 0, program: program)))
        else {
            return (.failed("the board did not accept the 40 ms test program"), nil, nil, "not played: upload refused")
        }
        notices.removeAll()
        guard case .ack? = command(.play(.init(slot: 0))) else {
            return (.failed("the board did not accept PLAY"), nil, nil, "not played: PLAY refused")
        }
        _ = receive(until: now() + 1) { _, m in
            if case .telemetry(let t) = m { return t.event == .finished || t.event == .fault || t.event == .stopped }
            return false
        }
        let started = notices.first { $0.event == .started }?.tick
        if let end = notices.first(where: { $0.event == .finished }) {
            return (.finished, started, end.tick, "played 40 ms: STARTED at tick \(started.map(String.init) ?? "?"), FINISHED at tick \(end.tick)")
        }
        if let fault = notices.first(where: { $0.event == .fault }) {
            let code = MessageErrorCode(fault.code)
            return (.fault(code), started, fault.tick, "the play ended with FAULT \(code)" + (started == nil ? " instead of starting" : ""))
        }
        return (.failed("no FINISHED within 1 s"), started, nil, "no end reported within 1 s")
    }
}
