/// The one percentile of every report (docs/performance.md, "Percentiles"): the nearest rank.
/// Of n values sorted ascending, the p-th percentile is the value at rank ⌈p/100 · n⌉ (counting
/// from 1, at least 1): the smallest value with at least p % of the values at or below it. The
/// median is the 50th percentile, the lower middle value for an even count. HdrHistogram's
/// `valueAtPercentile` (the latency reports) is the same rank on values recorded to three
/// significant digits.
public enum Percentile {
    /// The `p`-th percentile (0 < p ≤ 100) of `sorted`, sorted ascending; 0 for no values.
    public static func nearestRank(_ p: Double, ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// The same for values in any order.
    public static func nearestRank(_ p: Double, of values: [Double]) -> Double {
        nearestRank(p, ofSorted: values.sorted())
    }

    /// The median: the 50th percentile.
    public static func median(_ values: [Double]) -> Double { nearestRank(50, of: values) }
}
