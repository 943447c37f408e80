import Foundation
import SerialBridge

/// `haptic profile --sync --port A --port B ...`: the start and end skew of a group of boards
/// (`SyncProfiler`, docs/performance.md "Start skew across boards").
extension Profile {
    func runSync() async throws {
        let group = try await CommandFailure.reporting { try await HapticDeviceGroup.open(paths: port, baudRate: line.baud) }
        let report: SyncReport
        do {
            let profiler = SyncProfiler(group: group, options: .init(plays: n, longPlay: longPlay, compensatingRates: !noStretch))
            let progress = ProgressDisplay("sync profiling", total: Double(n + (longPlay > 0 ? 1 : 0)), quiet: json)
            report = try await profiler.run { progress.advance() }
            progress.finish()
        } catch {
            await group.close()
            throw CommandFailure("\(error)")
        }
        await group.close()
        emit(json ? try reportJSON(report) : Self.text(report))
    }

    static func text(_ report: SyncReport) -> String {
        func row(_ name: String, _ p50: Double, _ p99: Double, _ max: Double) -> String {
            name.padding(toLength: 30, withPad: " ", startingAt: 0) + [p50, p99, max].map { String(format: "%10.0f", $0) }.joined()
        }
        let stretch = report.rateCompensation ? "patterns stretched by each board's rate" : "no rate compensation"
        var lines = ["skew across \(report.boards.count) boards over \(report.plays) plays (\(report.alignment)-aligned, \(stretch))", ""]
        for board in report.boards {
            lines.append(
                String(
                    format: "%@ (%@): %+.0f +- %.0f ppm, offset +- %.0f us", board.port, board.actuatorProfile, board.ratePpm, board.ratePpmBound,
                    board.offsetBoundUs))
        }
        lines.append("")
        lines.append("                                     p50       p99       max  (us)")
        let (start, end, b) = (report.startSkew, report.endSkew, report.breakdown)
        lines.append(row("start skew, electrical", start.p50Us, start.p99Us, start.maxUs))
        lines.append(row("start skew, felt", start.felt.p50Us, start.felt.p99Us, start.felt.maxUs))
        lines.append(row("end skew, electrical", end.p50Us, end.p99Us, end.maxUs))
        lines.append(row("end skew, felt", end.felt.p50Us, end.felt.p99Us, end.felt.maxUs))
        lines.append("where the start skew comes from:")
        for (name, skew) in [
            ("  estimate bound", b.estimateBound), ("  tick quantisation", b.tickQuantisation), ("  estimate error", b.estimateError),
            ("  actuator onset", b.actuatorOnset),
        ] {
            lines.append(row(name, skew.p50Us, skew.p99Us, skew.maxUs))
        }
        if let long = report.longPlay {
            lines.append(
                String(
                    format: "long play (%.0f s): start skew %.0f us, end skew %.0f us (felt %.0f us)", long.seconds, long.startSkewUs, long.endSkewUs,
                    long.feltEndSkewUs))
        }
        if report.lateStarts > 0 { lines.append("late starts: \(report.lateStarts)") }
        lines += report.notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }
}
