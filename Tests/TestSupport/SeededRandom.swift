import HapticTransport

/// The one seeded generator of the test suites: SplitMix64, the same one the fault injector uses,
/// so a failing case is reproduced from the seed it prints.
public typealias SeededGenerator = HapticTransport.SeededGenerator

extension SeededGenerator {
    /// 0 ..< n (n > 0). Modulo bias is irrelevant here; speed in debug builds is not.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    public mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    public mutating func percent(_ p: Int) -> Bool { below(100) < p }
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    public mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
}
