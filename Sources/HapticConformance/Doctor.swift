import Foundation
import HapticCompiler
import HapticProtocol
import HapticSession
import HapticTransport

/// What a board is and whether it works, with one line naming the cause and the fix when it does
/// not (`haptic doctor`, docs/cli.md): its identity, its output stage and driver, the link, and a
/// 40 ms self-test, over the kit's blocking client.
///
///     let report = Doctor.examine(port: "/dev/ttyACM0")
///     if let problem = report.problem { print(problem.cause, problem.fix) }
public enum Doctor {
    /// Opens `port` at `baud`, waits up to `patience` seconds for the board to answer (an
    /// Arduino resets when its port is opened and boots first), and examines it; with
    /// `recalibrate`, first has it recalibrate (SET_CONFIG RECALIBRATE: it restarts and calibrates
    /// while booting) and waits up to `patience` again for it to come back.
    public static func examine(
        port: String, baud: Int = SerialConfiguration.referenceBaudRate, patience: Double = 4, recalibrate: Bool = false
    ) -> DoctorReport {
        var report = DoctorReport(port: DoctorReport.Port(path: port, usb: DoctorReport.usb(of: port)))
        let transport: any Transport
        do {
            transport = try openTransport(path: port, configuration: SerialConfiguration(baudRate: baud))
        } catch {
            // The port's own error may already carry the hint: say it once.
            let text = "\(error)"
            report.problem = .init(
                cause: "cannot open \(port): \(text)",
                fix: text.contains("haptic ports")
                    ? "is the board plugged in, and no other program holding the port?"
                    : "check the path (haptic ports lists the ports), that the board is plugged in and that no other program has the port open")
            return report
        }
        defer { transport.close() }
        report.examine(DoctorLink(transport: transport), patience: patience, recalibrate: recalibrate)
        return report
    }
}

extension DoctorReport {
    mutating func examine(_ link: DoctorLink, patience: Double, recalibrate: Bool = false) {
        guard var info = link.hello(patience: patience) else {
            problem = Problem(
                cause: link.refusal ?? "no answer from \(port.path) within \(patience) s",
                fix: link.refusal == nil
                    ? "flash the HapticBridge firmware (make -C hardware/firmware/boards/atmega328p flash-uno PORT=\(port.path)), check --baud (the firmware runs at 500000), or close the program that has the board"
                    : "use a haptic and a firmware of the same protocol major version")
            return
        }
        if recalibrate {
            switch link.recalibrate(patience: patience) {
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
        link.command(.stop(.init(brake: true)))
        if info.capabilities.contains(.diag) {
            guard let d = link.diag() else {
                problem = Problem(
                    cause: "no DIAG_REPORT although the board has the DIAG capability",
                    fix: "reset the board; if it persists, flash the firmware again")
                return
            }
            examineStage(d, profile: ActuatorProfile.builtIn(reportedName: info.profileNameString))
        } else {
            notes.append(
                "the firmware does not report its output stage (no DIAG capability, as the Arduino library and the virtual device): the stage is not checked"
            )
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
                // stage reads STATUS every 16 ticks, MODE every 32): ask once more 100 ticks after the end.
                if let end = test.ended { link.wait(untilTick: end &+ 100) }
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

    /// The output stage from DIAG_REPORT, compared with the profile the board names.
    private mutating func examineStage(_ d: Message.DiagReport, profile: ActuatorProfile?) {
        var profileHz: Double?
        if case .lra(let lra)? = profile?.mechanics { profileHz = lra.resonanceHz }
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
    }

    private mutating func setStageFault(_ code: MessageErrorCode) {
        let advice = code.stageFaultAdvice ?? "fault \(code)"
        // "cause (category): fix" in the advice: split at the first colon for the report's two fields.
        let parts = advice.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        problem = Problem(code: Int(code.rawValue), cause: "\(code.name): \(parts[0])", fix: parts.count > 1 ? parts[1] : "reset the board")
    }
}
