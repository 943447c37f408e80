import ArgumentParser
import Foundation
import HapticCompiler

/// A limit a figure of the report must meet, set by an option (`profile --max-p99`,
/// `--min-speedup`; `bench --max-error`, `--max-bytes`) so that CI can fail on it. In the JSON
/// as `gates: [{name, value, limit, met}]` (docs/cli.md); a missed gate is one line on standard
/// error after the normal output, and exit status 1.
struct Gate: Encodable {
    /// The option without its dashes: "max-p99".
    var name: String
    var value: Double
    var limit: Double
    var met: Bool
    /// The figure as the line names it ("prepared p99") and how a number of it reads ("3.412 ms").
    private let figure: String
    private let format: @Sendable (Double) -> String
    private let atMost: Bool

    private enum CodingKeys: String, CodingKey { case name, value, limit, met }

    /// `value` must be at most `limit` (`--max-...`).
    static func atMost(_ name: String, _ figure: String, value: Double, limit: Double, format: @escaping @Sendable (Double) -> String) -> Gate {
        Gate(name: name, value: value, limit: limit, met: value <= limit, figure: figure, format: format, atMost: true)
    }

    /// `value` must be at least `limit` (`--min-...`).
    static func atLeast(_ name: String, _ figure: String, value: Double, limit: Double, format: @escaping @Sendable (Double) -> String) -> Gate {
        Gate(name: name, value: value, limit: limit, met: value >= limit, figure: figure, format: format, atMost: false)
    }

    /// `gate missed: prepared p99 3.412 ms > --max-p99 2.500 ms`
    var missedLine: String {
        "gate missed: \(figure) \(format(value)) \(atMost ? ">" : "<") --\(name) \(format(limit))"
    }

    /// After the normal output: a line on standard error for each missed gate, then exit status 1
    /// if any was missed (or `failing` already, for a command that fails for its own reasons too).
    static func enforce(_ gates: [Gate], failing: Bool = false) throws {
        let missed = gates.filter { !$0.met }
        for gate in missed { FileHandle.standardError.write(Data((gate.missedLine + "\n").utf8)) }
        if failing || !missed.isEmpty { throw ExitCode(1) }
    }
}

/// A library's report with the gates the command judged on it, encoded as one document: the
/// report's keys and `gates` beside them. Reads like the report (`gated.totals`).
@dynamicMemberLookup
struct Gated<Report: Encodable>: Encodable {
    var report: Report
    var gates: [Gate] = []

    subscript<Value>(dynamicMember keyPath: KeyPath<Report, Value>) -> Value { report[keyPath: keyPath] }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.encode(gates, forKey: ReportKey("gates"))
    }
}
