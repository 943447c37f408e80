import HapticProtocol

/// The exact set of ramps that can start from one anchor (docs/compiler.md, "Segment fitting").
///
/// A ramp from value v at tick t to v + dv over D ticks shows, at tick t + k,
/// v + sgn(dv) * floor((|dv| k + floor(D/2)) / D) (PROTOCOL.md 1.9): the exact line
/// l(k) = v + dv k / D rounded to the nearest integer, halves away from v. So the shown value is
/// inside [lo, hi] exactly when
///
///     rising (dv > 0):  lo - 1/2 <= l(k) <  hi + 1/2
///     falling (dv < 0): lo - 1/2 <  l(k) <= hi + 1/2
///     flat (dv = 0):    lo <= v <= hi
///
/// Every tick k therefore bounds the slope s = dv / D to [(2(lo - v) - 1) / 2k, (2(hi - v) + 1) / 2k],
/// independently of D, with the upper end open for a rising ramp and the lower end open for a
/// falling one. The sweep keeps the intersection of these intervals over the ticks passed (two
/// fractions, compared by cross-multiplication: exact integers, no floating point) and, at each D,
/// the integer end deltas dv that the interval and the end tick's band allow. When the interval is
/// empty no longer ramp exists, so a sweep costs O(reach).
struct SegmentCone {
    /// A duration D that has feasible end deltas `low...high` (dv = end value - v).
    struct Feasible: Hashable {
        var duration: Int
        var low: Int
        var high: Int
    }

    /// Longest ramp the sweep considers: the format's longest RAMP duration.
    static let maximumDuration = Int(Instruction.maxDuration)

    /// Sweeps ramps from value `v` at tick `t` through `band`. Returns the longest feasible D
    /// (0 when t is the band's last tick) and, in `tail` (if given), the last `keep` feasible
    /// durations with their delta ranges, in increasing D.
    static func sweep(
        _ band: ChannelBand, from t: Int, value v: Int, keep: Int,
        tail: inout [Feasible]
    ) -> Int {
        tail.removeAll(keepingCapacity: true)
        return run(band, from: t, value: v, keep: keep, tail: &tail)
    }

    /// `sweep` without the tail: only the reach.
    static func reach(_ band: ChannelBand, from t: Int, value v: Int) -> Int {
        var none: [Feasible] = []
        return run(band, from: t, value: v, keep: 0, tail: &none)
    }

    private static func run(
        _ band: ChannelBand, from t: Int, value v: Int, keep: Int,
        tail: inout [Feasible]
    ) -> Int {
        let last = min(band.count - 1, t + maximumDuration)
        // Slope interval [ln / ld, un / ud], denominators positive. The sentinels (+-1024) are
        // steeper than any 8-bit ramp, so they never decide anything.
        var ln = -1024, ld = 1, un = 1024, ud = 1
        var reach = 0
        var k = t + 1
        band.lower.withUnsafeBufferPointer { lower in
            band.upper.withUnsafeBufferPointer { upper in
                while k <= last {
                    let d = k - t
                    let lo = Int(lower[k]) - v, hi = Int(upper[k]) - v
                    // End deltas at D = d: dv / d inside the slope interval, dv inside the band.
                    let x = ln * d
                    var low = ceilDiv(x, ld)
                    if low < 0 && x % ld == 0 { low += 1 }  // falling: the lower end is open
                    let y = un * d
                    var high = floorDiv(y, ud)
                    if high > 0 && y % ud == 0 { high -= 1 }  // rising: the upper end is open
                    low = max(low, lo)
                    high = min(high, hi)
                    if low <= high {
                        reach = d
                        if keep > 0 {
                            if tail.count == keep { tail.removeFirst() }
                            tail.append(Feasible(duration: d, low: low, high: high))
                        }
                    }
                    // Tick k as an inner tick of every longer ramp.
                    let nl = 2 * lo - 1, nu = 2 * hi + 1, den = 2 * d
                    if nl * ld > ln * den {
                        ln = nl
                        ld = den
                    }
                    if nu * ud < un * den {
                        un = nu
                        ud = den
                    }
                    // Empty, or a single slope s != 0 whose end is open on its own side (s = 0
                    // is never a bound: the numerators are odd).
                    if ln * ud >= un * ld { break }
                    k += 1
                }
            }
        }
        return reach
    }

    @inline(__always)
    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    @inline(__always)
    static func ceilDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? (a + b - 1) / b : -((-a) / b) }
}
