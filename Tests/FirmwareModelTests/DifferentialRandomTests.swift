import FirmwareModel
import Foundation
import Testing

/// Random programs from seeded generators (RandomScenarios.swift) on the Swift model and the C
/// core side by side, tick for tick. `HB_DIFF_BASE` changes the base seed (default fixed, so
/// every run checks the same cases); `HB_DIFF_SCALE` multiplies the case counts.
struct DifferentialRandomTests {
    static let baseSeed: UInt64 =
        ProcessInfo.processInfo.environment["HB_DIFF_BASE"].flatMap { UInt64($0.replacingOccurrences(of: "0x", with: ""), radix: 16) }
        ?? 0x4842_0000_0000
    static let scale = ProcessInfo.processInfo.environment["HB_DIFF_SCALE"].flatMap(Double.init) ?? 1

    @Test(arguments: RandomKind.allCases)
    func randomCasesBehaveTheSame(_ kind: RandomKind) {
        let count = Int(Double(kind.count) * Self.scale)
        let start = ContinuousClock.now
        var failures = 0
        var endings: [UInt8: Int] = [:]  // final error code -> cases
        var busiestTick = 0
        for index in 0..<count {
            let seed = kind.seed(index, base: Self.baseSeed)
            var outcome = Outcome()
            if !expectSameBehaviour(kind.scenario(seed: seed), label: kind.rawValue, seed: seed, outcome: &outcome) {
                failures += 1
                if failures == 3 { break }  // the first ones say it all
            }
            endings[outcome.finalError, default: 0] += 1
            busiestTick = max(busiestTick, outcome.maxExecuted)
        }
        let tally = endings.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
        print(
            "differential \(kind.rawValue): \(count) cases, \(failures) differing, \(ContinuousClock.now - start); final error codes \(tally); most executions in one tick \(busiestTick)"
        )
        // The generator reaches what it is there for.
        for code in kind.expectedEndings where Self.scale >= 1 {
            #expect(endings[code, default: 0] > 0, "\(kind.rawValue) never ended with error \(code)")
        }
        #expect(busiestTick <= Interpreter.maxExecutionsPerTick)
        if kind == .edges && Self.scale >= 1 { #expect(busiestTick == 9, "the per-tick bound of 1.15 is reached") }
    }

    /// `HB_DIFF_REPLAY=<kind>:<seed>`: runs that one case and prints it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HB_DIFF_REPLAY"] != nil))
    func replayDifferentialCase() throws {
        let parts = ProcessInfo.processInfo.environment["HB_DIFF_REPLAY"]!.split(separator: ":")
        let kind = try #require(RandomKind(rawValue: String(parts[0])))
        let seed = try #require(UInt64(parts[1].replacingOccurrences(of: "0x", with: ""), radix: 16))
        let scenario = kind.scenario(seed: seed)
        print(scenario.summary)
        #expect(expectSameBehaviour(scenario, label: kind.rawValue, seed: seed))
    }
}
