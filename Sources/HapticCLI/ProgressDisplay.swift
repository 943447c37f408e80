import Foundation

/// Progress of long work on standard error, so that standard output stays the result: a bar
/// redrawn in place on a terminal (at most 10 times a second), a plain line at every tenth
/// otherwise (logs, CI), nothing when `quiet` (`--json`).
final class ProgressDisplay: @unchecked Sendable {  // state behind `lock`
    private let label: String
    private let total: Double
    private let unit: String
    private let quiet: Bool
    private let terminal = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var done = 0.0
    private var lastDraw = 0.0
    private var lastTenth = -1
    private var drawn = false

    /// `total` steps (or seconds, with `unit` "s") of work called `label`.
    init(_ label: String, total: Double, unit: String = "", quiet: Bool = false) {
        self.label = label
        self.total = max(total, 1e-9)
        self.unit = unit
        self.quiet = quiet
    }

    func advance(by steps: Double = 1) {
        lock.withLock { update(done + steps) }
    }

    func set(_ value: Double) {
        lock.withLock { update(value) }
    }

    /// Clears the bar (a terminal) so the result starts on a clean line.
    func finish() {
        lock.withLock {
            if terminal && drawn { write("\r\u{1B}[2K") }
            drawn = false
        }
    }

    private func update(_ value: Double) {
        done = min(max(value, 0), total)
        guard !quiet else { return }
        let fraction = done / total
        if terminal {
            let now = Date().timeIntervalSince1970
            guard now - lastDraw >= 0.1 || done >= total else { return }
            lastDraw = now
            let width = 30, filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            write("\r\(label) [\(bar)] \(amount(done))/\(amount(total))\(unit) ")
            drawn = true
        } else {
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            write("\(label): \(tenth * 10) % (\(amount(done))/\(amount(total))\(unit))\n")
        }
    }

    private func amount(_ value: Double) -> String {
        unit == "s" ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
